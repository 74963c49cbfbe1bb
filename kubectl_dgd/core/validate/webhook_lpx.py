"""LPX components (1.6): the ``lpx.enabled`` gate, their Grove-only shape, roles and pairs.

Facts from the operator's shared validation (search index 70561057532) and its LPX admission
table (70778590138). An LPX component either has its own ``conductor`` role, or two LPX
components form a shared draft and target pair: the draft (no conductor) feeds the target (with
the conductor), which owns the serving endpoint and minimum availability.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import MAIN_CONTAINER
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, required
from kubectl_dgd.core.validate.graphview import (
    Pathway,
    as_dict,
    as_list,
    component_path,
    components,
    dig,
    spec,
)

GATE = "LPX components require lpx.enabled=true"
NO_TOPOLOGY = "LPX does not support Grove topologyConstraint"
CONDUCTOR_OR_PAIR = (
    "LPX components must each declare a conductor role or form a shared draft and target pair"
)
SCHEDULER = "lpx-scheduler"
DEFAULT_SCHEDULER = "default-scheduler"
SCHEDULER_OWNED = "LPX schedulerName is controller-owned; declare an LPX component instead"


def is_lpx(component: dict[str, Any]) -> bool:
    return component.get("type") == "lpx"


def has_lpx(obj: dict[str, Any]) -> bool:
    return any(is_lpx(c) for _, c in components(obj))


def _role_named(component: dict[str, Any], name: str) -> tuple[int, dict[str, Any]] | None:
    for j, role in enumerate(as_list(component.get("roles"))):
        if isinstance(role, dict) and role.get("name") == name:
            return j, role
    return None


def check_component(component: dict[str, Any], base: str) -> list[Finding]:
    """Component-level LPX rules, in the operator's order (before minAvailable and roles)."""
    if not is_lpx(component):
        return _ordinary_scheduler(component, base)
    found: list[Finding] = []
    if component.get("podTemplate") is not None:
        # v1beta1 requests meet the CEL rule first; this is what a converted alpha graph gets.
        found.append(
            forbidden(
                f"{base}.podTemplate", "LPX Pod templates belong to roles", "lpx-component-template"
            )
        )
    if component.get("topologyConstraint") is not None:
        found.append(forbidden(f"{base}.topologyConstraint", NO_TOPOLOGY, "lpx-topology"))
    lpx = component.get("lpx")
    if isinstance(lpx, dict):
        build = lpx.get("buildId")
        if not isinstance(build, str) or not build.strip():
            found.append(
                required(f"{base}.lpx.buildId", "LPX component requires a buildId", "lpx-build-id")
            )
    return found


def _ordinary_scheduler(component: dict[str, Any], base: str) -> list[Finding]:
    if dig(component, "podTemplate", "spec", "schedulerName") != SCHEDULER:
        return []
    return [
        forbidden(f"{base}.podTemplate.spec.schedulerName", SCHEDULER_OWNED, "lpx-scheduler-name")
    ]


def check_role_template(template: dict[str, Any], path: str, role: dict[str, Any]) -> list[Finding]:
    """An LPX role's pod template: LPX owns its addressing, placement and the agent container."""
    name = str(role.get("name"))
    agent = name == "agent"
    pod = as_dict(template.get("spec"))
    base = f"{path}.spec"
    found: list[Finding] = []
    listed = [c for c in as_list(pod.get("containers")) if isinstance(c, dict)]
    if not any(c.get("name") == MAIN_CONTAINER for c in listed):
        found.append(
            required(
                f"{base}.containers",
                f'LPX {name} component requires a "{MAIN_CONTAINER}" runtime container',
                "lpx-main-container",
            )
        )
    for group in ("containers", "initContainers"):
        for k, container in enumerate(as_list(pod.get(group))):
            if not isinstance(container, dict):
                continue
            image = container.get("image")
            if not isinstance(image, str) or not image.strip():
                found.append(
                    required(
                        f"{base}.{group}[{k}].image",
                        "must specify a non-empty image",
                        "lpx-container-image",
                    )
                )
            if agent and container.get("name") == "agent":
                found.append(
                    forbidden(
                        f"{base}.{group}[{k}].name",
                        'LPX reserves "agent" for the materialized role container',
                        "lpx-agent-name",
                    )
                )
    scheduler = pod.get("schedulerName")
    if scheduler and scheduler != DEFAULT_SCHEDULER:
        found.append(
            forbidden(
                f"{base}.schedulerName", "LPX owns role scheduler selection", "lpx-role-placement"
            )
        )
    for key in ("hostname", "subdomain", "nodeName"):
        if pod.get(key):
            found.append(
                forbidden(
                    f"{base}.{key}", "LPX owns role addressing and placement", "lpx-role-placement"
                )
            )
    if as_list(pod.get("topologySpreadConstraints")):
        found.append(
            forbidden(
                f"{base}.topologySpreadConstraints", "LPX owns role placement", "lpx-role-placement"
            )
        )
    if agent:
        found += _agent_placement(pod, base)
    return found


def _agent_placement(pod: dict[str, Any], base: str) -> list[Finding]:
    found: list[Finding] = []
    if as_dict(pod.get("nodeSelector")):
        found.append(
            forbidden(
                f"{base}.nodeSelector",
                "LPX exclusively owns Agent node selection",
                "lpx-agent-placement",
            )
        )
    affinity = as_dict(pod.get("affinity"))
    terms = (
        ("nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
        ("podAffinity", "requiredDuringSchedulingIgnoredDuringExecution"),
        ("podAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
        ("podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution"),
        ("podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
    )
    if any(as_list(dig(affinity, kind, rule)) for kind, rule in terms):
        found.append(
            forbidden(
                f"{base}.affinity",
                "node-local LPX supports only required nodeAffinity",
                "lpx-agent-placement",
            )
        )
    if as_list(pod.get("schedulingGates")):
        found.append(
            forbidden(
                f"{base}.schedulingGates",
                "Grove and LPX own Agent scheduling gates",
                "lpx-agent-placement",
            )
        )
    if as_list(pod.get("resourceClaims")):
        found.append(
            forbidden(
                f"{base}.resourceClaims",
                "node-local LPX Agents cannot use ResourceClaims",
                "lpx-agent-placement",
            )
        )
    return found


def check(
    obj: dict[str, Any],
    way: Pathway,
    gate: bool,
    old: dict[str, Any] | None,
    changed_alpha: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Graph-level LPX rules (after the per-component ones, as the operator lists them).
    ``changed_alpha`` names components whose v1alpha1 service changed in fields the v1beta1
    conversion only preserves (ingress, service labels, ...): the gate counts those as changed."""
    if not has_lpx(obj):
        return []
    found: list[Finding] = []
    old_by_name = {str(c.get("name")): c for _, c in components(old)} if old is not None else {}
    lpx = [(i, c) for i, c in components(obj) if is_lpx(c)]
    for i, component in lpx:
        name = str(component.get("name"))
        unchanged = (
            old is not None and old_by_name.get(name) == component and name not in changed_alpha
        )
        if not gate and not unchanged:
            found.append(forbidden(f"{component_path(i)}.type", GATE, "lpx-gate"))
    if not way.grove:
        found.append(forbidden("spec.components", way.reason, "lpx-grove-only"))
    for i, component in lpx:
        conductor = _role_named(component, "conductor")
        if conductor is not None and not isinstance(conductor[1].get("podTemplate"), dict):
            found.append(
                required(
                    f"{component_path(i)}.roles[{conductor[0]}].podTemplate",
                    "LPX conductor requires an explicit podTemplate",
                    "lpx-conductor-template",
                )
            )
    found += _conductors_and_pairs(lpx)
    if spec(obj).get("topologyConstraint") is not None:
        found.append(forbidden("spec.topologyConstraint", NO_TOPOLOGY, "lpx-topology"))
    return found


def _conductors_and_pairs(lpx: list[tuple[int, dict[str, Any]]]) -> list[Finding]:
    drafts = [(i, c) for i, c in lpx if _role_named(c, "conductor") is None]
    if not drafts:
        return []  # independent engines, each with its own conductor
    if len(lpx) != 2 or len(drafts) != 1:
        return [forbidden("spec.components", CONDUCTOR_OR_PAIR, "lpx-conductor-role")]
    (d, draft), (t, target) = drafts[0], next((i, c) for i, c in lpx if c is not drafts[0][1])
    found: list[Finding] = []
    replicas = draft.get("replicas")
    if isinstance(replicas, int) and not 1 <= replicas <= 8:
        found.append(
            invalid(
                f"{component_path(d)}.replicas",
                replicas,
                "draft replicas must be between 1 and 8",
                "lpx-draft-replicas",
            )
        )
    if draft.get("modelRef") is not None:
        found.append(
            forbidden(
                f"{component_path(d)}.modelRef",
                "the shared target owns the serving endpoint",
                "lpx-draft-endpoint",
            )
        )
    if draft.get("minAvailable") not in (None, 1):
        found.append(
            forbidden(
                f"{component_path(d)}.minAvailable",
                "draft minAvailable must be omitted or 1; the shared target owns minimum availability",
                "lpx-draft-min-available",
            )
        )
    target_replicas = target.get("replicas")
    if target_replicas is not None and target_replicas != 1:
        found.append(
            invalid(
                f"{component_path(t)}.replicas",
                target_replicas,
                "shared target replicas must be one",
                "lpx-target-replicas",
            )
        )
    return found
