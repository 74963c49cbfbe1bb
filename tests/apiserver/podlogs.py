"""The ``pods/log`` subresource: container logs kept per (namespace, pod, container, previous).

Emulated as the kubelet answers through the API server: ``container`` (required when the pod has
more than one container; 400 naming the choices otherwise), ``previous`` (400 when no earlier
instance terminated), ``tailLines``, ``sinceSeconds`` (against each line's time), ``timestamps`` (each line after its
time in the kubelet's fixed nine-digit RFC 3339 form), ``follow``
(a chunked stream of new lines, ending when the pod is deleted or the server stops).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial

from tests.apiserver import errors
from tests.apiserver.resources import PODS
from tests.apiserver.store import Obj, Store

LogKey = tuple[str, str, str, bool]


@dataclass
class PodLogs:
    store: Store
    _lines: dict[LogKey, list[tuple[datetime, str]]] = field(default_factory=dict)
    _cond: threading.Condition = field(default_factory=threading.Condition)
    # How many follow streams have taken their first lines and wait for new ones: a line
    # appended once a stream counts here reaches it, even if its pod is deleted right after.
    following: int = 0

    def append(
        self,
        namespace: str,
        pod: str,
        *lines: str,
        container: str = "main",
        previous: bool = False,
        at: datetime | None = None,
    ) -> None:
        moment = at or self.store.clock()
        with self._cond:
            kept = self._lines.setdefault((namespace, pod, container, previous), [])
            kept.extend((moment, line) for line in lines)
            self._cond.notify_all()

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def _container(self, pod: Obj, wanted: str) -> str:
        spec = pod.get("spec") or {}
        names = [c.get("name", "") for c in spec.get("containers") or []]
        inits = [c.get("name", "") for c in spec.get("initContainers") or []]
        name = pod["metadata"]["name"]
        if wanted in inits:
            return wanted
        if not wanted:
            if len(names) == 1:
                return str(names[0])
            raise errors.bad_request(
                f"a container name must be specified for pod {name}, choose one of: "
                f"[{' '.join(names)}]"
            )
        if wanted not in names:
            raise errors.bad_request(f"container {wanted} is not valid for pod {name}")
        return wanted

    def stream(self, namespace: str, pod_name: str, query: dict[str, list[str]]) -> Iterator[str]:
        """Lines (with their newline) as the request asks; raises ApiError before the first."""
        pod = self.store.get(PODS, namespace, pod_name)
        container = self._container(pod, query.get("container", [""])[0])
        previous = query.get("previous", [""])[0].lower() in ("true", "1")
        follow = query.get("follow", [""])[0].lower() in ("true", "1")
        key = (namespace, pod_name, container, previous)
        with self._cond:
            if previous and key not in self._lines:
                raise errors.bad_request(
                    f'previous terminated container "{container}" in pod "{pod_name}" not found'
                )
            lines = list(self._lines.get(key, []))
        since = query.get("sinceSeconds", [""])[0]
        if since:
            cutoff = self.store.clock() - timedelta(seconds=int(since))
            lines = [entry for entry in lines if entry[0] >= cutoff]
        tail = query.get("tailLines", [""])[0]
        if tail:
            lines = lines[len(lines) - min(int(tail), len(lines)) :]
        stamped = query.get("timestamps", [""])[0].lower() in ("true", "1")
        return self._follow(key, lines, follow, stamped)

    def _follow(
        self, key: LogKey, first: list[tuple[datetime, str]], follow: bool, stamped: bool
    ) -> Iterator[str]:
        for moment, line in first:
            yield _line(moment, line, stamped)
        if not follow:
            return
        with self._cond:
            seen = len(self._lines.get(key, []))
            self.following += 1
        while True:
            with self._cond:
                self._cond.wait_for(partial(self._moved, key, seen), 0.2)
                new = self._lines.get(key, [])[seen:]
                seen += len(new)
                gone = self._gone(key)
            for moment, line in new:
                yield _line(moment, line, stamped)
            if gone and not new:
                return

    def _moved(self, key: LogKey, seen: int) -> bool:
        return len(self._lines.get(key, [])) > seen or self._gone(key)

    def _gone(self, key: LogKey) -> bool:
        if self.store.closed:
            return True
        try:
            self.store.get(PODS, key[0], key[1])
        except errors.ApiError:
            return True
        return False


def _line(moment: datetime, line: str, stamped: bool) -> str:
    """The kubelet's form: ``2026-12-01T23:00:00.000000000Z message`` with ``timestamps``."""
    if not stamped:
        return line + "\n"
    utc = moment.astimezone(UTC)
    return f"{utc.strftime('%Y-%m-%dT%H:%M:%S')}.{utc.microsecond:06d}000Z {line}\n"
