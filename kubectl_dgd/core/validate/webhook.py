"""Layer "webhook": the validating webhook's rules that apply on create and on every update.

Findings carry the operator's index-based field path and ``<Type>: <detail>`` message; rules that
need cluster state come back as ``info`` findings saying they were not checked offline.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate import (
    provider_override,
    rules_by_version,
    webhook_components,
    webhook_lpx,
    webhook_metadata,
    webhook_min_available,
    webhook_restart,
    webhook_topology,
)
from kubectl_dgd.core.validate.fielderr import forbidden, required
from kubectl_dgd.core.validate.graphview import (
    as_list,
    component_path,
    components,
    dig,
    pathway,
    spec,
)


def check_create(
    obj: dict[str, Any],
    profile: Profile,
    old: dict[str, Any] | None = None,
    changed_alpha: frozenset[str] = frozenset(),
) -> list[Finding]:
    """The create rules for ``obj`` (defaulted). ``old`` (the stored object) enables update
    ratcheting; ``changed_alpha`` lists the components of a v1alpha1 update whose alpha-only
    service fields changed."""
    if not isinstance(obj, dict):
        return []
    way = pathway(obj, profile, creating=old is None)
    # The operator's order: metadata, root override, priority class, components, restart,
    # topology, KV transfer policy (the API server lists the errors in that order).
    version = profile.operator_version
    found = webhook_metadata.check(obj, version)
    root = spec(obj)
    found += provider_override.check(obj, way, old, version)
    if root.get("priorityClassName") and not way.grove:
        found.append(forbidden("spec.priorityClassName", way.reason, "priority-class-grove-only"))
    if not as_list(root.get("components")):
        found.append(
            required("spec.components", "must have at least one component", "components-required")
        )
    found += _components(obj, profile, way, old)
    found += webhook_min_available.check(obj, old, way.grove)
    if root.get("restart") is not None:
        found += webhook_restart.check(obj)
    found += provider_override.check_topology_combination(obj, version)
    found += webhook_topology.check_topology(obj, way)
    found += webhook_topology.check_kv_transfer_policy(obj, way, webhook_lpx.has_lpx(obj))
    found += webhook_lpx.check(obj, way, profile.lpx, old, changed_alpha)
    # The rules the selected operator release does not have are dropped here (one table).
    return rules_by_version.gate(found, version)


def _components(
    obj: dict[str, Any], profile: Profile, way: Any, old: dict[str, Any] | None
) -> list[Finding]:
    old_by_name = {str(c.get("name")): c for _, c in components(old)} if old is not None else {}
    everything = [c for _, c in components(obj)]
    backend = spec(obj).get("backendFramework")
    found: list[Finding] = []
    for i, component in components(obj):
        ctx = webhook_components.ComponentContext(
            way=way,
            dgd_name=str(dig(obj, "metadata", "name") or ""),
            all_components=everything,
            backend=backend if isinstance(backend, str) and backend else None,
            checkpoint_gate=profile.checkpoint,
            old=old_by_name.get(str(component.get("name"))),
            version=profile.operator_version,
        )
        found += webhook_components.check(component, component_path(i), ctx)
    return found
