"""``list -w``'s output, as ``kubectl get -w`` prints it: in a table format a row per event under
the header, in columns that keep their widths, with the time each change was seen; ``-o name``
and ``custom-columns`` a listing of one per event; the other formats (json, yaml, jsonpath) each event's object, or
kubectl's ``{"type", "object"}`` with ``--output-watch-events``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from kubectl_dgd.core.views import GraphList
from kubectl_dgd.output.graph_list import WatchRows
from kubectl_dgd.output.printer import Options, Printer


@dataclass(frozen=True)
class _Data:
    """One watched object (or kubectl's ``{"type", "object"}`` event) as a view."""

    data: dict[str, Any]

    def to_data(self) -> dict[str, Any]:
        return self.data


class WatchEvent(Protocol):
    """One change of the watched list (usecases/watch_list.ListEvent)."""

    @property
    def type(self) -> str: ...  # ADDED, MODIFIED, DELETED

    @property
    def obj(self) -> dict[str, Any]: ...


@dataclass
class WatchPrinter:
    """Draws each batch of ``list -w`` events by the command's printer, remembering what it
    printed before: the table's layout (output/graph_list.WatchRows) and whether anything was
    printed yet (the header then, and no ``---`` before the first YAML document)."""

    printer: Printer
    with_types: bool = False  # --output-watch-events
    first: bool = True
    rows: WatchRows | None = None

    def __post_init__(self) -> None:
        if self.printer.is_table:
            self.rows = WatchRows(self.printer.format == "wide", self.with_types)

    def draw(
        self,
        listing: Callable[[list[dict[str, Any]]], GraphList],
        events: Sequence[WatchEvent],
        observed: str,
        options: Options,
    ) -> str:
        """The text of ``events``. ``listing`` makes the rows of objects (at the time they are
        drawn); ``observed``: when they were seen, the table's last column;
        ``options.headers``: header rows wanted at all (--no-headers)."""
        first, self.first = self.first, False
        header = options.headers and first
        if self.rows is not None:
            view = listing([e.obj for e in events])
            return self.rows.draw(view, [e.type for e in events], observed, options)
        if self.printer.per_object:
            return "".join(
                self.printer.render(listing([e.obj]), replace(options, headers=header and not i))
                for i, e in enumerate(events)
            )
        printer = self.printer
        separator = printer.separator if printer.documents else ""
        return "".join(
            ("" if first and i == 0 else separator)
            + printer.render(_Data({"type": e.type, "object": e.obj} if self.with_types else e.obj))
            for i, e in enumerate(events)
        )
