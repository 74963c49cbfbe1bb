"""How the operator names the children of a graph (docs/operator-semantics.md#child-names)."""

from __future__ import annotations

GLOBAL_DYNAMO_NAMESPACE = "dynamo"
# Grove pod names are <pcs>-<replica>-<clique>-<suffix>; the operator keeps PCS + clique within 45.
GROVE_NAME_LIMIT = 45
GROVE_MIN_PCS_BUDGET = 8


def child_name(graph: str, component: str) -> str:
    """``<graph>-<lowercase component>``: DCDs, Grove Services, scaling adapters, claim templates."""
    return f"{graph}-{component.lower()}"


def dcd_name(graph: str, component: str, worker_hash: str | None) -> str:
    """The DynamoComponentDeployment (and Deployment) name; workers add ``-<worker hash>``."""
    base = child_name(graph, component)
    return f"{base}-{worker_hash}" if worker_hash else base


def service_name(name: str) -> str:
    """Service names are normalised: lower case, dots become dashes."""
    return name.lower().replace(".", "-")


def runtime_namespace(namespace: str, graph: str, global_namespace: bool) -> str:
    """The Dynamo runtime namespace (label ``nvidia.com/dynamo-namespace``) before any worker suffix."""
    if global_namespace:
        return GLOBAL_DYNAMO_NAMESPACE
    return f"{namespace}-{graph.replace('.', '-')}"


def fnv32a(data: bytes) -> int:
    value = 0x811C9DC5
    for byte in data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def pcs_name(graph: str, component_budgets: list[int]) -> str:
    """The PodCliqueSet name: the graph name if it fits the budget left by the longest component,
    else a prefix plus ``-`` and 4 hex digits of FNV-32a (``PCSNameForDGD``)."""
    budget = max(GROVE_NAME_LIMIT - max(component_budgets, default=0), GROVE_MIN_PCS_BUDGET)
    if len(graph) <= budget:
        return graph
    suffix = f"{fnv32a(graph.encode()) & 0xFFFF:04x}"
    return f"{graph[: budget - 5]}-{suffix}"


def model_service_name(model: str) -> str:
    """The headless model-discovery Service of a ``modelRef``."""
    from kubectl_dgd.core.sha256 import hexdigest  # lazily: validate imports this module

    return "dynamo-model-" + hexdigest(model)[:8]
