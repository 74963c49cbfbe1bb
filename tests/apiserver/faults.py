"""Fault injection for the test API server: forbid, fail, delay, and run code between requests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RequestRecord:
    """One request as the server saw it (for counting and for fault matching)."""

    method: str
    path: str
    query: dict[str, list[str]]
    verb: str  # get, list, watch, create, update, patch, delete, discovery, unknown
    resource: str = ""
    subresource: str = ""
    namespace: str | None = None
    name: str = ""
    content_type: str = ""
    accept: str = ""
    user_agent: str = ""

    @property
    def is_discovery(self) -> bool:
        return self.verb == "discovery"


Match = Callable[[RequestRecord], bool]


def resource_requests(record: RequestRecord) -> bool:
    return not record.is_discovery


def matching(
    verb: str | None = None, resource: str | None = None, name: str | None = None
) -> Match:
    """A matcher on verb, resource plural and object name (None: any)."""

    def match(record: RequestRecord) -> bool:
        return (
            (verb is None or record.verb == verb)
            and (resource is None or record.resource == resource)
            and (name is None or record.name == name)
        )

    return match


@dataclass
class _Failure:
    remaining: int
    code: int
    match: Match


@dataclass
class _Hook:
    callback: Callable[[RequestRecord], Any]
    match: Match
    remaining: int


@dataclass
class Faults:
    """Everything a test can make the server do wrong. Thread-safe; cleared per test."""

    forbidden: list[tuple[str, str, str | None]] = field(default_factory=list)
    _failures: list[_Failure] = field(default_factory=list)
    _delays: list[tuple[float, Match]] = field(default_factory=list)
    _hooks: list[_Hook] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def forbid(
        self, verb: str, resource: str = "dynamographdeployments", namespace: str | None = None
    ) -> None:
        """RBAC says no: ``verb`` on ``resource`` (in ``namespace``, or anywhere) is a 403."""
        with self._lock:
            self.forbidden.append((verb, resource, namespace))

    def fail_next(self, count: int, code: int = 500, match: Match = resource_requests) -> None:
        """The next ``count`` matching requests answer ``code`` (500, 503, 504, or 429 with
        Retry-After) with a Status."""
        with self._lock:
            self._failures.append(_Failure(count, code, match))

    def delay(self, seconds: float, match: Match = resource_requests) -> None:
        with self._lock:
            self._delays.append((seconds, match))

    def before(
        self, callback: Callable[[RequestRecord], Any], match: Match, times: int = 1
    ) -> None:
        """Run ``callback`` just before the server handles the next ``times`` matching
        requests: e.g. another writer changes the graph between our read and our patch."""
        with self._lock:
            self._hooks.append(_Hook(callback, match, times))

    def clear(self) -> None:
        with self._lock:
            self.forbidden.clear()
            self._failures.clear()
            self._delays.clear()
            self._hooks.clear()

    # -- used by the server ---------------------------------------------------------------------

    def is_forbidden(self, record: RequestRecord) -> bool:
        with self._lock:
            return any(
                verb == record.verb
                and resource == record.resource
                and (namespace is None or namespace == record.namespace)
                for verb, resource, namespace in self.forbidden
            )

    def failure_for(self, record: RequestRecord) -> int | None:
        with self._lock:
            for failure in self._failures:
                if failure.remaining > 0 and failure.match(record):
                    failure.remaining -= 1
                    return failure.code
        return None

    def apply_delay(self, record: RequestRecord) -> None:
        with self._lock:
            total = sum(seconds for seconds, match in self._delays if match(record))
        if total > 0:
            time.sleep(total)

    def run_hooks(self, record: RequestRecord) -> None:
        with self._lock:
            due = [h for h in self._hooks if h.remaining > 0 and h.match(record)]
            for hook in due:
                hook.remaining -= 1
        for hook in due:  # outside the lock: a hook may write through the store
            hook.callback(record)
