"""View models of the command results that are not one core object: what a use case returns and
``output/`` draws. Plain data, no text formatting; ``to_data()`` is what ``-o json``/``-o yaml``
print (camelCase keys, as the other views)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from kubectl_dgd.core.timefmt import parse_time, seconds_between

if TYPE_CHECKING:
    from kubectl_dgd.core.impact import Impact
    from kubectl_dgd.core.listing import GraphRow
    from kubectl_dgd.core.render import RenderedObject
    from kubectl_dgd.core.status import StatusView

# ---- status ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventView:
    """One Kubernetes Event about a graph, as ``status --events`` shows it."""

    type: str | None
    reason: str | None
    message: str | None
    count: int
    firstTimestamp: str | None
    lastTimestamp: str | None
    ageSeconds: int | None  # since lastTimestamp; for the table, not part of the data
    object: str | None = None  # Kind/name of a child the Event is about (None: the graph)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": self.type,
            "reason": self.reason,
            "message": self.message,
            "count": self.count,
            "firstTimestamp": self.firstTimestamp,
            "lastTimestamp": self.lastTimestamp,
        }
        if self.object is not None:
            data["object"] = self.object
        return data


def event_view(event: dict[str, Any], now: datetime, about: str | None = None) -> EventView:
    """The fields of an Event a reader needs; old-style (count, *Timestamp) and new-style
    (eventTime) Events both fill them."""
    last = (
        event.get("lastTimestamp")
        or event.get("eventTime")
        or (event.get("metadata") or {}).get("creationTimestamp")
    )
    return EventView(
        type=event.get("type"),
        reason=event.get("reason"),
        message=event.get("message"),
        count=event.get("count") or 1,
        firstTimestamp=event.get("firstTimestamp") or event.get("eventTime"),
        lastTimestamp=last,
        ageSeconds=seconds_between(parse_time(last), now),
        object=about,
    )


@dataclass(frozen=True)
class LiveStatusView:
    """``status NAME``: the status view, and the graph's Events when ``--events`` asked for them
    (None: not asked, so neither printed nor in the data)."""

    status: StatusView
    events: list[EventView] | None = None
    # What could not be read (the Events, for an account that may not list them): one note each.
    warnings: list[str] = field(default_factory=list)
    # The graph as read: what the output templates (-o jsonpath=, custom-columns=) run over,
    # as for `kubectl get dgd NAME`; -o json and -o yaml print the view.
    obj: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.status.name

    def template_data(self) -> Any:
        return self.obj if self.obj is not None else self.to_data()

    def to_data(self) -> dict[str, Any]:
        data = self.status.to_data()
        if self.events is not None:
            data["events"] = [e.to_data() for e in self.events]
        return data


@dataclass(frozen=True)
class StatusList:
    """``status -f FILE``: one view per graph of the file. One graph dumps as its own view, several
    as ``{"items": [...]}``."""

    views: list[StatusView]
    # The graphs as read, for the output templates (as `kubectl get -f FILE`: one is itself,
    # several a v1 List); -o json and -o yaml print the views.
    objects: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    def to_data(self) -> dict[str, Any]:
        if len(self.views) == 1:
            return self.views[0].to_data()
        return {"items": [v.to_data() for v in self.views]}

    def template_data(self) -> Any:
        if self.objects is None:
            return self.to_data()
        if len(self.objects) == 1:
            return self.objects[0]
        return {"apiVersion": "v1", "kind": "List", "items": self.objects}


@dataclass(frozen=True)
class GraphList:
    """``list``: a row per graph, and the object each row was read from. As ``kubectl get -o
    json``, the data of a listing is the objects themselves (a ``v1 List``); the rows are the
    table."""

    rows: list[GraphRow]
    objects: list[dict[str, Any]]
    all_namespaces: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"apiVersion": "v1", "kind": "List", "items": list(self.objects)}


@dataclass(frozen=True)
class GraphName:
    """Only the graph's name (``status NAME -o name`` needs no more than the object's name)."""

    name: str

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name}


# ---- rollout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """``rollout explain``: the state in one sentence, the rolling-update and restart
    explanations (None: nothing recorded), and what the user can do next."""

    name: str
    namespace: str | None
    summary: str
    rollingUpdate: list[str] | None
    restart: list[str] | None
    advice: list[str]
    blocked: str | None = None  # the root cause `why` finds (when the front end read it)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "summary": self.summary,
            "rollingUpdate": self.rollingUpdate,
            "restart": self.restart,
            "advice": list(self.advice),
            **({"blocked": self.blocked} if self.blocked else {}),
        }


# ---- restart ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RestartSummary:
    """What ``restart`` did or would do: the id change, the strategy, and the outcome line
    (``diff``: the file's unified diff, for ``restart -f --dry-run``)."""

    graph: str  # "namespace/name", or "name" for a file without a namespace
    oldId: str | None
    newId: str
    strategy: str
    outcome: str
    diff: str = ""

    def to_data(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "oldId": self.oldId,
            "newId": self.newId,
            "strategy": self.strategy,
            "outcome": self.outcome,
            "diff": self.diff,
        }


# ---- diff ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldChange:
    """One changed field of a diff."""

    change: str  # "+" added, "-" removed, "~" changed
    path: str
    old: Any = None
    new: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"change": self.change, "path": self.path, "old": self.old, "new": self.new}


def _no_impact() -> Impact:
    # Imported here: the status, list and render views never load the diff's impact rules.
    from kubectl_dgd.core.impact import Impact

    return Impact()


@dataclass
class GraphDiff:
    """The changes between a graph's file and its live object."""

    name: str
    namespace: str
    exists: bool
    changes: list[FieldChange] = field(default_factory=list)
    impact: Impact = field(default_factory=_no_impact)

    @property
    def differs(self) -> bool:
        return bool(self.changes) or not self.exists

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "exists": self.exists,
            "changes": [c.to_dict() for c in self.changes],
            "impact": self.impact.to_dict(),
        }


@dataclass(frozen=True)
class DiffList:
    """``diff -f FILE``: one result per graph of the file."""

    results: list[GraphDiff]

    @property
    def differs(self) -> bool:
        return any(r.differs for r in self.results)

    def to_data(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.results]


# ---- render ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RenderedList:
    """``render``: the children, in order; each one's source is a comment in YAML."""

    objects: list[RenderedObject]

    def to_data(self) -> dict[str, Any]:
        # A fresh plain copy per object: no shared sub-objects (YAML never needs aliases), and
        # only JSON types.
        items = [json.loads(json.dumps(o.obj)) for o in self.objects]
        return {"apiVersion": "v1", "kind": "List", "items": items}

    def stream_comments(self) -> list[list[str]]:
        """The comment lines above each item of a YAML stream."""
        return [[f"Source: {o.source}"] for o in self.objects]


@dataclass(frozen=True)
class ConvertedDocuments:
    """``convert -o json|yaml``: the file's documents after conversion. In JSON one document
    is itself and several are a v1 List (as kubectl prints several); in YAML a ``---`` stream."""

    documents: list[Any]

    def to_data(self) -> Any:
        if len(self.documents) == 1:
            return self.documents[0]
        return {"apiVersion": "v1", "kind": "List", "items": self.documents}

    def stream_items(self) -> list[tuple[list[str], Any]]:
        """The YAML stream's documents, each with no comment lines above it."""
        return [([], document) for document in self.documents]


@dataclass(frozen=True)
class ManifestStream:
    """Argo CD ``generate``: every object of the application, as one ``---`` YAML stream."""

    objects: list[dict[str, Any]]

    def to_data(self) -> dict[str, Any]:
        return {"apiVersion": "v1", "kind": "List", "items": self.objects}

    def stream_comments(self) -> list[list[str]]:
        return [[] for _ in self.objects]
