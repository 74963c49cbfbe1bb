"""The Events of a whole graph: of the DGD and of every object below it, newest last.

Pure: it gets the namespace's Events and, for ``events NAME``, the objects of the graph's tree.
An Event is the graph's when it is about the graph, about an object of the tree (by uid), or
about an object of a child kind whose name the operator derives from the graph's name and one
of its components (core/naming.py): ``<graph>-<component>`` and what is named after it (the
worker-hash suffix, ReplicaSets, pods), or on Grove ``<pcs>-<replica>-<component>...``. Names,
not only uids, so that the Events of objects gone (a crashed pod replaced, the old generation
after a rolling update) are still shown. Events about one object with the same type, reason and
message are one row whose count is the sum of theirs (kubelets and controllers repeat them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from kubectl_dgd.core.naming import child_name
from kubectl_dgd.core.timefmt import parse_time, seconds_between
from kubectl_dgd.core.validate.grove_names import pcs_name

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
    component: str | None = None  # None: the graph's own

    def to_data(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "reason": self.reason,
            "object": self.object,
            "component": self.component,
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


COMPONENT_LABEL = "nvidia.com/dynamo-component"
EVENT_TYPES = ("Normal", "Warning")


def event_types(text: str | None) -> frozenset[str] | None:
    """kubectl events' ``--types=Warning,Normal`` (any case); ValueError in its words."""
    if text is None:
        return None
    chosen = set()
    for item in text.split(","):
        known = [t for t in EVENT_TYPES if t.lower() == item.strip().lower()]
        if not known:
            raise ValueError("valid --types are Normal or Warning")
        chosen.add(known[0])
    return frozenset(chosen)


@dataclass(frozen=True)
class EventFilter:
    """``--types`` (None: every type) and ``--for COMPONENT`` (None: the whole graph)."""

    types: frozenset[str] | None = None
    component: str | None = None

    def keeps(self, type_: str, component: str | None) -> bool:
        if self.types is not None and type_ not in self.types:
            return False
        return self.component is None or component == self.component


@dataclass(frozen=True)
class GraphNames:
    """Which objects a graph's are, by what the operator names them; ``component_of`` says the
    component of one (``""`` for the graph itself, None when it is not the graph's)."""

    kind: str
    name: str
    components: tuple[str, ...]
    uids: Mapping[str, str] = field(default_factory=dict)  # the tree's objects: uid -> component
    _patterns: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # other graphs of the namespace whose names start with this one's and a dash: their
    # children's names start like this graph's (``my-graph-decode-worker-...`` is the graph
    # ``my-graph-decode``'s component ``worker``'s, not ``my-graph``'s ``decode``'s)
    longer: tuple[GraphNames, ...] = ()

    @staticmethod
    def of(
        graph: Mapping[str, Any],
        objects: Iterable[Mapping[str, Any]] = (),
        graphs: Iterable[Mapping[str, Any]] = (),
    ) -> GraphNames:
        """``graphs``: the namespace's graphs, when read."""
        meta = _get(graph, "metadata")
        name = str(meta.get("name") or "")
        spec = [c for c in _items(_get(graph, "spec").get("components")) if c.get("name")]
        names = [str(c["name"]) for c in spec]
        # a component renamed or removed since: its status entry may still say its name
        names += [str(n) for n in _get(graph, "status").get("components") or {} if n not in names]
        pcs = pcs_name(name, [dict(c) for c in spec]) if spec else name
        patterns = []
        # the longest component first: "decode-b" is not "decode"'s
        for component in sorted(set(names), key=len, reverse=True):
            lower = re.escape(component.lower())
            own = re.escape(child_name(name, component))
            grove = rf"{re.escape(pcs)}-\d+-{lower}"
            patterns.append((component, re.compile(rf"(?:{own}|{grove})(?:-.*)?")))
        uids = {}
        for obj in objects:
            obj_meta = _get(obj, "metadata")
            label = _get(obj_meta, "labels").get(COMPONENT_LABEL)
            if obj_meta.get("uid"):
                uids[str(obj_meta["uid"])] = str(label) if label else ""
        uid = str(meta.get("uid") or "")
        if uid:
            uids[uid] = ""
        kind = str(graph.get("kind") or "DynamoGraphDeployment")
        longer = tuple(
            GraphNames.of(other)
            for other in graphs
            if str(_get(other, "metadata").get("name") or "").startswith(f"{name}-")
        )
        return GraphNames(kind, name, tuple(names), uids, tuple(patterns), longer)

    def component_of(self, involved: Mapping[str, Any]) -> str | None:
        kind, who = involved.get("kind"), str(involved.get("name") or "")
        if kind == self.kind and who == self.name:
            return ""
        if kind not in CHILD_KINDS:
            uid = str(involved.get("uid") or "")
            return self.uids.get(uid) if uid else None
        uid = str(involved.get("uid") or "")
        if uid not in self.uids and any(
            other.component_of(involved) is not None for other in self.longer
        ):
            return None  # the longer name is the more specific match: the neighbour's
        for component, pattern in self._patterns:
            if pattern.fullmatch(who):
                return component
        return self.uids.get(uid) if uid else None

    def by_name_only(self, involved: Mapping[str, Any]) -> bool:
        """Whether the object is a child kind not in the tree whose name starts like this
        graph's children: only the namespace's other graph names can tell whose it is."""
        uid = str(involved.get("uid") or "")
        return (
            involved.get("kind") in CHILD_KINDS
            and uid not in self.uids
            and str(involved.get("name") or "").startswith(f"{self.name}-")
        )


def _items(value: Any) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def graph_events(
    graph: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
    objects: Iterable[Mapping[str, Any]] | None,
    now: datetime,
    warnings: list[str] | None = None,
    which: EventFilter | None = None,
    graphs: Iterable[Mapping[str, Any]] = (),
) -> GraphEvents:
    """``objects``: the tree's, when read (see the module docstring); ``graphs``: the
    namespace's graphs, when read (needed only when ``names_to_settle`` says so)."""
    meta = _get(graph, "metadata")
    name, namespace = str(meta.get("name") or ""), str(meta.get("namespace") or "")
    names = GraphNames.of(graph, objects or (), graphs)
    keep = which or EventFilter()
    merged: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for event in events:
        involved = involved_object(event)
        component = names.component_of(involved)
        if component is None or not keep.keeps(str(event.get("type") or ""), component or None):
            continue
        what = f"{involved.get('kind', '')}/{involved.get('name', '')}"
        message = str(event.get("message") or event.get("note") or "").replace("\n", " ")
        key = (what, str(event.get("type") or ""), str(event.get("reason") or ""), message)
        first = event.get("firstTimestamp") or event.get("eventTime")
        entry = merged.setdefault(
            key, {"count": 0, "first": first, "last": _last(event), "component": component}
        )
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
            component=entry["component"] or None,
        )
        for key, entry in merged.items()
    ]
    rows.sort(key=lambda row: (row.lastTimestamp or "", row.object))  # newest last
    return GraphEvents(name, namespace, rows, list(warnings or []))


def names_to_settle(
    graph: Mapping[str, Any],
    events: Iterable[Mapping[str, Any]],
    objects: Iterable[Mapping[str, Any]] | None,
) -> bool:
    """Whether some Event is about an object gone from the tree whose name could also be
    another graph's child: then the namespace's graphs are worth one LIST."""
    names = GraphNames.of(graph, objects or ())
    return any(names.by_name_only(involved_object(event)) for event in events)
