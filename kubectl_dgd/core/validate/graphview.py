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
    """Provider from the stored annotation (set by the mutating webhook), else as it would decide."""
    notes = annotations_of(obj)
    stored = notes.get(WORKLOAD_PROVIDER_ANNOTATION)
    if profile.provider is not None:
        provider: str = profile.provider
    elif stored in ("grove", "component"):
        provider = str(stored)
    else:
        provider = decide_provider(_str_map(notes), profile, creating=creating)
    if provider == "grove":
        return Pathway(provider, True)
    if not profile.grove:
        reason = "requires the Grove pathway, but Grove is disabled in the operator configuration"
    elif str(notes.get(ENABLE_GROVE_ANNOTATION, "")).lower() == "false":
        current = str(notes.get(ENABLE_GROVE_ANNOTATION))
        reason = (
            f'requires the Grove pathway; remove or unset annotation "{ENABLE_GROVE_ANNOTATION}" '
            f'(currently "{current}")'
        )
    else:
        reason = f'requires the Grove pathway, but workload provider "{provider}" is selected'
    return Pathway(provider, False, reason)


def _str_map(value: dict[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()}
