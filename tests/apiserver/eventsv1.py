"""events.k8s.io/v1 Events are the core Events in another shape (one storage, as on the real
server): ``regarding`` for ``involvedObject``, ``note`` for ``message``, ``deprecatedCount``,
``deprecatedFirstTimestamp``/``deprecatedLastTimestamp``, ``reportingController``."""

from __future__ import annotations

from tests.apiserver.store import Obj


def to_v1(event: Obj) -> Obj:
    source = event.get("source") or {}
    return {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": event.get("metadata", {}),
        "eventTime": event.get("eventTime"),
        "regarding": event.get("involvedObject", {}),
        "reason": event.get("reason", ""),
        "note": event.get("message", ""),
        "type": event.get("type", ""),
        "action": event.get("action", ""),
        "reportingController": event.get("reportingComponent") or source.get("component", ""),
        "reportingInstance": event.get("reportingInstance", ""),
        "deprecatedSource": source,
        "deprecatedFirstTimestamp": event.get("firstTimestamp"),
        "deprecatedLastTimestamp": event.get("lastTimestamp"),
        "deprecatedCount": event.get("count", 0),
    }
