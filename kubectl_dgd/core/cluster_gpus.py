"""``gpus``: the view of the cluster's GPUs, node by node, with "used by" narrowed to a scope.

Nodes are cluster-scoped, and their requested and free GPUs count every pod wherever it runs;
only the "used by" part follows ``-n``/``-A``: graphs of other namespaces are summed as
``otherGpus`` (so the figures still add up), as are GPU pods that belong to no graph. A node
partitioned into MIG slices has a row per profile; the totals count whole GPUs, and each
profile has totals of its own (slices are not GPUs: one profile's do not hold another's pods).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kubectl_dgd.core.node_gpus import (
    GPU_RESOURCE,
    GraphUse,
    NodeGpus,
    node_gpu_usage,
    waiting_for_gpus,
)


@dataclass
class NodeRow:
    """One node of the `gpus` table, with the graphs whose pods hold its GPUs."""

    node: NodeGpus
    used_by: list[GraphUse]  # graphs of the scope
    other_gpus: int  # held by pods of no graph, or of graphs outside the scope

    def to_data(self) -> dict[str, Any]:
        return {
            **self.node.to_data(),
            "usedBy": [use.to_data() for use in self.used_by],
            "otherGpus": self.other_gpus,
        }


@dataclass(frozen=True)
class Totals:
    """Allocatable, requested and free of one resource over the nodes that offer it."""

    nodes: int
    allocatable: int
    requested: int
    free: int
    most_free: int  # on one schedulable node: the largest pod that still fits

    @staticmethod
    def of(nodes: list[NodeGpus]) -> Totals:
        return Totals(
            len({n.name for n in nodes}),
            sum(n.allocatable for n in nodes),
            sum(n.requested for n in nodes),
            sum(n.free for n in nodes),
            max((n.free for n in nodes if n.schedulable), default=0),
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "allocatable": self.allocatable,
            "requested": self.requested,
            "free": self.free,
            "mostFreeOnOneNode": self.most_free,
        }


@dataclass
class ClusterGpus:
    """The cluster's GPUs by node, and the pods of the scope still waiting for some."""

    # -o custom-columns: a row per item of this list in the JSON
    TEMPLATE_ROWS: ClassVar[str] = "nodes"

    rows: list[NodeRow]
    waiting: list[GraphUse]  # pods of the scope's graphs that want GPUs and have no node yet
    namespace: str | None  # the scope of "used by" (None: every namespace)
    width: int = 80  # of the terminal, for text; not part of the data

    def totals(self, resource: str = GPU_RESOURCE) -> Totals:
        return Totals.of([row.node for row in self.rows if row.node.resource == resource])

    @property
    def whole_gpu_rows(self) -> int:
        return sum(row.node.resource == GPU_RESOURCE for row in self.rows)

    @property
    def mig_resources(self) -> list[str]:
        return sorted({row.node.resource for row in self.rows} - {GPU_RESOURCE})

    @property
    def allocatable(self) -> int:
        return self.totals().allocatable

    @property
    def requested(self) -> int:
        return self.totals().requested

    @property
    def free(self) -> int:
        return self.totals().free

    @property
    def most_free(self) -> int:
        """The most free GPUs on one schedulable node: the largest pod that still fits."""
        return self.totals().most_free

    def to_data(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "nodes": [row.to_data() for row in self.rows],
            "waiting": [{**use.to_data(), "resource": use.resource} for use in self.waiting],
            "total": self.totals().to_data(),
            "mig": {
                resource.removeprefix("nvidia.com/mig-"): self.totals(resource).to_data()
                for resource in self.mig_resources
            },
        }


def _in_scope(use: GraphUse, namespace: str | None) -> bool:
    return bool(use.name) and (namespace is None or use.namespace == namespace)


def cluster_gpus(
    nodes: Iterable[Mapping[str, Any]],
    pods: Iterable[Mapping[str, Any]],
    namespace: str | None,
    width: int = 80,
) -> ClusterGpus:
    """The listed nodes and live pods as the ``gpus`` view, "used by" narrowed to ``namespace``."""
    pods = list(pods)
    rows = []
    for node in node_gpu_usage(nodes, pods, None):
        mine = [use for use in node.used_by if _in_scope(use, namespace)]
        other = sum(use.gpus for use in node.used_by if not _in_scope(use, namespace))
        rows.append(NodeRow(node, mine, other))
    waiting = [use for use in waiting_for_gpus(pods) if _in_scope(use, namespace)]
    return ClusterGpus(rows, waiting, namespace, width)
