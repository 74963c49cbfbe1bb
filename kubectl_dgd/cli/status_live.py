"""The live branches of ``kubectl dgd status`` / ``list`` (the command is in cli/status.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kubectl_dgd.cli.deps import Deps

if TYPE_CHECKING:
    from kubectl_dgd.core.graph_events import EventFilter
    from kubectl_dgd.core.views import LiveStatusView


def status_live(
    deps: Deps,
    name: str,
    output: str,
    now: str | None,
    watch: bool = False,
    events: bool = False,
    headers: bool = True,
    which: EventFilter | None = None,
) -> None:
    """One GET and the offline view; with ``watch``, a new view per change of the graph (each
    drawn at the time it arrives, unless the clock is fixed with ``now``); ``headers``: the
    tables' header rows (--no-headers)."""
    moment = deps.now(now)
    from kubectl_dgd.usecases.live_status import graph_name, live_status, watch_status

    cluster = deps.cluster()
    namespace = cluster.namespace
    if output == "name":  # the name needs no view (and no Events)
        deps.print(graph_name(cluster, name, namespace), output)
        return
    if not watch:
        view = live_status(cluster, name, namespace, moment, events, which)
        deps.print(view, output, headers)
        for line in view.warnings:
            deps.warn(f"warning: {line}")
        return
    views = watch_status(
        cluster,
        name,
        namespace,
        deps.monotonic,
        lambda: deps.now(now),
        with_events=events,
        which=which,
    )
    deps.redraw(_noted(deps, views), output, headers)


def _noted(deps: Deps, views: Iterator[LiveStatusView]) -> Iterator[LiveStatusView]:
    """The views, each note (Events not readable) said once on stderr as it first comes."""
    said: set[str] = set()
    for view in views:
        for line in view.warnings:
            if line not in said:
                said.add(line)
                deps.warn(f"warning: {line}")
        yield view


def list_live(
    deps: Deps,
    all_namespaces: bool,
    output: str,
    headers: bool,
    selector: str | None,
    now: str | None,
    sort_by: str | None = None,
    label_columns: tuple[str, ...] = (),
    show_labels: bool = False,
    fields: str | None = None,
) -> None:
    """One LIST: a row per graph (``-A``: of every namespace)."""
    from kubectl_dgd.output.printer import TABLE_FORMATS
    from kubectl_dgd.usecases.live_list import list_graphs

    moment = deps.now(now)
    cluster = deps.cluster()
    namespace = None if all_namespaces else cluster.namespace
    listing = list_graphs(cluster, namespace, selector, moment, fields)
    if sort_by:
        from kubectl_dgd.output.sort_by import sort_listing

        listing = sort_listing(listing, sort_by)
    if not listing.rows and output in TABLE_FORMATS:
        where = "" if all_namespaces else f" in {cluster.namespace} namespace"
        deps.stderr.write(f"No resources found{where}.\n")
        return
    deps.print(
        listing, output, headers=headers, label_columns=label_columns, show_labels=show_labels
    )


@dataclass(frozen=True)
class _Data:
    """One watched object (or kubectl's ``{"type", "object"}`` event) for -o json/yaml/jsonpath."""

    data: dict[str, Any]

    def to_data(self) -> dict[str, Any]:
        return self.data


def list_watch(
    deps: Deps,
    all_namespaces: bool,
    output: str,
    headers: bool,
    selector: str | None,
    fields: str | None,
    now: str | None,
    label_columns: tuple[str, ...] = (),
    show_labels: bool = False,
    watch_events: bool = False,
    sort_by: str | None = None,
) -> None:
    """``list -w``: the list, then what every event of a watch of the namespace does to it, as
    ``kubectl get -w`` prints it: a table row per event under one header (lined up with the
    first listing), or one object per event in the other formats. ``sort_by`` sorts the
    first listing only, as kubectl (and says so)."""
    from kubectl_dgd.core.listing import graph_row
    from kubectl_dgd.core.views import GraphList
    from kubectl_dgd.output.graph_list import draw_watch_rows
    from kubectl_dgd.output.printer import TABLE_FORMATS, format_view, split_format
    from kubectl_dgd.usecases.watch_list import ListEvent, ListWatch

    cluster = deps.cluster()
    namespace = None if all_namespaces else cluster.namespace
    watch = ListWatch(cluster, namespace, selector, fields, deps.monotonic).list()
    display: dict[str, Any] = {"label_columns": label_columns, "show_labels": show_labels}

    def listing(objects: list[dict[str, Any]]) -> GraphList:
        moment = deps.now(now)
        rows = [graph_row(o, moment) for o in objects]
        return GraphList(rows, objects, all_namespaces=all_namespaces)

    if sort_by:
        from kubectl_dgd.output.sort_by import sort_listing

        deps.warn("warning: --watch requested, --sort-by will be ignored for watch events received")
        watch.initial = list(sort_listing(listing(watch.initial), sort_by).objects)

    def show(events: list[ListEvent], first: bool, above: list[dict[str, Any]]) -> None:
        """``first``: nothing printed yet (the header goes first, YAML's ``---`` between);
        ``above``: the rows printed before, whose widths the new rows line up with."""
        header = headers and first
        if output in TABLE_FORMATS:
            types = ["ADDED"] * len(above) + [e.type for e in events]
            text = draw_watch_rows(
                listing(above + [e.obj for e in events]),
                len(events),
                deps.options(header, **display),
                output == "wide",
                types if watch_events else None,
            )
        elif output == "name" or split_format(output)[0].startswith("custom-columns"):
            text = "".join(
                format_view(listing([e.obj]), output, deps.options(header and not i, **display))
                for i, e in enumerate(events)
            )
        else:
            text = "".join(
                ("---\n" if output == "yaml" and not (first and i == 0) else "")
                + format_view(_Data(_event_data(e, watch_events)), output)
                for i, e in enumerate(events)
            )
        deps.stdout.write(text)
        deps.stdout.flush()

    first = True
    if watch.initial:
        show([ListEvent("ADDED", o) for o in watch.initial], first, [])
        first = False
    for event in watch.events():
        show([event], first, watch.initial)
        first = False


def _event_data(event: Any, with_type: bool) -> dict[str, Any]:
    obj: dict[str, Any] = event.obj
    return {"type": event.type, "object": obj} if with_type else obj
