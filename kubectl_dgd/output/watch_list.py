"""``list -w``'s output, as ``kubectl get -w`` prints it: in a table format a row per event under
the one header, lined up with the rows printed before; ``-o name`` and ``custom-columns`` a
listing of one per event; the other formats (json, yaml, jsonpath) each event's object, or
kubectl's ``{"type", "object"}`` with ``--output-watch-events``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from kubectl_dgd.core.views import GraphList
from kubectl_dgd.output.graph_list import draw_watch_rows
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


def draw_events(
    printer: Printer,
    listing: Callable[[list[dict[str, Any]]], GraphList],
    events: Sequence[WatchEvent],
    above: list[dict[str, Any]],
    options: Options,
    first: bool,
    with_types: bool,
) -> str:
    """The text of ``events``. ``listing`` makes the rows of objects (at the time they are
    drawn); ``above``: the objects of the rows printed before, which the new rows line up with;
    ``first``: nothing printed yet (the header then, and no ``---`` before the first YAML
    document); ``options.headers``: header rows wanted at all (--no-headers)."""
    header = options.headers and first
    if printer.is_table:
        types = ["ADDED"] * len(above) + [e.type for e in events]
        return draw_watch_rows(
            listing(above + [e.obj for e in events]),
            len(events),
            replace(options, headers=header),
            printer.format == "wide",
            types if with_types else None,
        )
    if printer.per_object:
        return "".join(
            printer.render(listing([e.obj]), replace(options, headers=header and not i))
            for i, e in enumerate(events)
        )
    separator = printer.separator if printer.documents else ""
    return "".join(
        ("" if first and i == 0 else separator)
        + printer.render(_Data({"type": e.type, "object": e.obj} if with_types else e.obj))
        for i, e in enumerate(events)
    )
