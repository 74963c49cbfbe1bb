"""Watch streams: newline-delimited JSON events after a resourceVersion, as kube-apiserver sends.

- no resourceVersion (or "0"): synthetic ADDED events for the objects that exist, then changes;
- resourceVersion N: every change after N; N older than the kept history: one ERROR event
  carrying a 410 Expired Status (the HTTP status stays 200, as on the real server);
- with a selector, an object that stops matching is sent as DELETED, one that starts as ADDED;
- timeoutSeconds ends the stream; allowWatchBookmarks adds a BOOKMARK before it ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from tests.apiserver.errors import ApiError
from tests.apiserver.resources import ResourceType
from tests.apiserver.store import Store

Predicate = Callable[[dict[str, Any]], bool]


def _bookmark(rt: ResourceType, rv: int) -> dict[str, Any]:
    return {
        "type": "BOOKMARK",
        "object": {
            "kind": rt.kind,
            "apiVersion": rt.group_version,
            "metadata": {"resourceVersion": str(rv)},
        },
    }


def events(
    store: Store,
    rt: ResourceType,
    namespace: str | None,
    matches: Predicate,
    *,
    since: str | None,
    timeout: float,
    bookmarks: bool,
    poll: float = 0.2,
) -> Iterator[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    if not since or since == "0":
        items, rv = store.list(rt, namespace, matches)
        cursor = int(rv)
        for obj in items:
            yield {"type": "ADDED", "object": obj}
    else:
        try:
            cursor = int(since)
        except ValueError:
            yield {
                "type": "ERROR",
                "object": ApiError(
                    400, "BadRequest", f"invalid resource version: {since}"
                ).status(),
            }
            return
    while not store.closed:
        try:
            changes, seen = store.changes_after(rt, cursor)
        except ApiError as error:
            yield {"type": "ERROR", "object": error.status()}
            return
        for change in changes:
            cursor = change.rv
            if namespace is not None and change.namespace != namespace:
                continue
            now_matches = change.type != "DELETED" and matches(change.obj)
            was_matching = change.previous is not None and matches(change.previous)
            if change.type == "DELETED":
                if was_matching:
                    yield {"type": "DELETED", "object": change.obj}
            elif now_matches:
                yield {
                    "type": "ADDED" if change.type == "ADDED" or not was_matching else "MODIFIED",
                    "object": change.obj,
                }
            elif was_matching:
                yield {"type": "DELETED", "object": change.obj}
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        store.wait_beyond(seen, min(remaining, poll))
    if bookmarks:
        yield _bookmark(rt, store.resource_version)
