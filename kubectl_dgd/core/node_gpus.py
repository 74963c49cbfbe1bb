"""GPUs of the cluster, node by node: allocatable, requested, free, and which graphs hold them.

Pure: it gets the listed Nodes and Pods (plain dicts) and does the scheduler's arithmetic for
``nvidia.com/gpu`` and for each MIG profile the NVIDIA GPU operator's mixed strategy exposes
(``nvidia.com/mig-1g.10gb``, ...), each its own extended resource: a pod asking for one profile
is placed only against that profile's slices.

- a node offers ``status.allocatable["nvidia.com/gpu"]`` (absent: the node has no whole GPUs;
  0 beside MIG slices: every GPU is partitioned, and only the slices are shown) and one entry per
  ``nvidia.com/mig-*`` resource; its product is the GPU feature discovery label
  ``nvidia.com/gpu.product``, its memory per GPU ``nvidia.com/gpu.memory`` (MiB; a profile's
  ``nvidia.com/mig-<profile>.memory``);
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
MIG_PREFIX = "nvidia.com/mig-"
PRODUCT_LABEL = "nvidia.com/gpu.product"
MEMORY_LABEL = "nvidia.com/gpu.memory"  # MiB per GPU, as GPU feature discovery writes it
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
    # what ``gpus`` counts, whole GPUs or one MIG profile's slices: set for pods waiting (a
    # node's row already names its resource)
    resource: str = GPU_RESOURCE

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
    resource: str = GPU_RESOURCE  # or one MIG profile's nvidia.com/mig-*
    memory_mib: int | None = None  # per GPU (per slice for a MIG profile), when labelled
    labels: Mapping[str, str] = field(default_factory=dict)  # which pods may run here
    taints: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def free(self) -> int:
        return max(self.allocatable - self.requested, 0)

    @property
    def mig(self) -> str | None:
        """The MIG profile (``1g.10gb``), None for whole GPUs."""
        return self.resource[len(MIG_PREFIX) :] if is_mig(self.resource) else None

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "resource": self.resource,
            "migProfile": self.mig,
            "product": self.product,
            "memoryMiB": self.memory_mib,
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


def is_mig(resource: str) -> bool:
    return resource.startswith(MIG_PREFIX)


def pod_gpu_request(pod: Mapping[str, Any]) -> int:
    """The GPUs the scheduler reserves for one pod, whole or MIG slices (0 when its resources
    do not count): the operator's count, which the tree shows."""
    spec = _mapping(pod.get("spec"))
    count = pod_footprint(_without_claims(spec))
    return count.value or 0


def _only(spec: Mapping[str, Any], resource: str) -> dict[str, Any]:
    """The pod spec with every container's limits and requests narrowed to ``resource``."""

    def narrow(containers: Any) -> list[Any]:
        out = []
        for container in containers if isinstance(containers, list) else []:
            if not isinstance(container, Mapping):
                continue
            resources = _mapping(container.get("resources"))
            kept = {
                section: {
                    k: v for k, v in _mapping(resources.get(section)).items() if k == resource
                }
                for section in ("limits", "requests")
            }
            out.append({**container, "resources": kept})
        return out

    return {
        **spec,
        "containers": narrow(spec.get("containers")),
        "initContainers": narrow(spec.get("initContainers")),
    }


def pod_request(pod: Mapping[str, Any], resource: str = GPU_RESOURCE) -> int:
    """What the scheduler reserves of one extended resource for one pod (init and app phases
    as pod_footprint counts them)."""
    spec = _without_claims(_mapping(pod.get("spec")))
    return pod_footprint(_only(spec, resource)).value or 0


def pod_gpu_resource(pod: Mapping[str, Any]) -> str:
    """The GPU resource a pod asks for: its MIG profile when it names one, else nvidia.com/gpu."""
    spec = _mapping(pod.get("spec"))
    for container in [*(spec.get("initContainers") or []), *(spec.get("containers") or [])]:
        resources = _mapping(_mapping(container).get("resources"))
        for section in ("limits", "requests"):
            for key in sorted(_mapping(resources.get(section))):
                if is_mig(str(key)):
                    return str(key)
    return GPU_RESOURCE


def _resources(node: Mapping[str, Any]) -> dict[str, int]:
    """The node's GPU resources and their allocatable counts: nvidia.com/gpu (left out when 0
    beside MIG slices), then each MIG profile."""
    allocatable = _mapping(_mapping(node.get("status")).get("allocatable"))
    migs = {str(k): parse_count(v) or 0 for k, v in allocatable.items() if is_mig(str(k))}
    found: dict[str, int] = {}
    if GPU_RESOURCE in allocatable:
        whole = parse_count(allocatable[GPU_RESOURCE]) or 0
        if whole or not migs:
            found[GPU_RESOURCE] = whole
    found.update(sorted(migs.items()))
    return found


def _memory(labels: Mapping[str, Any], resource: str) -> int | None:
    key = MEMORY_LABEL if not is_mig(resource) else f"{resource}.memory"
    value = labels.get(key)
    return int(value) if isinstance(value, str) and value.isdigit() else None


def node_gpu_usage(
    nodes: Iterable[Mapping[str, Any]],
    pods: Iterable[Mapping[str, Any]],
    resource: str | None = GPU_RESOURCE,
) -> list[NodeGpus]:
    """One entry per node that offers ``resource`` (None: one per node and GPU resource, whole
    GPUs first), by name; pods bound elsewhere are ignored."""
    by_name: dict[tuple[str, str], NodeGpus] = {}
    for node in nodes:
        meta = _mapping(node.get("metadata"))
        name = str(meta.get("name") or "")
        labels = _mapping(meta.get("labels"))
        for offered, allocatable in _resources(node).items():
            if resource is not None and offered != resource:
                continue
            by_name[(name, offered)] = NodeGpus(
                name=name,
                product=str(labels.get(PRODUCT_LABEL) or ""),
                allocatable=allocatable,
                requested=0,
                schedulable=not _mapping(node.get("spec")).get("unschedulable"),
                resource=offered,
                memory_mib=_memory(labels, offered),
                labels={str(k): str(v) for k, v in labels.items()},
                taints=[_mapping(t) for t in _mapping(node.get("spec")).get("taints") or [] if t],
            )
    offered_here: dict[str, list[str]] = {}
    for node_name, offered in by_name:
        offered_here.setdefault(node_name, []).append(offered)
    uses: dict[tuple[str, str], dict[tuple[str, str], list[int]]] = {}
    for pod in pods:
        node_name = str(_mapping(pod.get("spec")).get("nodeName") or "")
        if node_name not in offered_here or not is_active(pod):
            continue
        for offered in offered_here[node_name]:
            _charge(by_name[(node_name, offered)], pod, uses)
    for key, graphs in uses.items():
        by_name[key].used_by = [
            GraphUse(namespace, graph, gpus, count)
            for (namespace, graph), (gpus, count) in sorted(graphs.items())
        ]
    order = sorted(by_name, key=lambda k: (k[0], k[1] != GPU_RESOURCE, k[1]))
    return [by_name[key] for key in order]


def _charge(
    entry: NodeGpus,
    pod: Mapping[str, Any],
    uses: dict[tuple[str, str], dict[tuple[str, str], list[int]]],
) -> None:
    """Add what ``pod`` holds of ``entry``'s resource to it, and to its graph's use."""
    gpus = pod_request(pod, entry.resource)
    if gpus == 0:
        return
    entry.requested += gpus
    entry.pods += 1
    meta = _mapping(pod.get("metadata"))
    graph = str(_mapping(meta.get("labels")).get(GRAPH_LABEL) or "")
    key = (str(meta.get("namespace") or ""), graph)
    held = uses.setdefault((entry.name, entry.resource), {}).setdefault(key, [0, 0])
    held[0] += gpus
    held[1] += 1


def waiting_for_gpus(pods: Iterable[Mapping[str, Any]]) -> list[GraphUse]:
    """Live pods that want GPUs and are bound to no node yet (Pending), by namespace, graph and
    the GPU resource they ask for (whole GPUs, or one MIG profile's slices)."""
    waiting: dict[tuple[str, str, str], list[int]] = {}
    for pod in pods:
        if _mapping(pod.get("spec")).get("nodeName") or not is_active(pod):
            continue
        gpus = pod_gpu_request(pod)
        if gpus == 0:
            continue
        meta = _mapping(pod.get("metadata"))
        graph = str(_mapping(meta.get("labels")).get(GRAPH_LABEL) or "")
        key = (str(meta.get("namespace") or ""), graph, pod_gpu_resource(pod))
        held = waiting.setdefault(key, [0, 0])
        held[0] += gpus
        held[1] += 1
    return [
        GraphUse(namespace, graph, gpus, count, resource)
        for (namespace, graph, resource), (gpus, count) in sorted(waiting.items())
    ]
