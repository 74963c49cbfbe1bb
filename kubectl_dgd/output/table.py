"""The one table renderer: kubectl-style tables, upper-case headers, columns padded and
separated by three spaces (two, indented, for the Events block as ``kubectl describe``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kubectl_dgd.output.style import PLAIN, Style
from kubectl_dgd.output.terminal import escape_cell

GAP = "   "


@dataclass(frozen=True)
class Column:
    header: str
    align: str = "left"  # "left" or "right"


def render_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    style: Style = PLAIN,
    headers: bool = True,
    *,
    gap: str = GAP,
    indent: str = "",
    min_width: int = 0,
) -> str:
    """The table as text, one line per row, trailing spaces stripped; a cell's control characters
    and line breaks are escaped (output/terminal.py), its text otherwise printed as given.

    ``style`` makes the header bold on a terminal; ``indent`` starts every line.
    """
    table = ([[c.header for c in columns]] if headers else []) + [
        [escape_cell(cell) for cell in row] for row in rows
    ]
    # min_width counts the gap, as kubectl's tab writer counts its padding (custom-columns: 6).
    floor = max(min_width - len(gap), 0)
    widths = [max((len(row[i]) for row in table), default=floor) for i in range(len(columns))]
    widths = [max(w, floor) for w in widths]
    lines = []
    for number, row in enumerate(table):
        padded = [
            cell.rjust(width) if column.align == "right" else cell.ljust(width)
            for cell, width, column in zip(row, widths, columns, strict=True)
        ]
        line = (indent + gap.join(padded)).rstrip()
        lines.append(style(line, "bold") if headers and number == 0 else line)
    return "".join(line + "\n" for line in lines)
