"""Read-only accessors over a DGD mapping that tolerate any shape (the schema layer reports shapes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core import graph
from kubectl_dgd.core.profile import (
    ENABLE_GROVE_ANNOTATION,
    WORKLOAD_PROVIDER_ANNOTATION,
    Profile,
    decide_provider,
)

# The validators read components through core.graph's helpers (one definition each).
as_dict = graph.mapping
as_list = graph.as_list
is_worker = graph.is_worker
node_count = graph.node_count


def dig(obj: Any, *keys: str) -> Any:
    """``obj[k1][k2]...`` or None when any step is missing or not a mapping."""
    current = obj
    for key in keys:
        if not isinstance(current, dict):
            return None
        current = current.get(key)
    return current


def annotations_of(obj: dict[str, Any]) -> dict[str, Any]:
    return as_dict(dig(obj, "metadata", "annotations"))


def spec(obj: dict[str, Any]) -> dict[str, Any]:
    return as_dict(obj.get("spec"))


def components(obj: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """``(index, component)`` for every component that is a mapping."""
    return [
        (i, c) for i, c in enumerate(as_list(spec(obj).get("components"))) if isinstance(c, dict)
    ]


def component_path(i: int) -> str:
    return f"spec.components[{i}]"


def component_names(obj: dict[str, Any]) -> list[str]:
    return [str(c.get("name", "")) for _, c in components(obj)]


def experimental(component: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = dig(component, "experimental", key)
    return value if isinstance(value, dict) else None


def effective_mode(block: dict[str, Any] | None) -> str | None:
    """GMS/failover mode with the CRD default IntraPod; None when the block is absent."""
    if block is None:
        return None
    mode = block.get("mode")
    return mode if isinstance(mode, str) and mode else "IntraPod"


@dataclass(frozen=True)
class Pathway:
    """The workload provider and, when it is not Grove, why (the operator's wording)."""

    provider: str
    grove: bool
    reason: str = ""


def pathway(obj: dict[str, Any], profile: Profile, *, creating: bool) -> Pathway:
    """Whether the Grove pathway applies, decided in the operator version's order.

    1.4+: the stored ``nvidia.com/workload-provider`` decides first (on create the mutating
    webhook has stamped it already); only legacy objects without it fall back to the gate and
    ``nvidia.com/enable-grove``. 1.3 never reads the annotation.
    """
    notes = annotations_of(obj)
    stored = notes.get(WORKLOAD_PROVIDER_ANNOTATION)
    if profile.provider is not None and (creating or stored is None):
        stored = profile.provider  # the provider this cluster's operator is known to stamp
    if profile.at_least("1.4") and stored is not None:
        if stored == "grove":
            return Pathway("grove", True)
        if stored == "component":
            return Pathway(
                "component", False, _NOT_GROVE + ', but workload provider "component" is selected'
            )
        return Pathway(
            str(stored),
            False,
            f'{_NOT_GROVE}, but annotation "{WORKLOAD_PROVIDER_ANNOTATION}" has unsupported value "{stored}"',
        )
    if profile.provider == "grove" or (
        profile.provider is None and decide_provider(_str_map(notes), profile) == "grove"
    ):
        return Pathway("grove", True)
    if not profile.grove or profile.provider == "component":
        reason = f"{_NOT_GROVE}, but Grove is disabled in the operator configuration"
        if str(notes.get(ENABLE_GROVE_ANNOTATION, "")).lower() == "false" and profile.grove:
            reason = _enable_grove_reason(notes)
        return Pathway("component", False, reason)
    return Pathway("component", False, _enable_grove_reason(notes))


_NOT_GROVE = "requires the Grove pathway"


def _enable_grove_reason(notes: dict[str, Any]) -> str:
    current = str(notes.get(ENABLE_GROVE_ANNOTATION))
    return f'{_NOT_GROVE}; remove or unset annotation "{ENABLE_GROVE_ANNOTATION}" (currently "{current}")'


def _str_map(value: dict[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()}
