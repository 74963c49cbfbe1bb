"""``tree NAME``: one GET of the graph and one LIST per kind below it, linked by the core.

The LISTs are the same whatever the number of pods (KINDS: 8, plus the GET), narrowed by the
operator's graph label where the operator (or Kubernetes, from the pod template) puts it. A kind
whose CRD is not installed (Grove, LeaderWorkerSet) answers 404 and is skipped quietly; a
forbidden LIST becomes one warning and the rest of the tree is still shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.tree import TreeView, build_tree
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.watching import TimedOut, follow

GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
# ``--watch``: how often the children are LISTed again when the graph itself does not change.
CHILD_POLL = 3.0

# (apiVersion, plural, narrowed by the graph label): the operator labels DCDs, their
# Deployments (and so ReplicaSets and pods, from the template) and the PodCliqueSet; Grove's
# scaling groups and cliques and the LeaderWorkerSets are linked by owner reference only.
KINDS: tuple[tuple[str, str, bool], ...] = (
    ("nvidia.com/v1alpha1", "dynamocomponentdeployments", True),
    ("apps/v1", "deployments", True),
    ("apps/v1", "replicasets", True),
    ("leaderworkerset.x-k8s.io/v1", "leaderworkersets", False),
    ("grove.io/v1alpha1", "podcliquesets", True),
    ("grove.io/v1alpha1", "podcliquescalinggroups", False),
    ("grove.io/v1alpha1", "podcliques", False),
    ("v1", "pods", True),
)


def list_children(
    cluster: GraphCluster, name: str, namespace: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """Every object of KINDS in the namespace that may belong to the graph, and the warnings."""
    objects: list[dict[str, Any]] = []
    warnings: list[str] = []
    selector = f"{GRAPH_LABEL}={name}"
    for api_version, plural, labelled in KINDS:
        try:
            found = cluster.list_objects(
                api_version, plural, namespace, selector if labelled else None
            )
        except NotFoundError:
            continue  # the kind is not served: that add-on is not installed
        except ApiError as err:
            if err.status != 403:
                raise
            warnings.append(str(err))
            continue
        objects.extend(found)
    return objects, warnings


def live_tree(
    cluster: GraphCluster, name: str, namespace: str, now: datetime, width: int = 80
) -> TreeView:
    graph = cluster.get_graph(name, namespace)
    return _view(cluster, graph, now, width)


def _view(cluster: GraphCluster, graph: dict[str, Any], now: datetime, width: int) -> TreeView:
    meta = graph.get("metadata") or {}
    objects, warnings = list_children(cluster, str(meta.get("name")), str(meta.get("namespace")))
    view = build_tree(graph, objects, now, warnings)
    view.width = width
    return view


def _shape(data: Any) -> Any:
    """The tree's data without its ages: what a redraw must show (ages alone do not count)."""
    if isinstance(data, dict):
        return {k: _shape(v) for k, v in data.items() if k != "ageSeconds"}
    if isinstance(data, list):
        return [_shape(v) for v in data]
    return data


def watch_tree(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    now: Callable[[], datetime],
    width: int = 80,
    poll: float = CHILD_POLL,
) -> Iterator[TreeView]:
    """The tree now, then again whenever it changes: at once on a change of the graph (its watch
    stream), and within ``poll`` seconds on a change below it (pods come and go, restart, get
    scheduled without the graph's status moving), found by LISTing the kinds again: one watch
    and len(KINDS) LISTs per round, whatever the number of pods. A round that changes nothing
    but ages draws nothing."""
    graph = cluster.get_graph(name, namespace)
    view = _view(cluster, graph, now(), width)
    last = _shape(view.to_data())
    yield view
    while True:
        try:
            for changed in follow(cluster, graph, clock, timeout=poll):
                graph = changed
                break
        except TimedOut:
            pass  # the graph is as it was: look at the children again
        view = _view(cluster, graph, now(), width)
        shape = _shape(view.to_data())
        if shape != last:
            last = shape
            yield view
