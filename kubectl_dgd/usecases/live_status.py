"""``status NAME`` against a cluster: one GET, then exactly the view of ``status -f``;
``--events`` adds one LIST of the namespace's Events (the graph's, its children's and pods');
an account that may not list them still gets the status, and one note."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph_events import (
    EventFilter,
    GraphNames,
    involved_object,
    names_to_settle,
)
from kubectl_dgd.core.views import EventView, GraphName, LiveStatusView, event_view
from kubectl_dgd.errors import ApiError
from kubectl_dgd.usecases.graph_events import namespace_graphs
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.status import status_view
from kubectl_dgd.usecases.watching import Screen, follow


def graph_name(cluster: GraphCluster, name: str, namespace: str) -> GraphName:
    """The graph's name as the server has it (one GET; the object need not be readable)."""
    graph = named_graph(cluster, name, namespace)
    return GraphName(str(graph["metadata"]["name"]))


def _view(
    cluster: GraphCluster,
    graph: dict[str, Any],
    where: tuple[str, str],
    now: datetime,
    with_events: bool,
    which: EventFilter | None = None,
) -> LiveStatusView:
    """The view of a graph just read; with ``with_events``, its Events too (one more LIST)."""
    return _screen(cluster, graph, where, now, with_events, which).view


def _screen(
    cluster: GraphCluster,
    graph: dict[str, Any],
    where: tuple[str, str],
    now: datetime,
    with_events: bool,
    which: EventFilter | None = None,
) -> Screen[LiveStatusView]:
    events: list[tuple[dict[str, Any], str | None]] | None = None
    warnings = []
    if with_events:
        try:
            events = _graph_events(cluster, graph, where[1], which)
        except ApiError as err:
            if err.status != 403:
                raise
            warnings.append(f"Events not shown: {err}")  # the status is still worth showing

    def at(moment: datetime, width: int = 0) -> LiveStatusView:
        shown = None if events is None else _event_views(events, moment)
        return LiveStatusView(status_view(graph, moment), shown, warnings, obj=graph)

    return Screen(at(now), at)


def _graph_events(
    cluster: GraphCluster,
    graph: dict[str, Any],
    namespace: str,
    which: EventFilter | None = None,
) -> list[tuple[dict[str, Any], str | None]]:
    """The Events of the graph and of every child and pod, gone ones included, each with the
    child it is about (None: the graph itself): one LIST of the namespace's Events; children
    known by kind and the names the operator gives them (core/graph_events.py)."""
    found = []
    events = cluster.list_objects("v1", "events", namespace)
    graphs = namespace_graphs(cluster, namespace) if names_to_settle(graph, events, None) else []
    names = GraphNames.of(graph, (), graphs)
    keep = which or EventFilter()
    for event in events:
        involved = involved_object(event)
        component = names.component_of(involved)
        if component is None or not keep.keeps(str(event.get("type") or ""), component or None):
            continue
        kind = str(involved.get("kind") or "")
        child = None if kind == graph.get("kind", "DynamoGraphDeployment") else kind
        found.append((event, f"{child}/{involved.get('name', '')}" if child else None))
    return found


def _event_views(found: list[tuple[dict[str, Any], str | None]], now: datetime) -> list[EventView]:
    views = [event_view(event, now, about) for event, about in found]
    return sorted(views, key=lambda e: str(e.lastTimestamp or ""))


def graph_event_views(
    cluster: GraphCluster,
    graph: dict[str, Any],
    namespace: str,
    now: datetime,
    which: EventFilter | None = None,
) -> list[EventView]:
    """The Events of the graph and of every child and pod, newest last (see _graph_events)."""
    return _event_views(_graph_events(cluster, graph, namespace, which), now)


def live_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    now: datetime,
    with_events: bool = False,
    which: EventFilter | None = None,
) -> LiveStatusView:
    graph = named_graph(cluster, name, namespace)
    return _view(cluster, graph, (name, namespace), now, with_events, which)


def watch_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    now: Callable[[], datetime],
    with_events: bool = False,
    which: EventFilter | None = None,
) -> Iterator[Screen[LiveStatusView]]:
    """The view now, then a new one for each new version from a watch stream, until interrupted."""
    graph = named_graph(cluster, name, namespace)
    yield _screen(cluster, graph, (name, namespace), now(), with_events, which)
    for changed in follow(cluster, graph, clock):
        yield _screen(cluster, changed, (name, namespace), now(), with_events, which)
