"""Follow one graph through a watch stream (never by polling), across stream ends and 410 Gone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.ports import Clock, GraphCluster

# The server closes a watch after timeoutSeconds; re-watching from the last resourceVersion is
# how kubectl (reflector) keeps a stream open indefinitely.
WATCH_WINDOW = 300.0


class TimedOut(Exception):
    """The deadline passed before the caller was satisfied."""


def rv(obj: dict[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("resourceVersion") or "")


def follow(
    cluster: GraphCluster,
    first: dict[str, Any],
    clock: Clock,
    timeout: float | None = None,
) -> Iterator[dict[str, Any]]:
    """Yield each new version of the graph ``first`` (not ``first`` itself) until the caller stops.

    Raises TimedOut after ``timeout`` seconds and NotFoundError if the graph is deleted.
    """
    meta = first.get("metadata") or {}
    name, namespace = str(meta.get("name")), str(meta.get("namespace") or cluster.namespace)
    deadline = None if timeout is None else clock() + timeout
    version = rv(first)
    while True:
        window = WATCH_WINDOW
        if deadline is not None:
            window = min(window, deadline - clock())
            if window <= 0:
                raise TimedOut()
        try:
            for kind, obj in cluster.watch_graphs(namespace, name, version, timeout=window):
                if kind == "BOOKMARK":
                    version = rv(obj) or version
                    continue
                if kind == "DELETED":
                    raise NotFoundError(f'dynamographdeployment "{name}" was deleted')
                if rv(obj) == version:
                    continue
                version = rv(obj)
                yield obj
                if deadline is not None and clock() >= deadline:
                    raise TimedOut()
        except ApiError as err:
            if err.status != 410:
                raise
            fresh = cluster.get_graph(name, namespace)  # our version expired: start over from now
            version = rv(fresh)
            yield fresh
