"""Update-only rules per component, matched by name between stored and new objects."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import main_container_index
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import NEWEST_VERSION, at_least
from kubectl_dgd.core.validate import webhook_update_roles
from kubectl_dgd.core.validate.fielderr import forbidden, invalid
from kubectl_dgd.core.validate.graphview import (
    component_path,
    components,
    effective_mode,
    experimental,
    is_worker,
    node_count,
)
from kubectl_dgd.core.validate.webhook_gpu import is_gpu_resource, power_limit, power_path
from kubectl_dgd.core.validate.webhook_update_topology import component_topology

SCALING_ADAPTER = (
    "cannot be modified directly when scaling adapter is enabled; scale or update the related "
    "DynamoGraphDeploymentScalingAdapter instead"
)
RECREATE = "delete and recreate the DynamoGraphDeployment"


def check(new: dict[str, Any], old: dict[str, Any], version: str = NEWEST_VERSION) -> list[Finding]:
    before = {str(c.get("name")): c for _, c in components(old)}
    found: list[Finding] = []
    for i, component in components(new):
        previous = before.get(str(component.get("name")))
        if previous is None:
            continue  # reported by the component-set rule
        base = component_path(i)
        # The operator's order: node topology, then roles, then the LPX/non-LPX type.
        found += _multinode(component, previous, base, version)
        found += webhook_update_roles.check(component, previous, base)
        found += _lpx_type(component, previous, base)
        found += _scaling_adapter(component, previous, base)
        found += component_topology(component, previous, base)
        found += _gms_layout(component, previous, base)
        found += _force_scaling_group(component, previous, base)
        found += _power(component, previous, base)
    return found


NODE_COUNT_NEWER = (
    "multinode.nodeCount changed: admitted by operators up to 1.5, "
    "but newer operators reject it as `Invalid value: {count}: field is immutable`"
)


def _lpx_type(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    """1.6: a component may not become LPX or stop being LPX (also unset -> lpx)."""
    if (new.get("type") == "lpx") == (old.get("type") == "lpx"):
        return []
    return [
        invalid(
            f"{base}.type",
            new.get("type"),
            "cannot change node topology between LPX and non-LPX after creation",
            "lpx-type-change",
        )
    ]


def _multinode(new: dict[str, Any], old: dict[str, Any], base: str, version: str) -> list[Finding]:
    if (node_count(new) > 1) == (node_count(old) > 1):
        if node_count(new) > 1 and node_count(new) != node_count(old):
            if is_worker(new):
                # 1.6 (U4): nodeCount is immutable for every multinode-capable component.
                found = [
                    invalid(
                        f"{base}.multinode.nodeCount",
                        node_count(new),
                        "field is immutable",
                        "node-count-immutable",
                    )
                ]
            else:
                found = []
            if power_limit(new) is not None and at_least(version, "1.4"):
                return found  # 1.4-1.5 reject it through the power rule (U13) instead
            message = NODE_COUNT_NEWER.format(count=node_count(new))
            return [
                *found,
                Finding(
                    "warning",
                    "webhook",
                    f"{base}.multinode.nodeCount",
                    message,
                    "node-count-change",
                ),
            ]
        return []
    if node_count(new) <= 1 and not is_worker(new):
        return []  # removing a legacy multinode block from a type that never supported it
    return [
        invalid(
            f"{base}.multinode",
            new.get("multinode"),
            "cannot change node topology between single-node and multi-node after creation",
            "multinode-toggle",
        )
    ]


def _scaling_adapter(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    adapter = new.get("scalingAdapter") is not None or old.get("scalingAdapter") is not None
    if not adapter or new.get("replicas", 1) == old.get("replicas", 1):
        return []
    return [forbidden(f"{base}.replicas", SCALING_ADAPTER, "scaling-adapter-replicas")]


def _gms_layout(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    found: list[Finding] = []
    gms_new, gms_old = experimental(new, "gpuMemoryService"), experimental(old, "gpuMemoryService")
    if (effective_mode(gms_new) == "InterPod") != (effective_mode(gms_old) == "InterPod"):
        found.append(
            invalid(
                f"{base}.experimental.gpuMemoryService.mode",
                None if gms_new is None else effective_mode(gms_new),
                f"the inter-pod GMS layout cannot be toggled after creation; {RECREATE}",
                "gms-layout-immutable",
            )
        )
    fo_new, fo_old = experimental(new, "failover"), experimental(old, "failover")
    inter_new, inter_old = (
        effective_mode(fo_new) == "InterPod",
        effective_mode(fo_old) == "InterPod",
    )
    if inter_new != inter_old:
        value = (
            None
            if fo_new is None
            else {k: fo_new[k] for k in ("mode", "numShadows") if k in fo_new}
        )
        found.append(
            invalid(
                f"{base}.experimental.failover",
                value,
                f"inter-pod GMS failover cannot be toggled after creation; {RECREATE}",
                "failover-layout-immutable",
            )
        )
    elif inter_new and fo_new is not None and fo_old is not None:
        shadows_new, shadows_old = fo_new.get("numShadows", 1), fo_old.get("numShadows", 1)
        if shadows_new != shadows_old:
            found.append(
                invalid(
                    f"{base}.experimental.failover.numShadows",
                    shadows_new,
                    f"is immutable for inter-pod GMS failover; {RECREATE} to change it",
                    "failover-shadows-immutable",
                )
            )
    return found


def _force_scaling_group(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    value_new = (experimental(new, "grove") or {}).get("forceScalingGroup")
    value_old = (experimental(old, "grove") or {}).get("forceScalingGroup")
    if (value_new is True) == (value_old is True):
        return []
    return [
        invalid(
            f"{base}.experimental.grove.forceScalingGroup",
            value_new,
            f"cannot be toggled after creation; {RECREATE} to change it",
            "force-scaling-group-toggle",
        )
    ]


def _gpu_limit(component: dict[str, Any]) -> tuple[str | None, Any]:
    index = main_container_index(component)
    if index is None:
        return None, None
    container = component["podTemplate"]["spec"]["containers"][index]
    limits = (
        (container.get("resources") or {}).get("limits")
        if isinstance(container.get("resources"), dict)
        else None
    )
    for name, value in (limits or {}).items() if isinstance(limits, dict) else []:
        if is_gpu_resource(str(name)):
            return f"podTemplate.spec.containers[{index}].resources.limits[{name}]", value
    return f"podTemplate.spec.containers[{index}].resources.limits[nvidia.com/gpu]", None


def _power(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    limit_new, limit_old = power_limit(new), power_limit(old)
    if limit_new != limit_old:
        return [
            invalid(power_path(base), limit_new, "field is immutable", "gpu-power-limit-immutable")
        ]
    if limit_new is None:
        return []  # unannotated components may change GPUs freely
    found: list[Finding] = []
    path_new, gpus_new = _gpu_limit(new)
    _, gpus_old = _gpu_limit(old)
    if path_new is not None and str(gpus_new) != str(gpus_old):
        found.append(
            invalid(f"{base}.{path_new}", gpus_new, "field is immutable", "gpu-power-limit-gpus")
        )
    if node_count(new) != node_count(old) and node_count(new) > 1 and node_count(old) > 1:
        found.append(
            invalid(
                f"{base}.multinode.nodeCount",
                node_count(new),
                "field is immutable",
                "gpu-power-limit-nodes",
            )
        )
    return found
