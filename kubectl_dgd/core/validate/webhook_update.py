"""Layer "webhook", update-only rules: immutability, component set, restart during rollout.

Components are matched by name between the stored and the new object; paths use the new index.
Replica edits beside a scaling adapter are judged as from an ordinary user (not the operator's or
the planner's service account), which is who runs this tool. Type and minAvailable immutability
are CEL rules of the CRD and are left to the CEL layer; 1.6's effective-minimum rule, which spans
the old field and the provider override, is ``webhook_min_available``'s.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import WORKLOAD_PROVIDER_ANNOTATION as PROVIDER
from kubectl_dgd.core.phase import ACTIVE_ROLLOUT_PHASES as ACTIVE_ROLLOUT
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate import (
    provider_override,
    rules_by_version,
    webhook_min_available,
    webhook_update_components,
)
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, warning
from kubectl_dgd.core.validate.graphview import (
    annotations_of,
    as_list,
    component_names,
    dig,
    spec,
)
from kubectl_dgd.core.validate.webhook_update_topology import TOPOLOGY_IMMUTABLE

KV_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change the KV transfer policy"
)


def check_update(new: dict[str, Any], old: dict[str, Any], profile: Profile) -> list[Finding]:
    if not isinstance(new, dict) or not isinstance(old, dict):
        return []
    found = _provider_annotation(new, old)
    found += _override_immutability(new, old, profile.operator_version)
    found += _component_set(new, old)
    # The operator's order: per-component rules before the graph-level ones, the rollout last.
    found += webhook_update_components.check(new, old, profile.operator_version)
    found += webhook_min_available.check_update(new, old)
    found += _backend_framework(new, old)
    found += _spec_topology(new, old)
    found += _kv_transfer_policy(new, old)
    found += _restart_during_rollout(new, old)
    return rules_by_version.gate(found, profile.operator_version)


def _provider_annotation(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    path = f"metadata.annotations[{PROVIDER}]"
    before, after = annotations_of(old).get(PROVIDER), annotations_of(new).get(PROVIDER)
    if before is None and after is not None:
        return [
            forbidden(
                path,
                "may only be materialized by the Dynamo operator",
                "workload-provider-materialize",
            )
        ]
    if before is not None and after != before:
        return [invalid(path, after, "field is immutable", "workload-provider-immutable")]
    return []


def _site_key(new_or_old: dict[str, Any], path: str) -> str:
    """A provider-override site keyed by component name, so reordering does not count as a change."""
    if not path.startswith("spec.components["):
        return path
    index = int(path[len("spec.components[") : path.index("]")])
    names = component_names(new_or_old)
    rest = path[path.index("]") + 1 :]
    if rest.startswith(".roles["):  # 1.6 matches role overrides by role name, not position
        j = int(rest[len(".roles[") : rest.index("]")])
        listed = as_list(spec(new_or_old).get("components"))
        owner = listed[index] if index < len(listed) and isinstance(listed[index], dict) else {}
        roles = as_list(owner.get("roles"))
        role = roles[j] if j < len(roles) and isinstance(roles[j], dict) else {}
        rest = f".roles[{role.get('name', j)}]{rest[rest.index(']') + 1 :]}"
    return f"{names[index] if index < len(names) else index}{rest}"


def _override_immutability(new: dict[str, Any], old: dict[str, Any], version: str) -> list[Finding]:
    before = {
        _site_key(old, s.path): s.override for s in provider_override.present_sites(old, version)
    }
    found: list[Finding] = []
    for site in provider_override.present_sites(new, version):
        previous = before.get(_site_key(new, site.path))
        if previous is None:
            continue  # adding the first override is allowed
        for field in ("apiVersion", "target"):
            if previous.get(field) and site.override.get(field) != previous.get(field):
                found.append(
                    invalid(
                        f"{site.path}.{field}",
                        site.override.get(field),
                        "field is immutable",
                        "provider-override-immutable",
                    )
                )
    return found


def _component_set(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    after, before = set(component_names(new)), set(component_names(old))
    parts = []
    if added := sorted(after - before):
        parts.append(f"components added: [{' '.join(added)}]")
    if removed := sorted(before - after):
        parts.append(f"components removed: [{' '.join(removed)}]")
    if not parts:
        return []
    detail = "component topology is immutable and cannot be modified after creation: " + ", ".join(
        parts
    )
    return [forbidden("spec.components", detail, "component-set-immutable")]


def _backend_framework(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    before, after = spec(old).get("backendFramework") or "", spec(new).get("backendFramework") or ""
    if before == after or not before:
        return []
    return [
        invalid(
            "spec.backendFramework",
            after,
            "is immutable and cannot be changed after creation",
            "backend-immutable",
        ),
        warning(
            "spec.backendFramework",
            "Changing spec.backendFramework may cause unexpected behavior",
            "backend-change-warning",
        ),
    ]


def ordered(value: Any, keys: tuple[str, ...]) -> Any:
    """A mapping in the Go struct's field order (how the operator's JSON prints it)."""
    if not isinstance(value, dict):
        return value
    first = {k: value[k] for k in keys if k in value and value[k] not in (None, "")}
    rest = {k: v for k, v in value.items() if k not in keys}
    return first | rest


def _spec_topology(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    keys = ("clusterTopologyName", "packDomain")
    before, after = spec(old).get("topologyConstraint"), spec(new).get("topologyConstraint")
    if ordered(before, keys) == ordered(after, keys):
        return []
    return [
        invalid(
            "spec.topologyConstraint",
            ordered(after, keys),
            TOPOLOGY_IMMUTABLE,
            "topology-immutable",
        )
    ]


KV_KEYS = ("labelKey", "clusterTopologyName", "domain", "enforcement", "preferredWeight")


def _kv_effective(policy: Any) -> Any:
    if not isinstance(policy, dict):
        return policy
    return ordered(
        {"enforcement": "required"} | {k: v for k, v in policy.items() if v is not None}, KV_KEYS
    )


def _kv_transfer_policy(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    before = dig(old, "spec", "experimental", "kvTransferPolicy")
    after = dig(new, "spec", "experimental", "kvTransferPolicy")
    if _kv_effective(before) == _kv_effective(after):
        return []
    return [
        invalid(
            "spec.experimental.kvTransferPolicy",
            ordered(after, KV_KEYS),
            KV_IMMUTABLE,
            "kv-transfer-immutable",
        )
    ]


def _restart_during_rollout(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    phase = dig(old, "status", "rollingUpdate", "phase")
    after = dig(new, "spec", "restart", "id")
    if phase not in ACTIVE_ROLLOUT or not after or after == dig(old, "spec", "restart", "id"):
        return []
    return [
        invalid(
            "spec.restart.id",
            after,
            f"cannot be changed while a rolling update is {phase}",
            "restart-during-rolling-update",
        )
    ]
