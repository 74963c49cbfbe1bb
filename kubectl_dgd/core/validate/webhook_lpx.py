"""LPX components (newer operators): the ``lpx.enabled`` gate and their Grove-only shape.

The LPX admission source is not public; rules here are the ones the published test tables show.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden
from kubectl_dgd.core.validate.graphview import Pathway, component_path, components, spec

GATE = "LPX components require lpx.enabled=true"
NO_TOPOLOGY = "LPX does not support Grove topologyConstraint"


def is_lpx(component: dict[str, Any]) -> bool:
    return component.get("type") == "lpx"


def has_lpx(obj: dict[str, Any]) -> bool:
    return any(is_lpx(c) for _, c in components(obj))


def check(
    obj: dict[str, Any], way: Pathway, gate: bool, old: dict[str, Any] | None
) -> list[Finding]:
    if not has_lpx(obj):
        return []
    found: list[Finding] = []
    old_by_name = {str(c.get("name")): c for _, c in components(old)} if old is not None else {}
    for i, component in components(obj):
        if not is_lpx(component):
            continue
        unchanged = old is not None and old_by_name.get(str(component.get("name"))) == component
        if not gate and not unchanged:
            found.append(forbidden(f"{component_path(i)}.type", GATE, "lpx-gate"))
        if component.get("topologyConstraint") is not None:
            found.append(
                forbidden(f"{component_path(i)}.topologyConstraint", NO_TOPOLOGY, "lpx-topology")
            )
    if not way.grove:
        found.append(forbidden("spec.components", way.reason, "lpx-grove-only"))
    if spec(obj).get("topologyConstraint") is not None:
        found.append(forbidden("spec.topologyConstraint", NO_TOPOLOGY, "lpx-topology"))
    return found
