"""What a DynamoGraphDeployment says: the one package that knows the shape of a graph.

Two ways in, one set of facts:

- raw component mappings (validate and render walk them field by field): ``mapping``,
  ``items``, ``is_worker``, ``node_count``, ``is_multinode``, ``desired_replicas`` (``raw``);
- ``read_graph(obj)`` for the views (status, list, rollout, health, diff, preview): a typed,
  read-only ``Graph`` with its spec and its status side (``read``, ``model``). It tolerates any
  shape (a wrong type reads as absent, as the Argo CD health check must); ``strict=True`` instead
  raises ``GraphShapeError`` naming the first field a view needs that has the wrong type, e.g.
  ``not a readable DynamoGraphDeployment: spec.components[0].replicas: expected an integer,
  got "two"`` (one line, exit 2).

The operator's own names live here too (``names``): worker types, defaults, the annotations it
reads, the component kinds it reports; and the one readiness rule per kind
(``ComponentStatus.ready``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kubectl_dgd.core.graph.names import (
    COMPONENT_KINDS,
    DEFAULT_MIN_AVAILABLE,
    DEFAULT_NODE_COUNT,
    DEFAULT_REPLICAS,
    DEPLOYMENT_STRATEGY_ANNOTATION,
    DISCOVERY_BACKEND_ANNOTATION,
    ENABLE_GROVE_ANNOTATION,
    ENABLE_METRICS_ANNOTATION,
    GROVE_KINDS,
    GROVE_UPDATE_STRATEGY_ANNOTATION,
    KUBE_DISCOVERY_MODE_ANNOTATION,
    MAX_SURGE_ANNOTATION,
    MAX_UNAVAILABLE_ANNOTATION,
    OPERATOR_ORIGIN_VERSION_ANNOTATION,
    PROPAGATED_ANNOTATIONS,
    READY_FROM_AVAILABLE_KINDS,
    VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION,
    WORKER_HASH_ANNOTATION,
    WORKER_HASH_LABEL,
    WORKER_TYPES,
    WORKLOAD_PROVIDER_ANNOTATION,
)
from kubectl_dgd.core.graph.raw import (
    as_int,
    as_list,
    components_by_name,
    desired_replicas,
    graph_annotations,
    is_multinode,
    is_worker,
    items,
    mapping,
    node_count,
    pod_annotations,
    recreates,
    replicas_default,
    restart_id,
)

if TYPE_CHECKING:
    from kubectl_dgd.core.graph.model import (
        CheckpointStatus,
        Component,
        ComponentStatus,
        Condition,
        Graph,
        GraphStatus,
        Placement,
        RestartSpec,
        RestartStatus,
        RollingUpdateStatus,
    )
    from kubectl_dgd.core.graph.read import (
        GraphShapeError,
        read_graph,
    )

# The typed model loads on first use (PEP 562): validate and render read raw mappings only, and
# building the model's frozen dataclasses is a measurable part of their start-up.
_LAZY: dict[str, str] = {
    "CheckpointStatus": "model",
    "Component": "model",
    "ComponentStatus": "model",
    "Condition": "model",
    "Graph": "model",
    "GraphStatus": "model",
    "Placement": "model",
    "RestartSpec": "model",
    "RestartStatus": "model",
    "RollingUpdateStatus": "model",
    "GraphShapeError": "read",
    "read_graph": "read",
}


def __getattr__(name: str) -> Any:
    submodule = _LAZY.get(name)
    if submodule is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{submodule}"), name)
    globals()[name] = value
    return value


__all__ = [
    "COMPONENT_KINDS",
    "CheckpointStatus",
    "Component",
    "ComponentStatus",
    "Condition",
    "DEFAULT_MIN_AVAILABLE",
    "DEFAULT_NODE_COUNT",
    "DEFAULT_REPLICAS",
    "DEPLOYMENT_STRATEGY_ANNOTATION",
    "DISCOVERY_BACKEND_ANNOTATION",
    "ENABLE_GROVE_ANNOTATION",
    "ENABLE_METRICS_ANNOTATION",
    "GROVE_KINDS",
    "GROVE_UPDATE_STRATEGY_ANNOTATION",
    "Graph",
    "GraphShapeError",
    "GraphStatus",
    "KUBE_DISCOVERY_MODE_ANNOTATION",
    "MAX_SURGE_ANNOTATION",
    "MAX_UNAVAILABLE_ANNOTATION",
    "OPERATOR_ORIGIN_VERSION_ANNOTATION",
    "PROPAGATED_ANNOTATIONS",
    "Placement",
    "READY_FROM_AVAILABLE_KINDS",
    "RestartSpec",
    "RestartStatus",
    "RollingUpdateStatus",
    "VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION",
    "WORKER_HASH_ANNOTATION",
    "WORKER_HASH_LABEL",
    "WORKER_TYPES",
    "WORKLOAD_PROVIDER_ANNOTATION",
    "as_int",
    "as_list",
    "components_by_name",
    "desired_replicas",
    "graph_annotations",
    "is_multinode",
    "is_worker",
    "items",
    "mapping",
    "node_count",
    "pod_annotations",
    "read_graph",
    "recreates",
    "replicas_default",
    "restart_id",
]
