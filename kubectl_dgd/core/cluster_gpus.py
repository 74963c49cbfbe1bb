"""``gpus``: the view of the cluster's GPUs, node by node, with "used by" narrowed to a scope.

Nodes are cluster-scoped, and their requested and free GPUs count every pod wherever it runs;
only the "used by" part follows ``-n``/``-A``: graphs of other namespaces are summed as
``otherGpus`` (so the figures still add up), as are GPU pods that belong to no graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kubectl_dgd.core.node_gpus import GraphUse, NodeGpus, node_gpu_usage, waiting_for_gpus


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


@dataclass
class ClusterGpus:
    """The cluster's GPUs by node, and the pods of the scope still waiting for some."""

    # -o custom-columns: a row per item of this list in the JSON
    TEMPLATE_ROWS: ClassVar[str] = "nodes"

    rows: list[NodeRow]
    waiting: list[GraphUse]  # pods of the scope's graphs that want GPUs and have no node yet
    namespace: str | None  # the scope of "used by" (None: every namespace)
    width: int = 80  # of the terminal, for text; not part of the data

    @property
    def allocatable(self) -> int:
        return sum(row.node.allocatable for row in self.rows)

    @property
    def requested(self) -> int:
        return sum(row.node.requested for row in self.rows)

    @property
    def free(self) -> int:
        return sum(row.node.free for row in self.rows)

    @property
    def most_free(self) -> int:
        """The most free GPUs on one schedulable node: the largest pod that still fits."""
        return max((row.node.free for row in self.rows if row.node.schedulable), default=0)

    def to_data(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "nodes": [row.to_data() for row in self.rows],
            "waiting": [use.to_data() for use in self.waiting],
            "total": {
                "nodes": len(self.rows),
                "allocatable": self.allocatable,
                "requested": self.requested,
                "free": self.free,
                "mostFreeOnOneNode": self.most_free,
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
    for node in node_gpu_usage(nodes, pods):
        mine = [use for use in node.used_by if _in_scope(use, namespace)]
        other = sum(use.gpus for use in node.used_by if not _in_scope(use, namespace))
        rows.append(NodeRow(node, mine, other))
    waiting = [use for use in waiting_for_gpus(pods) if _in_scope(use, namespace)]
    return ClusterGpus(rows, waiting, namespace, width)
