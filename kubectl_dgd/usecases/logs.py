"""``logs NAME [COMPONENT]``: the main container's log of a graph's pods, each line with its pod.

The pods come from one LIST by the operator's labels (graph, and component when given). Without
``follow`` each pod's log is read in turn; with it, every pod is followed at once (a thread per
stream, lines merged as they come), the LIST is repeated every ``relist`` seconds to pick up
pods that appear (a replaced pod, a scale-up), and it ends when every stream has ended and no
new pod has appeared.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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


def graph_pods(
    cluster: GraphCluster, name: str, namespace: str, component: str | None
) -> list[dict[str, Any]]:
    selector = f"{GRAPH_LABEL}={name}" + (f",{COMPONENT_LABEL}={component}" if component else "")
    pods = cluster.list_objects("v1", "pods", namespace, selector)
    return sorted(pods, key=lambda pod: str((pod.get("metadata") or {}).get("name")))


def container_of(pod: dict[str, Any], wanted: str | None) -> str | None:
    """``-c``, else ``main`` when the pod has one, else the server's choice (None)."""
    if wanted:
        return wanted
    names = [c.get("name") for c in (pod.get("spec") or {}).get("containers") or []]
    return MAIN if MAIN in names else None


def _name(pod: dict[str, Any]) -> str:
    return str((pod.get("metadata") or {}).get("name") or "")


def _started(pod: dict[str, Any]) -> bool:
    return (pod.get("status") or {}).get("phase") not in (None, "Pending")


def read_logs(
    cluster: GraphCluster, pods: list[dict[str, Any]], namespace: str, request: LogRequest
) -> Iterator[tuple[str, str]]:
    """(pod, line) for each pod in turn."""
    for pod in pods:
        for line in cluster.pod_log(
            namespace,
            _name(pod),
            container_of(pod, request.container),
            previous=request.previous,
            tail=request.tail,
            since_seconds=request.since_seconds,
        ):
            yield _name(pod), line


_END = object()


def follow_logs(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    component: str | None,
    request: LogRequest,
    sleep: Callable[[float], None],
    relist: float = 1.0,
) -> Iterator[tuple[str, str]]:
    """(pod, line) from every pod at once, new pods included (see the module docstring)."""
    lines: queue.Queue[Any] = queue.Queue()
    followed: set[str] = set()
    running = 0

    def stream(pod: dict[str, Any]) -> None:
        try:
            for line in cluster.pod_log(
                namespace,
                _name(pod),
                container_of(pod, request.container),
                follow=True,
                tail=request.tail,
                since_seconds=request.since_seconds,
            ):
                lines.put((_name(pod), line))
        except Exception as err:  # handed to the reader, which raises it
            lines.put(err)
        finally:
            lines.put(_END)

    def start_new() -> int:
        started = 0
        for pod in graph_pods(cluster, name, namespace, component):
            uid = str((pod.get("metadata") or {}).get("uid") or _name(pod))
            if uid in followed or not _started(pod):
                continue
            followed.add(uid)
            threading.Thread(target=stream, args=(pod,), daemon=True).start()
            started += 1
        return started

    running += start_new()
    while True:
        try:
            item = lines.get(timeout=relist)
        except queue.Empty:
            running += start_new()
            continue
        if item is _END:
            running -= 1
            if running == 0:
                sleep(relist)  # a replacement may be on its way
                running += start_new()
                if running == 0:
                    return
            continue
        if isinstance(item, Exception):
            raise item
        yield item
