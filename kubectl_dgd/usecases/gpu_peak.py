"""The peak-GPU check of ``diff`` and ``restart --wait``: the needs (core/gpu_peak.py) against the
cluster's free GPUs, fetched with one LIST of nodes and one of live pods.

Only when a change needs more GPUs at all; no LIST of pods when no node offers
``nvidia.com/gpu`` or a MIG profile (a cluster autoscaler may add GPU nodes on demand: no warning then). The
check is advice: when the account may not list nodes or pods, the server does not serve them
(404) or fails, it is skipped and the one line says why; the command itself goes on (it may
already have written the restart: its exit code must not say otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kubectl_dgd.core.gpu_peak import PeakNeed, restart_needs, shortfalls
from kubectl_dgd.core.graph import WORKLOAD_PROVIDER_ANNOTATION, graph_annotations
from kubectl_dgd.core.node_gpus import node_gpu_usage
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.cluster_gpus import list_live_pods, list_nodes
from kubectl_dgd.usecases.ports import GraphCluster

SKIPPED = "warning: GPU peak check skipped: {error}"


def peak_warnings(cluster: GraphCluster, needs: Iterable[PeakNeed]) -> list[str]:
    """One ``warning:`` line per component whose peak the free GPUs cannot hold."""
    needs = list(needs)
    if not needs:
        return []
    try:
        nodes = list_nodes(cluster)
        usage = node_gpu_usage(nodes, [], None)
        if not usage:
            return []
        usage = node_gpu_usage(nodes, list_live_pods(cluster), None)
    except (ApiError, NotFoundError) as err:
        return [SKIPPED.format(error=err)]
    return [short.message() for short in shortfalls(needs, usage)]


def restart_peak_warnings(
    cluster: GraphCluster, graph: dict[str, Any], parallel: bool
) -> list[str]:
    """``restart NAME``: each restarted component's pods roll (the ``nvidia.com/restartAt``
    template annotation) with its Deployment's surge; Grove cliques roll without surge."""
    grove = graph_annotations(graph).get(WORKLOAD_PROVIDER_ANNOTATION) == "grove"
    return peak_warnings(cluster, restart_needs(graph, parallel, grove))
