"""The text of ``doctor``: one row per check, then the count of blockers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.doctor import DoctorReport

COLUMNS = [Column("CHECK"), Column("RESULT"), Column("DETAIL", cut="below")]
SHOWN = {"pass": "ok", "warn": "warning", "fail": "BLOCKER", "unknown": "could not check"}


def draw_doctor(view: DoctorReport, options: Options, wide: bool = False) -> str:
    del wide
    rows = [[c.name, SHOWN[c.result], c.detail] for c in view.checks]
    table = render_table(COLUMNS, rows, options.style, options.headers, width=options.width)
    blockers = len(view.blockers)
    unknown = sum(1 for c in view.checks if c.result == "unknown")
    tail = f"{blockers} blocker{'s' if blockers != 1 else ''}"
    if unknown:
        tail += f", {unknown} could not be checked"
    return table.rstrip("\n") + "\n\n" + tail + "\n"
