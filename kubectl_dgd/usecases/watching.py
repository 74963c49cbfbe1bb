"""Follow one graph through a watch stream (never by polling), across stream ends and 410 Gone.

Re-watching follows client-go's reflector: a stream that ends normally after a while is reopened
at once from the last resourceVersion; one that ends at once with nothing in it (a proxy closing
idle streams, a broken server), or whose connection drops, is reopened after a jittered
exponential backoff; 410 Gone starts over from a fresh GET. A dropped connection never ends the
follow: only the caller's deadline, a deletion or a real API error does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.ports import Clock, GraphCluster

# The server closes a watch after timeoutSeconds; re-watching from the last resourceVersion is
# how kubectl (reflector) keeps a stream open indefinitely.
WATCH_WINDOW = 300.0
# client-go's reflector backoff: 800 ms doubling to a 30 s cap, each wait jittered up to 2x.
INITIAL_BACKOFF = 0.8
MAX_BACKOFF = 30.0
# A watch shorter than this that delivered nothing is "very short" (client-go's words): a failure.
HEALTHY_WATCH = 1.0
# Failures to connect while re-watching (connection refused or dropped, timeouts, 429) are waited
# out; anything else (401, 403, 5xx after the request's own retries, a malformed event) is final.
TRANSIENT_REASONS = frozenset({"Unreachable", "Transport", "Timeout"})


V = TypeVar("V")


@dataclass(frozen=True)
class Screen(Generic[V]):
    """One screen of a watch: the view as read, and ``at``, the same view drawn at another time
    and terminal width from what was read (no request), so that its ages and durations tick
    and it re-lays out when the terminal is resized."""

    view: V
    at: Callable[[datetime, int], V]


class TimedOut(Exception):
    """The deadline passed before the caller was satisfied."""


def rv(obj: dict[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("resourceVersion") or "")


class Backoff:
    """Exponential backoff with jitter, reset by a healthy watch."""

    def __init__(self, rand: Callable[[], float] = random.random) -> None:
        self.rand = rand
        self.failures = 0

    def reset(self) -> None:
        self.failures = 0

    def next(self) -> float:
        base = min(INITIAL_BACKOFF * 2.0**self.failures, MAX_BACKOFF)
        self.failures = min(self.failures + 1, 64)
        return min(base * (1.0 + self.rand()), MAX_BACKOFF)


def transient(err: ApiError) -> bool:
    return err.status == 429 or (err.status is None and err.reason in TRANSIENT_REASONS)


class Rewatch:
    """When the next watch opens, for every watch loop here (a graph's, ``list -w``'s): at once
    after a healthy watch (it delivered events, or stayed open HEALTHY_WATCH seconds) that ended
    normally, else after a backoff wait; a 410 Gone sets ``relist`` (the caller gets or lists
    again and clears it); an error that is not a passing one ends the loop."""

    def __init__(self, clock: Clock, rand: Callable[[], float] = random.random) -> None:
        self.clock = clock
        self.backoff = Backoff(rand)
        self.relist = False
        self._opened = 0.0
        self._failed = False

    def opening(self) -> None:
        """A watch (or the get or list before it) starts now."""
        self._opened, self._failed = self.clock(), False

    def passing(self, err: ApiError) -> bool:
        """Whether the loop goes on after ``err`` (the caller raises it when not)."""
        if err.status == 410:
            self.relist = True
        elif not transient(err):
            return False
        self._failed = True
        return True

    def wait(self, events: int) -> float | None:
        """Seconds to wait before the next watch; None: open it at once."""
        if events or self.clock() - self._opened >= HEALTHY_WATCH:
            self.backoff.reset()
            if not self._failed:
                return None
        return self.backoff.next()


def follow(
    cluster: GraphCluster,
    first: dict[str, Any],
    clock: Clock,
    timeout: float | None = None,
    rand: Callable[[], float] = random.random,
) -> Iterator[dict[str, Any]]:
    """Yield each new version of the graph ``first`` (not ``first`` itself) until the caller stops.

    Raises TimedOut after ``timeout`` seconds and NotFoundError if the graph is deleted. Waits
    between watches go through ``cluster.sleep``.
    """
    meta = first.get("metadata") or {}
    name, namespace = str(meta.get("name")), str(meta.get("namespace") or cluster.namespace)
    deadline = None if timeout is None else clock() + timeout
    version = rv(first)
    rewatch = Rewatch(clock, rand)
    while True:
        window = WATCH_WINDOW
        if deadline is not None:
            window = min(window, deadline - clock())
            if window <= 0:
                raise TimedOut()
        rewatch.opening()
        events = 0
        try:
            if rewatch.relist:  # our version expired: start over from now
                fresh = cluster.get_graph(name, namespace)
                rewatch.relist = False
                if rv(fresh) != version:
                    version = rv(fresh)
                    yield fresh
            for kind, obj in cluster.watch_graphs(namespace, name, version, timeout=window):
                events += 1
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
            if not rewatch.passing(err):
                raise
        wait = rewatch.wait(events)
        if wait is None:
            continue
        if deadline is not None:
            wait = min(wait, max(deadline - clock(), 0.0))
        cluster.sleep(wait)
