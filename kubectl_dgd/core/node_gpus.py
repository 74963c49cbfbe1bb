"""GPUs of the cluster's nodes: what each node offers, what its pods hold, what is free.

``node_gpu_usage(nodes, pods)`` counts as kube-scheduler does for the extended resource
``nvidia.com/gpu``: a node offers its ``status.allocatable``; every pod bound to it
(``spec.nodeName``) that has not terminated (phase neither Succeeded nor Failed) holds its
request, the larger of its init phase peak and its app containers plus native sidecars; free is
allocatable minus held (never below zero). For an extended resource the request defaults to the
limit, and the two must be equal when both are set. The GPU product is the GPU feature
discovery label ``nvidia.com/gpu.product``. Used by ``why`` (does a Pending pod fit anywhere?)
and ``gpus`` (the cluster's GPUs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core.gpus import parse_count
from kubectl_dgd.core.graph import items, mapping

GPU = "nvidia.com/gpu"
PRODUCT_LABEL = "nvidia.com/gpu.product"
GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
TERMINATED_PHASES = frozenset({"Succeeded", "Failed"})


@dataclass(frozen=True)
class GpuHolder:
    """A pod holding GPUs on a node; ``graph`` is its DGD (the operator's label), or ""."""

    namespace: str
    name: str
    gpus: int
    graph: str


@dataclass(frozen=True)
class NodeGpus:
    name: str
    product: str  # "" when the node carries no product label
    allocatable: int
    requested: int  # held by the node's non-terminated pods
    schedulable: bool  # Ready and not cordoned
    holders: tuple[GpuHolder, ...]

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
            "pods": [
                {"namespace": h.namespace, "name": h.name, "gpus": h.gpus, "graph": h.graph}
                for h in self.holders
            ],
        }


@dataclass(frozen=True)
class ProductGpus:
    """The GPU nodes of one product (``""``: unlabelled) added up."""

    product: str
    nodes: int
    allocatable: int
    free: int
    most_free: int  # on any one schedulable node: what a single pod can get


def _count(value: Any) -> int:
    if value is None:
        return 0
    return parse_count(value) or 0


def container_gpu_request(container: Mapping[str, Any]) -> int:
    resources = mapping(container.get("resources"))
    requests, limits = mapping(resources.get("requests")), mapping(resources.get("limits"))
    return _count(requests.get(GPU, limits.get(GPU)))


def pod_gpu_request(spec: Mapping[str, Any]) -> int:
    """The ``nvidia.com/gpu`` the scheduler reserves for a pod of this spec."""
    sidecars = init_peak = 0
    for init in items(spec.get("initContainers")):
        gpus = container_gpu_request(init)
        if init.get("restartPolicy") == "Always":  # a native sidecar runs on with the app
            sidecars += gpus
            init_peak = max(init_peak, sidecars)
        else:
            init_peak = max(init_peak, sidecars + gpus)
    app = sidecars + sum(container_gpu_request(c) for c in items(spec.get("containers")))
    return max(init_peak, app)


def _schedulable(node: Mapping[str, Any]) -> bool:
    if mapping(node.get("spec")).get("unschedulable"):
        return False
    for condition in items(mapping(node.get("status")).get("conditions")):
        if condition.get("type") == "Ready":
            return condition.get("status") == "True"
    return True  # no conditions reported: assume it takes pods


def node_gpu_usage(
    nodes: Iterable[Mapping[str, Any]], pods: Iterable[Mapping[str, Any]]
) -> list[NodeGpus]:
    """Every node (by name) with its GPU product, allocatable, requested and free GPUs."""
    held: dict[str, list[GpuHolder]] = {}
    for pod in pods:
        spec, meta = mapping(pod.get("spec")), mapping(pod.get("metadata"))
        bound = str(spec.get("nodeName") or "")
        if not bound or mapping(pod.get("status")).get("phase") in TERMINATED_PHASES:
            continue
        gpus = pod_gpu_request(spec)
        if gpus:
            holder = GpuHolder(
                str(meta.get("namespace") or ""),
                str(meta.get("name") or ""),
                gpus,
                str(mapping(meta.get("labels")).get(GRAPH_LABEL) or ""),
            )
            held.setdefault(bound, []).append(holder)
    usage = []
    for node in nodes:
        meta = mapping(node.get("metadata"))
        name = str(meta.get("name") or "")
        holders = tuple(sorted(held.get(name, []), key=lambda h: (h.namespace, h.name)))
        usage.append(
            NodeGpus(
                name=name,
                product=str(mapping(meta.get("labels")).get(PRODUCT_LABEL) or ""),
                allocatable=_count(
                    mapping(mapping(node.get("status")).get("allocatable")).get(GPU)
                ),
                requested=sum(h.gpus for h in holders),
                schedulable=_schedulable(node),
                holders=holders,
            )
        )
    return sorted(usage, key=lambda n: n.name)


def by_product(usage: Iterable[NodeGpus]) -> list[ProductGpus]:
    """The nodes offering GPUs, added up per product (sorted by product)."""
    groups: dict[str, list[NodeGpus]] = {}
    for node in usage:
        if node.allocatable:
            groups.setdefault(node.product, []).append(node)
    return [
        ProductGpus(
            product=product,
            nodes=len(members),
            allocatable=sum(n.allocatable for n in members),
            free=sum(n.free for n in members if n.schedulable),
            most_free=max((n.free for n in members if n.schedulable), default=0),
        )
        for product, members in sorted(groups.items())
    ]
