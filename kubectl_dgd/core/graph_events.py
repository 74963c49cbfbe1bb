"""The Events of a whole graph: of the DGD and of every object below it, newest last.

Pure: it gets the namespace's Events and the objects of the graph's tree (or only the graph's
name, for ``status --events``: then children are recognised by the ``<graph>-`` prefix every
child name of both paths starts with). Events about one object with the same type, reason and
message are one row whose count is the sum of theirs (kubelets and controllers repeat them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from kubectl_dgd.core.timefmt import parse_time, seconds_between

CHILD_KINDS = frozenset(
    {
        "DynamoComponentDeployment",
        "Deployment",
        "ReplicaSet",
        "Pod",
        "LeaderWorkerSet",
        "PodCliqueSet",
        "PodCliqueScalingGroup",
        "PodClique",
        "Service",
        "PersistentVolumeClaim",
    }
)


@dataclass(frozen=True)
class GraphEvent:
    """One Event about the graph, a child or a pod."""

    type: str
    reason: str
    object: str  # Kind/name
    message: str
    count: int
    firstTimestamp: str | None
    lastTimestamp: str | None
    ageSeconds: int | None  # since lastTimestamp; for the table

    def to_data(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "reason": self.reason,
            "object": self.object,
            "message": self.message,
            "count": self.count,
            "firstTimestamp": self.firstTimestamp,
            "lastTimestamp": self.lastTimestamp,
        }


@dataclass(frozen=True)
class GraphEvents:
    """The Events of a graph and its children (`events NAME`, `status --events`)."""

    # -o custom-columns: a row per item of this list in the JSON
    TEMPLATE_ROWS: ClassVar[str] = "events"

    name: str
    namespace: str
    events: list[GraphEvent]
    warnings: list[str]

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "events": [event.to_data() for event in self.events],
            "warnings": list(self.warnings),
        }


def _get(obj: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = obj.get(key)
    return value if isinstance(value, Mapping) else {}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value > 0 else 1


def _last(event: Mapping[str, Any]) -> str | None:
    value = (
        event.get("lastTimestamp")
        or event.get("eventTime")
        or _get(event, "metadata").get("creationTimestamp")
    )
    return str(value) if value else None


def involved_object(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """What an Event is about, in either API (core/v1 ``involvedObject``, events/v1 ``regarding``)."""
    return _get(event, "involvedObject") or _get(event, "regarding")


def about_graph(
    graph: Mapping[str, Any], involved: Mapping[str, Any], uids: set[str] | None
) -> bool:
    """The Event's object is the graph, or one of its children: by uid (``uids``, the tree's
    objects), or with ``uids`` None by kind and the ``<graph>-`` name prefix."""
    name = str(_get(graph, "metadata").get("name") or "")
    kind, who = involved.get("kind"), str(involved.get("name") or "")
    if kind == graph.get("kind", "DynamoGraphDeployment") and who == name:
        return True
    if uids is not None:
        return bool(involved.get("uid")) and str(involved.get("uid")) in uids
    return kind in CHILD_KINDS and who.startswith(f"{name}-")


def graph_events(
    graph: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
    objects: Iterable[Mapping[str, Any]] | None,
    now: datetime,
    warnings: list[str] | None = None,
) -> GraphEvents:
    """``objects`` None: match children by name prefix (see the module docstring)."""
    meta = _get(graph, "metadata")
    name, namespace = str(meta.get("name") or ""), str(meta.get("namespace") or "")
    uids = {str(meta.get("uid") or "")}
    if objects is not None:
        uids |= {str(_get(obj, "metadata").get("uid") or "") for obj in objects}
    uids.discard("")
    merged: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for event in events:
        involved = involved_object(event)
        if not about_graph(graph, involved, uids if objects is not None else None):
            continue
        what = f"{involved.get('kind', '')}/{involved.get('name', '')}"
        message = str(event.get("message") or event.get("note") or "").replace("\n", " ")
        key = (what, str(event.get("type") or ""), str(event.get("reason") or ""), message)
        first = event.get("firstTimestamp") or event.get("eventTime")
        entry = merged.setdefault(key, {"count": 0, "first": first, "last": _last(event)})
        entry["count"] += _count(event.get("count") or event.get("deprecatedCount"))
        if first and (not entry["first"] or str(first) < str(entry["first"])):
            entry["first"] = first
        last = _last(event)
        if last and (not entry["last"] or last > entry["last"]):
            entry["last"] = last
    rows = [
        GraphEvent(
            type=key[1],
            reason=key[2],
            object=key[0],
            message=key[3],
            count=entry["count"],
            firstTimestamp=str(entry["first"]) if entry["first"] else None,
            lastTimestamp=entry["last"],
            ageSeconds=seconds_between(parse_time(entry["last"]), now),
        )
        for key, entry in merged.items()
    ]
    rows.sort(key=lambda row: (row.lastTimestamp or "", row.object))  # newest last
    return GraphEvents(name, namespace, rows, list(warnings or []))
