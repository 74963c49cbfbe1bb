"""``kubectl dgd status`` / ``list`` as options objects, in kubectl's Complete / Validate / Run
shape: the command (cli/status.py) completes one from its flags, validates it, and runs it.
Each holds the printer built from ``-o`` (with ``--sort-by`` wrapped around it) and the
values of its flags; nothing else is decided per call."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kubectl_dgd.cli.deps import Deps
from kubectl_dgd.cli.flags import label_keys
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import Printer, sorting

if TYPE_CHECKING:
    from kubectl_dgd.core.graph_events import EventFilter
    from kubectl_dgd.core.views import GraphList, LiveStatusView
    from kubectl_dgd.usecases.watching import Screen


@dataclass(frozen=True)
class ListOptions:
    """``list`` (and ``status`` without NAME): one LIST, or with ``watch`` the list and a row per
    change."""

    printer: Printer
    headers: bool = True
    selector: str | None = None
    fields: str | None = None
    all_namespaces: bool = False
    watch: bool = False
    watch_events: bool = False
    label_columns: tuple[str, ...] = ()
    show_labels: bool = False
    sort_by: str | None = None
    now: str | None = None

    @classmethod
    def complete(
        cls,
        printer: Printer,
        label_columns: tuple[str, ...] = (),
        sort_by: str | None = None,
        **flags: Any,
    ) -> ListOptions:
        """From the parsed flags: ``-L`` split at commas, the printer sorted by ``--sort-by``
        (its path checked now)."""
        return cls(
            sorting(printer, sort_by), label_columns=label_keys(label_columns), sort_by=sort_by,
            **flags,
        )  # fmt: skip

    def validate(self) -> ListOptions:
        if self.watch_events and not self.watch:
            raise UsageError("--output-watch-events needs -w/--watch")
        return self

    def run(self, deps: Deps) -> None:
        if self.watch:
            self._watch(deps)
        else:
            self._list(deps)

    def _display(self) -> dict[str, Any]:
        return {"label_columns": self.label_columns, "show_labels": self.show_labels}

    def _list(self, deps: Deps) -> None:
        from kubectl_dgd.usecases.live_list import list_graphs

        moment = deps.now(self.now)
        cluster = deps.cluster()
        namespace = None if self.all_namespaces else cluster.namespace
        listing = list_graphs(cluster, namespace, self.selector, moment, self.fields)
        if not listing.rows and self.printer.is_table:
            where = "" if self.all_namespaces else f" in {cluster.namespace} namespace"
            deps.stderr.write(f"No resources found{where}.\n")
            return
        deps.print(listing, self.printer, headers=self.headers, **self._display())

    def _watch(self, deps: Deps) -> None:
        """``list -w``: the list, then what every event of a watch of the namespace does to
        it, as ``kubectl get -w`` prints it (output/watch_list.py), each row with the local
        time it was seen. ``--sort-by`` sorts the first listing only, as kubectl (and says
        so)."""
        from kubectl_dgd.core.listing import graph_row
        from kubectl_dgd.core.views import GraphList
        from kubectl_dgd.output.watch_list import WatchPrinter
        from kubectl_dgd.usecases.watch_list import ListEvent, ListWatch

        cluster = deps.cluster()
        namespace = None if self.all_namespaces else cluster.namespace
        watch = ListWatch(cluster, namespace, self.selector, self.fields, deps.monotonic).list()

        def listing(objects: list[dict[str, Any]]) -> GraphList:
            moment = deps.now(self.now)
            rows = [graph_row(o, moment) for o in objects]
            return GraphList(rows, objects, all_namespaces=self.all_namespaces)

        if self.sort_by:
            deps.warn(
                "warning: --watch requested, --sort-by will be ignored for watch events received"
            )
            watch.initial = list(self.printer.order(listing(watch.initial)).objects)
        printer = WatchPrinter(self.printer, self.watch_events)

        def show(events: list[ListEvent]) -> None:
            observed = f"{deps.local_time(deps.now(self.now)):%H:%M:%S}"
            # the terminal's width now: a resize counts at the next header
            options = deps.options(self.headers, **self._display())
            deps.stdout.write(printer.draw(listing, events, observed, options))
            deps.stdout.flush()

        if watch.initial:
            show([ListEvent("ADDED", o) for o in watch.initial])
        for event in watch.events():
            show([event])


@dataclass(frozen=True)
class StatusOptions:
    """``status NAME`` (live: one GET, or a watch) and ``status -f FILE`` (a saved object)."""

    printer: Printer
    name: str | None = None
    filename: str | None = None
    headers: bool = True
    watch: bool = False
    events: bool = False
    now: str | None = None
    which: EventFilter | None = None  # --types / --for, each implying --events

    def validate(self) -> StatusOptions:
        if self.filename is None and self.printer.names_only and self.watch:
            raise UsageError("--watch cannot be used with -o name")
        return self

    def run(self, deps: Deps) -> None:
        if self.filename is not None:
            from kubectl_dgd.usecases.status import status_of_file

            view = status_of_file(self.filename, deps.now(self.now), name=self.name)
            deps.print(view, self.printer, self.headers)
            return
        assert self.name is not None
        self._live(deps, self.name)

    def _live(self, deps: Deps, name: str) -> None:
        """One GET and the offline view; with ``watch``, a new view per change of the graph
        (each drawn at the time it arrives, unless the clock is fixed with ``now``)."""
        from kubectl_dgd.usecases.live_status import graph_name, live_status, watch_status

        moment = deps.now(self.now)
        cluster = deps.cluster()
        namespace = cluster.namespace
        if self.printer.names_only:  # the name needs no view (and no Events)
            deps.print(graph_name(cluster, name, namespace), self.printer)
            return
        if not self.watch:
            view = live_status(cluster, name, namespace, moment, self.events, self.which)
            deps.print(view, self.printer, self.headers)
            for line in view.warnings:
                deps.warn(f"warning: {line}")
            return
        views = watch_status(
            cluster,
            name,
            namespace,
            deps.monotonic,
            lambda: deps.now(self.now),
            with_events=self.events,
            which=self.which,
        )
        deps.redraw(_noted(deps, views), self.printer, self.headers)


def _noted(deps: Deps, views: Iterator[Screen[LiveStatusView]]) -> Iterator[Screen[LiveStatusView]]:
    """The views, each note (Events not readable) said once on stderr as it first comes."""
    said: set[str] = set()
    for view in views:
        for line in view.view.warnings:
            if line not in said:
                said.add(line)
                deps.warn(f"warning: {line}")
        yield view
