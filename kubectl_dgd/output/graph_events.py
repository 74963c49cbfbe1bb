"""The text of ``events NAME``: kubectl get events' columns, newest last."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.graph_events import GraphEvents

_COLUMNS = [
    Column("LAST SEEN"),
    Column("TYPE"),
    Column("REASON"),
    Column("OBJECT", cut="middle"),
    Column("MESSAGE", cut="below"),
]


def draw_graph_events(view: GraphEvents, options: Options, wide: bool = False) -> str:
    warnings = "".join(f"warning: {w}\n" for w in view.warnings)
    if not view.events:
        return f"No events found for {view.name} in namespace {view.namespace}.\n" + warnings
    rows = [
        [
            human_age(e.ageSeconds) + (f" (x{e.count})" if e.count > 1 else ""),
            e.type,
            e.reason,
            e.object,
            e.message,
        ]
        for e in view.events
    ]
    # -o wide: the whole table, whatever the terminal.
    table = render_table(
        _COLUMNS, rows, headers=options.headers, width=None if wide else options.width
    )
    return table + warnings
