"""The ``Events:`` block of ``status --events``, laid out as ``kubectl describe`` does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.views import EventView

_COLUMNS = [Column("TYPE"), Column("REASON"), Column("AGE"), Column("MESSAGE", cut="below")]
# with Events about children: which object each is about (the graph's own: "-")
_WITH_OBJECT = [
    Column("TYPE"),
    Column("REASON"),
    Column("AGE"),
    Column("OBJECT"),
    Column("MESSAGE", cut="below"),
]


def _age(event: EventView) -> str:
    age = human_age(event.ageSeconds)
    return age + f" (x{event.count})" if event.count > 1 else age


def draw_events(events: list[EventView], width: int | None = None, headers: bool = True) -> str:
    """The block; ``width``: fit the table to it (the message is cut), none for -o wide."""
    if not events:
        return "Events:       <none>\n"
    objects = any(event.object for event in events)
    rows = [
        [
            str(event.type or ""),
            str(event.reason or ""),
            _age(event),
            *([event.object or "-"] if objects else []),
            str(event.message or "").replace("\n", " "),
        ]
        for event in events
    ]
    columns = _WITH_OBJECT if objects else _COLUMNS
    table = render_table(columns, rows, headers=headers, gap="  ", indent="  ", width=width)
    return "Events:\n" + table
