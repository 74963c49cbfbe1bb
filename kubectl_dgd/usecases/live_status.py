"""``status NAME`` against a cluster: one GET, then exactly the view of ``status -f``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.views import GraphName, LiveStatusView, event_view
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
) -> LiveStatusView:
    """The view of a graph just read; with ``with_events``, its Events too (one more LIST)."""
    events = None
    if with_events:
        events = [event_view(event, now) for event in cluster.list_events(*where)]
    return LiveStatusView(status_view(graph, now), events)


def live_status(
    cluster: GraphCluster, name: str, namespace: str, now: datetime, with_events: bool = False
) -> LiveStatusView:
    graph = cluster.get_graph(name, namespace)
    return _view(cluster, graph, (name, namespace), now, with_events)


def watch_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    now: Callable[[], datetime],
    with_events: bool = False,
) -> Iterator[LiveStatusView]:
    """The view now, then a new one for each new version from a watch stream, until interrupted."""
    graph = cluster.get_graph(name, namespace)
    yield _view(cluster, graph, (name, namespace), now(), with_events)
    for changed in follow(cluster, graph, clock):
        yield _view(cluster, changed, (name, namespace), now(), with_events)
