"""``list -w``: the graphs of a namespace as they change, as ``kubectl get -w`` follows them.

One LIST, then a watch of the collection from the list's resourceVersion, re-opened as
usecases/watching.py re-opens a graph's watch (at once after a normal end, after a jittered
backoff after a failure). On 410 Gone the graphs are listed again and what changed meanwhile
comes out as events, as client-go's reflector replaces its store.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.errors import ApiError
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.watching import WATCH_WINDOW, Rewatch, rv

Key = tuple[str, str]


@dataclass(frozen=True)
class ListEvent:
    """One change of `list -w`."""

    type: str  # ADDED, MODIFIED or DELETED
    obj: dict[str, Any]


def _key(obj: dict[str, Any]) -> Key:
    meta = obj.get("metadata") or {}
    return str(meta.get("namespace") or ""), str(meta.get("name") or "")


def _items(listing: dict[str, Any]) -> list[dict[str, Any]]:
    items = [i for i in listing.get("items") or [] if isinstance(i, dict)]
    return sorted(items, key=_key)


@dataclass
class ListWatch:
    """The first listing (``initial``, sorted by namespace and name), then ``events()``."""

    cluster: GraphCluster
    namespace: str | None
    selector: str | None
    fields: str | None
    clock: Clock
    rand: Callable[[], float] = random.random
    initial: list[dict[str, Any]] = field(default_factory=list)
    _known: dict[Key, dict[str, Any]] = field(default_factory=dict)
    _version: str = ""

    def list(self) -> ListWatch:
        listing = self.cluster.list_graphs(self.namespace, self.selector, self.fields)
        self.initial = _items(listing)
        self._known = {_key(o): o for o in self.initial}
        self._version = rv(listing)
        return self

    def _relist(self) -> Iterator[ListEvent]:
        """After 410 Gone: list again; what changed since is reported as events."""
        listing = self.cluster.list_graphs(self.namespace, self.selector, self.fields)
        fresh = {_key(o): o for o in _items(listing)}
        for key, obj in fresh.items():
            old = self._known.get(key)
            if old is None:
                yield ListEvent("ADDED", obj)
            elif rv(old) != rv(obj):
                yield ListEvent("MODIFIED", obj)
        for key in sorted(self._known.keys() - fresh.keys()):
            yield ListEvent("DELETED", self._known[key])
        self._known, self._version = fresh, rv(listing)

    def _watch(self) -> Iterator[ListEvent]:
        stream = self.cluster.watch_list(
            self.namespace, self._version, self.selector, self.fields, timeout=WATCH_WINDOW
        )
        for kind, obj in stream:
            self._version = rv(obj) or self._version
            if kind not in ("ADDED", "MODIFIED", "DELETED"):
                continue  # BOOKMARK: only the version moves on
            if kind == "DELETED":
                self._known.pop(_key(obj), None)
            else:
                self._known[_key(obj)] = obj
            yield ListEvent(kind, obj)

    def events(self) -> Iterator[ListEvent]:
        """Each change after the first listing, until the caller stops (Ctrl-C) or an API error
        that is not a passing one (401, 403, ...) ends it."""
        rewatch = Rewatch(self.clock, self.rand)
        while True:
            rewatch.opening()
            count = 0
            try:
                if rewatch.relist:
                    rewatch.relist = False
                    yield from self._relist()
                for event in self._watch():
                    count += 1
                    yield event
            except ApiError as err:
                if not rewatch.passing(err):
                    raise
            wait = rewatch.wait(count)
            if wait is not None:
                self.cluster.sleep(wait)
