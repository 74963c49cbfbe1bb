"""``logs NAME [COMPONENT]``: the containers' logs of a graph's pods, each line with its pod.

The graph is read first (one GET), so that a mistyped graph, component or component type is
an error naming those that exist rather than "no pods". The pods come from one LIST by the
operator's labels (graph, and the components chosen by name or by type), then ``--pod`` (a
regular expression, searched in the pod's name) narrows them. Each pod gives one stream per
container asked for: the main one (``main``, else the only one), ``-c NAME``, or with
``--all-containers`` every init container and container in the pod's order.

Without ``follow`` the streams are read in turn; with it, every stream is followed at once (a
thread per stream, lines merged as they come), at most ``max_requests`` of them as kubectl's
``--max-log-requests`` allows, the LIST is repeated every ``relist`` seconds to pick up pods that
appear (a replaced pod, a scale-up), and it ends when every stream has ended and no new pod has
appeared.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from kubectl_dgd.core.near_names import did_you_mean
from kubectl_dgd.core.validate.graphview import components
from kubectl_dgd.errors import NotFoundError, UsageError
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import GraphCluster
from kubectl_dgd.usecases.tree import GRAPH_LABEL

COMPONENT_LABEL = "nvidia.com/dynamo-component"
MAIN = "main"  # the container the operator merges its defaults into


@dataclass(frozen=True)
class LogRequest:
    """Which logs to read."""

    container: str | None = None
    previous: bool = False
    tail: int | None = None
    since_seconds: int | None = None
    timestamps: bool = False
    all_containers: bool = False


@dataclass(frozen=True)
class PodFilter:
    """Which pods of the graph: one component, one component type, names matching a regex."""

    component: str | None = None
    component_type: str | None = None
    pod: re.Pattern[str] | None = None
    components: tuple[str, ...] | None = None  # what check_graph resolved the first two to


@dataclass(frozen=True)
class LogLine:
    """One line of one container's log; ``timestamp`` is the kubelet's when asked for."""

    pod: str
    container: str
    component: str
    timestamp: str | None
    message: str


def check_graph(cluster: GraphCluster, name: str, namespace: str, which: PodFilter) -> PodFilter:
    """The filter with ``components`` set to those of the graph it asks for; NotFoundError
    naming what exists when the graph, its component or component type does not."""
    graph = named_graph(cluster, name, namespace)
    parts = [c for _, c in components(graph)]
    chosen = [str(c.get("name")) for c in parts]
    if which.component is not None:
        if which.component not in chosen:
            raise NotFoundError(
                f"graph {name} has no component {which.component}"
                f"{did_you_mean(which.component, chosen)}; "
                f"its components: {', '.join(sorted(chosen))}"
            )
        chosen = [which.component]
    if which.component_type is not None:
        types = sorted({str(c.get("type")) for c in parts if c.get("type")})
        if which.component_type not in types:
            listed = ", ".join(types) if types else "none set"
            raise NotFoundError(
                f"graph {name} has no component of type {which.component_type}"
                f"{did_you_mean(which.component_type, types)}; its types: {listed}"
            )
        typed = {str(c.get("name")) for c in parts if c.get("type") == which.component_type}
        chosen = [c for c in chosen if c in typed]
    narrowed = which.component is not None or which.component_type is not None
    return replace(which, components=tuple(chosen) if narrowed else None)


def graph_pods(
    cluster: GraphCluster, name: str, namespace: str, which: PodFilter
) -> list[dict[str, Any]]:
    """The graph's pods by its label and, when narrowed, its components' (a set-based selector
    for several: a type may be several components; the pods' own type label is not relied on,
    the operator's releases differ in it)."""
    selector = f"{GRAPH_LABEL}={name}"
    chosen = which.components
    if chosen is None and which.component:
        chosen = (which.component,)
    if chosen is not None:
        if not chosen:
            return []
        if len(chosen) == 1:
            selector += f",{COMPONENT_LABEL}={chosen[0]}"
        else:
            selector += f",{COMPONENT_LABEL} in ({','.join(sorted(chosen))})"
    pods = cluster.list_objects("v1", "pods", namespace, selector)
    if which.pod is not None:
        pattern = which.pod
        pods = [pod for pod in pods if pattern.search(_name(pod))]
    return sorted(pods, key=_name)


def container_of(pod: dict[str, Any], wanted: str | None) -> str | None:
    """``-c``, else ``main`` when the pod has one, else its only container, else the server's
    choice (None: it names them)."""
    if wanted:
        return wanted
    names = [str(c.get("name")) for c in (pod.get("spec") or {}).get("containers") or []]
    if MAIN in names:
        return MAIN
    return names[0] if len(names) == 1 else None


def containers_of(pod: dict[str, Any], request: LogRequest) -> list[str | None]:
    """The containers whose logs are read: every one (init first) or the one asked for."""
    if not request.all_containers:
        return [container_of(pod, request.container)]
    spec = pod.get("spec") or {}
    every = [*(spec.get("initContainers") or []), *(spec.get("containers") or [])]
    return [str(c.get("name")) for c in every if c.get("name")]


def _name(pod: dict[str, Any]) -> str:
    return str((pod.get("metadata") or {}).get("name") or "")


def _component(pod: dict[str, Any]) -> str:
    return str(((pod.get("metadata") or {}).get("labels") or {}).get(COMPONENT_LABEL) or "")


def _started(pod: dict[str, Any]) -> bool:
    return (pod.get("status") or {}).get("phase") not in (None, "Pending")


def _line(pod: dict[str, Any], container: str | None, raw: str, stamped: bool) -> LogLine:
    stamp: str | None = None
    message = raw
    if stamped:
        head, sep, rest = raw.partition(" ")
        if sep:
            stamp, message = head, rest
    return LogLine(_name(pod), container or "", _component(pod), stamp, message)


def read_logs(
    cluster: GraphCluster, pods: list[dict[str, Any]], namespace: str, request: LogRequest
) -> Iterator[LogLine]:
    """Each pod's streams in turn."""
    for pod in pods:
        for container in containers_of(pod, request):
            for raw in cluster.pod_log(
                namespace,
                _name(pod),
                container,
                previous=request.previous,
                tail=request.tail,
                since_seconds=request.since_seconds,
                timestamps=request.timestamps,
            ):
                yield _line(pod, container, raw, request.timestamps)


_END = object()


def too_many_streams(count: int, limit: int) -> str:
    """kubectl's refusal, word for word."""
    return (
        f"you are attempting to follow {count} log streams, but maximum allowed concurrency "
        f"is {limit}, use --max-log-requests to increase the limit"
    )


def follow_logs(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    which: PodFilter,
    request: LogRequest,
    sleep: Callable[[float], None],
    *,
    max_requests: int,
    warn: Callable[[str], None] = lambda _line: None,
    relist: float = 1.0,
) -> Iterator[LogLine]:
    """Lines from every stream at once, new pods included (see the module docstring).
    UsageError (kubectl's words) when the first LIST gives more streams than ``max_requests``;
    a pod appearing later beyond the limit is one warning and is not followed."""
    lines: queue.Queue[Any] = queue.Queue()
    followed: set[str] = set()
    running = 0
    refused: set[str] = set()

    def stream(pod: dict[str, Any], container: str | None) -> None:
        try:
            for raw in cluster.pod_log(
                namespace,
                _name(pod),
                container,
                follow=True,
                tail=request.tail,
                since_seconds=request.since_seconds,
                timestamps=request.timestamps,
            ):
                lines.put(_line(pod, container, raw, request.timestamps))
        except Exception as err:  # handed to the reader, which raises it
            lines.put(err)
        finally:
            lines.put(_END)

    def start_new(first: bool) -> int:
        fresh: list[tuple[str, dict[str, Any], str | None]] = []
        for pod in graph_pods(cluster, name, namespace, which):
            uid = str((pod.get("metadata") or {}).get("uid") or _name(pod))
            if uid in followed or uid in refused or not _started(pod):
                continue
            fresh.extend((uid, pod, c) for c in containers_of(pod, request))
        if first and len(fresh) > max_requests:
            raise UsageError(too_many_streams(len(fresh), max_requests))
        started = 0
        for uid, pod, container in fresh:
            if running + started >= max_requests:
                if uid not in refused:
                    refused.add(uid)
                    warn(f"not following pod {_name(pod)}: {max_requests} streams already")
                continue
            followed.add(uid)
            threading.Thread(target=stream, args=(pod, container), daemon=True).start()
            started += 1
        return started

    running += start_new(True)
    while True:
        try:
            item = lines.get(timeout=relist)
        except queue.Empty:
            running += start_new(False)
            continue
        if item is _END:
            running -= 1
            if running == 0:
                sleep(relist)  # a replacement may be on its way
                running += start_new(False)
                if running == 0:
                    return
            continue
        if isinstance(item, Exception):
            raise item
        yield item
