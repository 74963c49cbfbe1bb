"""GPUs of the cluster, node by node: allocatable, requested, free, and which graphs hold them.

Pure: it gets the listed Nodes and Pods (plain dicts) and does the scheduler's arithmetic for
``nvidia.com/gpu``:

- a node offers ``status.allocatable["nvidia.com/gpu"]`` (absent: the node has no GPUs and is
  left out); its product is the GPU feature discovery label ``nvidia.com/gpu.product``;
- a pod holds GPUs on the node it is bound to (``spec.nodeName``) until it terminates (phase
  Succeeded or Failed): its footprint as ``core.gpus.pod_footprint`` counts it (per container,
  limits over requests; the larger of the init phase peak and the app phase). DRA claims are
  not ``nvidia.com/gpu`` extended resources, so a claim counts nothing here;
- free = allocatable - requested (never below 0); a cordoned node (``spec.unschedulable``)
  still shows its free GPUs, but ``schedulable`` says no new pod lands there.

The graph a pod belongs to is the operator's label ``nvidia.com/dynamo-graph-deployment-name``
(on every pod it creates); a GPU pod without it counts as used by no graph (``name`` "").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.gpus import parse_count, pod_footprint

GPU_RESOURCE = "nvidia.com/gpu"
PRODUCT_LABEL = "nvidia.com/gpu.product"
GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
TERMINATED_PHASES = ("Succeeded", "Failed")
# What the LIST of pods asks the API server to leave out (the same rule, server side).
ACTIVE_PODS_SELECTOR = "status.phase!=Succeeded,status.phase!=Failed"


@dataclass(frozen=True)
class GraphUse:
    """The GPUs one graph's pods (or pods of no graph: ``name`` "") hold on one node."""

    namespace: str
    name: str
    gpus: int
    pods: int

    def to_data(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "name": self.name,
            "gpus": self.gpus,
            "pods": self.pods,
        }


@dataclass
class NodeGpus:
    """One node's GPUs: allocatable, requested by its pods, and by which graphs."""

    name: str
    product: str  # "" when the node carries no product label
    allocatable: int
    requested: int
    schedulable: bool = True
    pods: int = 0  # pods bound here that hold GPUs
    used_by: list[GraphUse] = field(default_factory=list)

    @property
    def free(self) -> int:
        return max(self.allocatable - self.requested, 0)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "product": self.product,
            "allocatable": self.allocatable,
            "requested": self.requested,
            "free": self.free,
            "schedulable": self.schedulable,
            "pods": self.pods,
            "usedBy": [use.to_data() for use in self.used_by],
        }


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def is_active(pod: Mapping[str, Any]) -> bool:
    """A pod that still holds what it requested (not Succeeded or Failed)."""
    return _mapping(pod.get("status")).get("phase") not in TERMINATED_PHASES


def _without_claims(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The pod spec with its containers' DRA claims dropped: they are not nvidia.com/gpu."""

    def strip(containers: Any) -> list[Any]:
        out = []
        for container in containers if isinstance(containers, list) else []:
            if not isinstance(container, Mapping):
                out.append(container)
                continue
            resources = _mapping(container.get("resources"))
            kept = {k: v for k, v in resources.items() if k != "claims"}
            out.append({**container, "resources": kept})
        return out

    return {
        **spec,
        "containers": strip(spec.get("containers")),
        "initContainers": strip(spec.get("initContainers")),
    }


def pod_gpu_request(pod: Mapping[str, Any]) -> int:
    """The GPUs the scheduler reserves for one pod (0 when its resources do not count)."""
    spec = _mapping(pod.get("spec"))
    count = pod_footprint(_without_claims(spec))
    return count.value or 0


def _allocatable(node: Mapping[str, Any]) -> int | None:
    allocatable = _mapping(_mapping(node.get("status")).get("allocatable"))
    if GPU_RESOURCE not in allocatable:
        return None
    return parse_count(allocatable[GPU_RESOURCE]) or 0


def node_gpu_usage(
    nodes: Iterable[Mapping[str, Any]], pods: Iterable[Mapping[str, Any]]
) -> list[NodeGpus]:
    """One entry per node that offers nvidia.com/gpu, by name; pods bound elsewhere are ignored."""
    by_name: dict[str, NodeGpus] = {}
    for node in nodes:
        allocatable = _allocatable(node)
        if allocatable is None:
            continue
        meta = _mapping(node.get("metadata"))
        name = str(meta.get("name") or "")
        by_name[name] = NodeGpus(
            name=name,
            product=str(_mapping(meta.get("labels")).get(PRODUCT_LABEL) or ""),
            allocatable=allocatable,
            requested=0,
            schedulable=not _mapping(node.get("spec")).get("unschedulable"),
        )
    uses: dict[str, dict[tuple[str, str], list[int]]] = {}
    for pod in pods:
        node_name = str(_mapping(pod.get("spec")).get("nodeName") or "")
        entry = by_name.get(node_name)
        if entry is None or not is_active(pod):
            continue
        gpus = pod_gpu_request(pod)
        if gpus == 0:
            continue
        entry.requested += gpus
        entry.pods += 1
        meta = _mapping(pod.get("metadata"))
        graph = str(_mapping(meta.get("labels")).get(GRAPH_LABEL) or "")
        key = (str(meta.get("namespace") or ""), graph)
        held = uses.setdefault(node_name, {}).setdefault(key, [0, 0])
        held[0] += gpus
        held[1] += 1
    for node_name, graphs in uses.items():
        by_name[node_name].used_by = [
            GraphUse(namespace, graph, gpus, count)
            for (namespace, graph), (gpus, count) in sorted(graphs.items())
        ]
    return [by_name[name] for name in sorted(by_name)]


def waiting_for_gpus(pods: Iterable[Mapping[str, Any]]) -> list[GraphUse]:
    """Live pods that want GPUs and are bound to no node yet (Pending), by namespace and graph."""
    waiting: dict[tuple[str, str], list[int]] = {}
    for pod in pods:
        if _mapping(pod.get("spec")).get("nodeName") or not is_active(pod):
            continue
        gpus = pod_gpu_request(pod)
        if gpus == 0:
            continue
        meta = _mapping(pod.get("metadata"))
        graph = str(_mapping(meta.get("labels")).get(GRAPH_LABEL) or "")
        held = waiting.setdefault((str(meta.get("namespace") or ""), graph), [0, 0])
        held[0] += gpus
        held[1] += 1
    return [
        GraphUse(namespace, graph, gpus, count)
        for (namespace, graph), (gpus, count) in sorted(waiting.items())
    ]
