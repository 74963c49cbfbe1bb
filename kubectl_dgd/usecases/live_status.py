"""``status NAME`` against a cluster: one GET, then exactly the view of ``status -f``;
``--events`` adds one LIST of the namespace's Events (the graph's, its children's and pods');
an account that may not list them still gets the status, and one note."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph_events import EventFilter, GraphNames, involved_object
from kubectl_dgd.core.views import EventView, GraphName, LiveStatusView, event_view
from kubectl_dgd.errors import ApiError
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.status import status_view
from kubectl_dgd.usecases.watching import follow


def graph_name(cluster: GraphCluster, name: str, namespace: str) -> GraphName:
    """The graph's name as the server has it (one GET; the object need not be readable)."""
    graph = cluster.get_graph(name, namespace)
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
    events = None
    warnings = []
    if with_events:
        try:
            events = graph_event_views(cluster, graph, where[1], now, which)
        except ApiError as err:
            if err.status != 403:
                raise
            warnings.append(f"Events not shown: {err}")  # the status is still worth showing
    return LiveStatusView(status_view(graph, now), events, warnings, obj=graph)


def graph_event_views(
    cluster: GraphCluster,
    graph: dict[str, Any],
    namespace: str,
    now: datetime,
    which: EventFilter | None = None,
) -> list[EventView]:
    """The Events of the graph and of every child and pod, gone ones included (one LIST of the
    namespace's Events; children known by kind and the names the operator gives them: see
    core/graph_events.py), newest last."""
    found = []
    names = GraphNames.of(graph)
    keep = which or EventFilter()
    for event in cluster.list_objects("v1", "events", namespace):
        involved = involved_object(event)
        component = names.component_of(involved)
        if component is None or not keep.keeps(str(event.get("type") or ""), component or None):
            continue
        kind = str(involved.get("kind") or "")
        child = None if kind == graph.get("kind", "DynamoGraphDeployment") else kind
        about = f"{child}/{involved.get('name', '')}" if child else None
        found.append(event_view(event, now, about))
    return sorted(found, key=lambda e: str(e.lastTimestamp or ""))


def live_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    now: datetime,
    with_events: bool = False,
    which: EventFilter | None = None,
) -> LiveStatusView:
    graph = cluster.get_graph(name, namespace)
    return _view(cluster, graph, (name, namespace), now, with_events, which)


def watch_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    now: Callable[[], datetime],
    with_events: bool = False,
    which: EventFilter | None = None,
) -> Iterator[LiveStatusView]:
    """The view now, then a new one for each new version from a watch stream, until interrupted."""
    graph = cluster.get_graph(name, namespace)
    yield _view(cluster, graph, (name, namespace), now(), with_events, which)
    for changed in follow(cluster, graph, clock):
        yield _view(cluster, changed, (name, namespace), now(), with_events, which)
