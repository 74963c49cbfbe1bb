"""``events NAME``: the Events of the graph and of every object below it.

One GET, the tree's LISTs (usecases/tree.py: one per kind) to learn the children's uids, and one
LIST of the namespace's Events: bounded, whatever the number of pods; plus one LIST of the
namespace's graphs when an Event is about a gone object named like this graph's children. Objects gone from the tree
are still recognised by the names the operator gives them (core/graph_events.py). ``--watch`` draws again on
every change of the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph_events import EventFilter, GraphEvents, graph_events, names_to_settle
from kubectl_dgd.core.near_names import did_you_mean
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.tree import list_children
from kubectl_dgd.usecases.watching import Screen, follow


def namespace_events(cluster: GraphCluster, namespace: str) -> list[dict[str, Any]]:
    return cluster.list_objects("v1", "events", namespace)


def namespace_graphs(cluster: GraphCluster, namespace: str) -> list[dict[str, Any]]:
    """The namespace's graphs, which settle whose a gone object's Events are. An account that
    may not list graphs keeps the name rule alone (a neighbour graph named like one of this
    graph's component paths may then lend its Events: said in the README)."""
    try:
        return list(cluster.list_graphs(namespace).get("items") or [])
    except (ApiError, NotFoundError):
        return []


def check_component(graph: dict[str, Any], which: EventFilter | None) -> None:
    """NotFoundError naming the graph's components when ``--for`` names none of them."""
    if which is None or which.component is None:
        return
    names = [str(c.get("name")) for c in (graph.get("spec") or {}).get("components") or []]
    if which.component not in names:
        raise NotFoundError(
            f"graph {(graph.get('metadata') or {}).get('name')} has no component "
            f"{which.component}{did_you_mean(which.component, names)}; "
            f"its components: {', '.join(sorted(names))}"
        )


def _view(
    cluster: GraphCluster, graph: dict[str, Any], now: datetime, which: EventFilter | None
) -> GraphEvents:
    return _screen(cluster, graph, now, which).view


def _screen(
    cluster: GraphCluster, graph: dict[str, Any], now: datetime, which: EventFilter | None
) -> Screen[GraphEvents]:
    meta = graph.get("metadata") or {}
    namespace = str(meta.get("namespace"))
    found = list_children(cluster, str(meta.get("name")), namespace)
    # Events that cannot be read fail the command (exit 4): the list would be a false "none".
    events = namespace_events(cluster, namespace)
    graphs = (
        namespace_graphs(cluster, namespace)
        if names_to_settle(graph, events, found.objects)
        else []
    )

    def at(moment: datetime, width: int = 0) -> GraphEvents:
        return graph_events(graph, events, found.objects, moment, found.warnings, which, graphs)

    return Screen(at(now), at)


def live_events(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    now: datetime,
    which: EventFilter | None = None,
) -> GraphEvents:
    graph = named_graph(cluster, name, namespace)
    check_component(graph, which)
    return _view(cluster, graph, now, which)


def watch_events(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    now: Callable[[], datetime],
    which: EventFilter | None = None,
) -> Iterator[Screen[GraphEvents]]:
    graph = named_graph(cluster, name, namespace)
    check_component(graph, which)
    yield _screen(cluster, graph, now(), which)
    for changed in follow(cluster, graph, clock):
        yield _screen(cluster, changed, now(), which)
