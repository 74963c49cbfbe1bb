"""``status NAME`` against a cluster: one GET, then exactly the view of ``status -f``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from kubectl_dgd.core.timefmt import human_age, parse_time, seconds_between
from kubectl_dgd.output.serialize import to_json, to_yaml
from kubectl_dgd.output.style import PLAIN, Style
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.status import render_status, status_view
from kubectl_dgd.usecases.watching import follow


def render_live(
    graph: dict[str, Any],
    now: datetime,
    output: str,
    style: Style = PLAIN,
    events: list[dict[str, Any]] | None = None,
) -> str:
    if events is not None and output in ("json", "yaml"):
        data = status_view(graph, now).to_data()
        data["events"] = [event_data(event) for event in events]
        return to_json(data) if output == "json" else to_yaml(data)
    text = render_status(graph, now, output, style)
    if events is not None and output in ("text", "wide"):
        text += "\n" + render_events(events, now)
    return text


def event_data(event: dict[str, Any]) -> dict[str, Any]:
    """The fields of an Event a reader of ``status --events -o json`` needs."""
    return {
        "type": event.get("type"),
        "reason": event.get("reason"),
        "message": event.get("message"),
        "count": event.get("count") or 1,
        "firstTimestamp": event.get("firstTimestamp") or event.get("eventTime"),
        "lastTimestamp": event.get("lastTimestamp")
        or event.get("eventTime")
        or (event.get("metadata") or {}).get("creationTimestamp"),
    }


def render_events(events: list[dict[str, Any]], now: datetime) -> str:
    if not events:
        return "Events:       <none>\n"
    rows = [["TYPE", "REASON", "AGE", "MESSAGE"]]
    for event in events:
        when = (
            event.get("lastTimestamp")
            or event.get("eventTime")
            or (event.get("metadata") or {}).get("creationTimestamp")
        )
        age = human_age(seconds_between(parse_time(when), now))
        count = event.get("count") or 1
        if count > 1:
            age += f" (x{count})"
        rows.append(
            [
                str(event.get("type") or ""),
                str(event.get("reason") or ""),
                age,
                str(event.get("message") or "").replace("\n", " "),
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = ["  " + "  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3] for r in rows]
    return "Events:\n" + "\n".join(line.rstrip() for line in lines) + "\n"


def watch_graph(
    cluster: GraphCluster, name: str, namespace: str, clock: Clock
) -> Iterator[dict[str, Any]]:
    """The graph now, then each new version from a watch stream, until interrupted."""
    graph = cluster.get_graph(name, namespace)
    yield graph
    yield from follow(cluster, graph, clock)
