"""``gpus``, and the free-GPU figures of the peak check: two LISTs, nodes and live pods.

Nodes are cluster-scoped and a node's requests come from pods of every namespace, so both
LISTs are cluster-wide. The pods LIST asks the server to leave out terminated pods (a field
selector on ``status.phase``); a server that refuses the selector (400) gets a plain LIST,
filtered here.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.cluster_gpus import ClusterGpus, cluster_gpus
from kubectl_dgd.core.node_gpus import ACTIVE_PODS_SELECTOR, NodeGpus, is_active, node_gpu_usage
from kubectl_dgd.errors import ApiError
from kubectl_dgd.usecases.ports import GraphCluster


def list_nodes(cluster: GraphCluster) -> list[dict[str, Any]]:
    """Every Node (ApiError 403 when the account may not list them: nodes are cluster-scoped)."""
    return cluster.list_objects("v1", "nodes", None)


def list_live_pods(cluster: GraphCluster) -> list[dict[str, Any]]:
    """Every pod of every namespace that is not Succeeded or Failed."""
    try:
        return cluster.list_objects("v1", "pods", None, field_selector=ACTIVE_PODS_SELECTOR)
    except ApiError as err:
        if err.status != 400:
            raise
    return [pod for pod in cluster.list_objects("v1", "pods", None) if is_active(pod)]


def node_usage(cluster: GraphCluster) -> list[NodeGpus]:
    """Allocatable, requested and free GPUs per node (one LIST of nodes, one of pods)."""
    nodes = list_nodes(cluster)
    return node_gpu_usage(nodes, list_live_pods(cluster))


def live_cluster_gpus(cluster: GraphCluster, namespace: str | None, width: int = 80) -> ClusterGpus:
    """The ``gpus`` view; "used by" narrowed to ``namespace`` (None: every namespace)."""
    nodes = list_nodes(cluster)
    return cluster_gpus(nodes, list_live_pods(cluster), namespace, width)
