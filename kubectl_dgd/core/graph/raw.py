"""Readers over raw mappings, for validate and render, which walk a graph field by field: any
shape is read without raising."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.graph.names import (
    DEFAULT_NODE_COUNT,
    DEFAULT_REPLICAS,
    DEPLOYMENT_STRATEGY_ANNOTATION,
    WORKER_TYPES,
)


def mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping, else an empty one: read any shape without raising."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def items(value: Any) -> list[dict[str, Any]]:
    """The mappings of a list (anything else is skipped)."""
    return [v for v in as_list(value) if isinstance(v, dict)]


def as_int(value: Any) -> int | None:
    """An integer (never a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def is_worker(component: dict[str, Any]) -> bool:
    """worker, prefill and decode: the components the worker hash covers."""
    kind = component.get("type")
    return isinstance(kind, str) and kind in WORKER_TYPES  # a list or map there is no type


def node_count(component: dict[str, Any]) -> int:
    """Nodes per replica: 1 without a multinode block, its nodeCount (default 2) with one."""
    multinode = component.get("multinode")
    if not isinstance(multinode, dict):
        return 1
    count = as_int(multinode.get("nodeCount", DEFAULT_NODE_COUNT))
    return DEFAULT_NODE_COUNT if count is None else count


def is_multinode(component: dict[str, Any]) -> bool:
    return node_count(component) > 1


def replicas_default(component: dict[str, Any]) -> int | None:
    """What the mutating webhook writes for an absent ``replicas``: 1, except for LPX
    components, which newer operators leave unset."""
    return None if component.get("type") == "lpx" else DEFAULT_REPLICAS


def desired_replicas(component: dict[str, Any]) -> int:
    """``replicas`` as the operator defaults it (1 when absent or unreadable)."""
    value = as_int(component.get("replicas"))
    return DEFAULT_REPLICAS if value is None else value


def pod_annotations(component: dict[str, Any]) -> dict[str, Any]:
    return mapping(
        mapping(mapping(component.get("podTemplate")).get("metadata")).get("annotations")
    )


def recreates(component: dict[str, Any]) -> bool:
    """The component's Deployment uses the Recreate strategy (pod-template annotation)."""
    return str(pod_annotations(component).get(DEPLOYMENT_STRATEGY_ANNOTATION, "")) == "Recreate"


def restart_id(obj: dict[str, Any]) -> str | None:
    value = mapping(mapping(obj.get("spec")).get("restart")).get("id")
    return str(value) if value else None


def components_by_name(obj: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The named ``spec.components`` mappings, by name, in spec order."""
    out: dict[str, dict[str, Any]] = {}
    for item in items(mapping(obj.get("spec")).get("components")):
        if item.get("name") is not None:
            out[str(item["name"])] = item
    return out


def graph_annotations(obj: dict[str, Any]) -> dict[str, Any]:
    return mapping(mapping(obj.get("metadata")).get("annotations"))
