"""``tree NAME``: one GET of the graph and one LIST per kind below it, linked by the core.

The LISTs are the same whatever the number of pods (at most KINDS: 8, plus the GET and one
discovery GET), narrowed by the operator's graph label where the operator (or Kubernetes, from
the pod template) puts it. Discovery says which kinds are served and at which version: a kind
whose CRD is not installed (Grove, LeaderWorkerSet) is not asked for (without discovery: it
answers 404 and is skipped quietly); a forbidden LIST becomes one warning and the rest of the
tree is still shown, the children of what could not be read included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kubectl_dgd.core.tree import TreeView, build_tree
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.watching import Screen, TimedOut, follow

GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
# ``--watch``: how often the children are LISTed again when the graph itself does not change.
CHILD_POLL = 3.0


@dataclass(frozen=True)
class ChildKind:
    """A kind below a graph: where it is served unless discovery says otherwise, and whether
    the operator (or Kubernetes, from the pod template) puts the graph label on it."""

    group: str
    version: str
    plural: str
    kind: str
    labelled: bool


# The operator labels DCDs, their Deployments (and so ReplicaSets and pods, from the template)
# and the PodCliqueSet; Grove's scaling groups and cliques and the LeaderWorkerSets are linked
# by owner reference only.
KINDS: tuple[ChildKind, ...] = (
    ChildKind(
        "nvidia.com", "v1alpha1", "dynamocomponentdeployments", "DynamoComponentDeployment", True
    ),
    ChildKind("apps", "v1", "deployments", "Deployment", True),
    ChildKind("apps", "v1", "replicasets", "ReplicaSet", True),
    ChildKind("leaderworkerset.x-k8s.io", "v1", "leaderworkersets", "LeaderWorkerSet", False),
    ChildKind("grove.io", "v1alpha1", "podcliquesets", "PodCliqueSet", True),
    ChildKind("grove.io", "v1alpha1", "podcliquescalinggroups", "PodCliqueScalingGroup", False),
    ChildKind("grove.io", "v1alpha1", "podcliques", "PodClique", False),
    ChildKind("", "v1", "pods", "Pod", True),
)


@dataclass
class Children:
    """What the LISTs below a graph found: the objects, one warning per LIST refused, and the
    kinds that could not be read (their objects' children are still shown)."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unread: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)  # the plurals of the LISTs refused


def _api_version(cluster: GraphCluster, kind: ChildKind) -> str | None:
    """The version to LIST ``kind`` at: the preferred one discovery says is served (None: not
    served, skipped without a word), else the one the operator's releases serve."""
    if kind.group:
        served = cluster.served_versions(kind.group, kind.plural)
        if served is not None:
            return f"{kind.group}/{served[0]}" if served else None
        return f"{kind.group}/{kind.version}"
    return kind.version


def list_children(cluster: GraphCluster, name: str, namespace: str) -> Children:
    """Every object of KINDS in the namespace that may belong to the graph, and the warnings."""
    found = Children()
    selector = f"{GRAPH_LABEL}={name}"
    for kind in KINDS:
        api_version = _api_version(cluster, kind)
        if api_version is None:
            continue
        try:
            objects = cluster.list_objects(
                api_version, kind.plural, namespace, selector if kind.labelled else None
            )
        except NotFoundError:
            continue  # the kind is not served: that add-on is not installed
        except ApiError as err:
            if err.status != 403:
                raise
            found.warnings.append(str(err))
            found.unread.add(kind.kind)
            found.refused.append(kind.plural)
            continue
        found.objects.extend(objects)
    return found


def live_tree(
    cluster: GraphCluster, name: str, namespace: str, now: datetime, width: int = 80
) -> TreeView:
    graph = named_graph(cluster, name, namespace)
    return _view(cluster, graph, now, width)


def _view(cluster: GraphCluster, graph: dict[str, Any], now: datetime, width: int) -> TreeView:
    return _screen(cluster, graph, now, width).view


def _screen(
    cluster: GraphCluster, graph: dict[str, Any], now: datetime, width: int
) -> Screen[TreeView]:
    meta = graph.get("metadata") or {}
    found = list_children(cluster, str(meta.get("name")), str(meta.get("namespace")))

    def at(moment: datetime, columns: int) -> TreeView:
        view = build_tree(graph, found.objects, moment, found.warnings, found.unread)
        view.width = columns
        return view

    return Screen(at(now, width), at)


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
) -> Iterator[Screen[TreeView]]:
    """The tree now, then again whenever it changes: at once on a change of the graph (its watch
    stream), and within ``poll`` seconds on a change below it (pods come and go, restart, get
    scheduled without the graph's status moving), found by LISTing the kinds again: one watch
    and len(KINDS) LISTs per round, whatever the number of pods. A round that changes nothing
    but ages draws nothing."""
    graph = named_graph(cluster, name, namespace)
    screen = _screen(cluster, graph, now(), width)
    last = _shape(screen.view.to_data())
    yield screen
    while True:
        try:
            for changed in follow(cluster, graph, clock, timeout=poll):
                graph = changed
                break
        except TimedOut:
            pass  # the graph is as it was: look at the children again
        screen = _screen(cluster, graph, now(), width)
        shape = _shape(screen.view.to_data())
        if shape != last:
            last = shape
            yield screen
