"""The one table renderer: kubectl-style tables, upper-case headers, columns padded and
separated by three spaces (two, indented, for the Events block as ``kubectl describe``).

Given a ``width`` (the terminal's; none for ``-o wide``), a table that would not fit is
narrowed: a message column (``cut="below"``) leaves the row for lines of its own under it,
wrapped between words; the free-text columns (``cut="end"``, ``"middle"``) lose part of their
text to an ellipsis down to a floor; and if that is not enough the optional columns (``drop``)
are left out, highest first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from kubectl_dgd.output.fit import cut, cut_middle, wrap
from kubectl_dgd.output.style import PLAIN, Style
from kubectl_dgd.output.terminal import escape_cell

GAP = "   "
# A cut column keeps at least this much (or its header): a few words still say something.
CUT_FLOOR = 16


@dataclass(frozen=True)
class Column:
    """One column of a text table."""

    header: str
    align: str = "left"  # "left" or "right"
    # How it gives way to fit the width: "end" (free text, cut with an ellipsis), "middle" (a
    # name whose end tells it from its neighbours, a pod's suffix), "below" (a message: on its
    # own wrapped lines under the row, nothing lost; the last column only).
    cut: str = ""
    drop: int = 0  # > 0: may be left out to fit the width, the highest first


@dataclass(frozen=True)
class TableLayout:
    """How a table is laid out: each column's width (the left-out ones too), the columns kept,
    and the message column moved under its rows (None: none)."""

    widths: tuple[int, ...]
    kept: tuple[int, ...]
    below: int | None = None
    spans: frozenset[tuple[int, int]] = frozenset()  # (table row, column) cells run on


def table_layout(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    headers: bool = True,
    *,
    gap: str = GAP,
    indent: str = "",
    min_width: int = 0,
    width: int | None = None,
    floors: Sequence[int] = (),
    run_on: Collection[tuple[int, int]] = (),
) -> TableLayout:
    """How ``render_table`` lays these rows out; ``floors``: the least width of each column
    (``list -w`` keeps the widths of its first rows so); ``run_on``: see ``render_table``."""
    return _layout(
        columns, _table(columns, rows, headers), gap=gap, indent=indent, min_width=min_width,
        width=width, floors=floors, run_on=run_on, first=1 if headers else 0,
    )  # fmt: skip


def _table(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], headers: bool
) -> list[list[str]]:
    return ([[c.header for c in columns]] if headers else []) + [
        [escape_cell(cell) for cell in row] for row in rows
    ]


def _layout(
    columns: Sequence[Column],
    table: Sequence[Sequence[str]],
    *,
    gap: str,
    indent: str,
    min_width: int,
    width: int | None,
    floors: Sequence[int],
    run_on: Collection[tuple[int, int]] = (),
    first: int = 0,
) -> TableLayout:
    # min_width counts the gap, as kubectl's tab writer counts its padding (custom-columns: 6).
    floor = max(min_width - len(gap), 0)
    # rows[r] of run_on is table[r + first] (after the header row, when there is one)
    spans = {
        (r + first, i)
        for r, i in run_on
        if i + 1 < len(columns) and r + first < len(table) and not table[r + first][i + 1]
    }
    widths = [
        max((len(row[i]) for n, row in enumerate(table) if (n, i) not in spans), default=floor)
        for i in range(len(columns))
    ]
    widths = [max(w, floor, *floors[i : i + 1]) for i, w in enumerate(widths)]
    for n, i in sorted(spans):
        if len(table[n][i]) > widths[i] + len(gap) + widths[i + 1]:
            spans.discard((n, i))  # too long to run on: it widens its column after all
            widths[i] = max(widths[i], len(table[n][i]))
    kept = list(range(len(columns)))
    below: int | None = None  # the column moved under its rows
    if width is not None:
        # Decided on the headers too, so that --no-headers leaves out the same columns.
        headed = [max(w, len(c.header)) for w, c in zip(widths, columns, strict=True)]
        room = width - len(indent)
        last = len(columns) - 1
        if columns and columns[last].cut == "below" and _total(headed, kept, len(gap)) > room:
            below = last
            kept = kept[:last]
        kept, fitted = _fit(columns, headed, room, len(gap), kept)
        widths = [min(w, f) for w, f in zip(widths, fitted, strict=True)]
    return TableLayout(tuple(widths), tuple(kept), below, frozenset(spans))


def render_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    style: Style = PLAIN,
    headers: bool = True,
    *,
    gap: str = GAP,
    indent: str = "",
    min_width: int = 0,
    width: int | None = None,
    floors: Sequence[int] = (),
    run_on: Collection[tuple[int, int]] = (),
) -> str:
    """The table as text, one line per row, trailing spaces stripped; a cell's control characters
    and line breaks are escaped (output/terminal.py), its text otherwise printed as given.

    ``style`` makes the header bold on a terminal; ``indent`` starts every line; ``width``
    narrows the table to fit (see the module's docstring); ``floors``: see ``table_layout``.
    ``run_on``: the cells, as (row, column) of ``rows``, that may run on into the next column
    where that cell is empty, rather than widen their column (tree's "2/3 components" over its
    replica counts).
    """
    table = _table(columns, rows, headers)
    layout = _layout(
        columns, table, gap=gap, indent=indent, min_width=min_width, width=width,
        floors=floors, run_on=run_on, first=1 if headers else 0,
    )  # fmt: skip
    widths, kept, below, spans = layout.widths, layout.kept, layout.below, layout.spans
    lines = []
    for number, row in enumerate(table):
        padded = []
        skip = None
        for i in kept:
            if i == skip:
                continue
            if (number, i) in spans and i + 1 in kept:
                padded.append(row[i].ljust(widths[i] + len(gap) + widths[i + 1]))
                skip = i + 1
                continue
            cell = _cut(row[i], widths[i], columns[i].cut)
            padded.append(
                cell.rjust(widths[i]) if columns[i].align == "right" else cell.ljust(widths[i])
            )
        header_row = headers and number == 0
        line = (indent + gap.join(padded)).rstrip()
        if header_row and below is not None and width is not None:
            # Still named in the header, where it fits: what the lines under the rows are.
            named = line + gap + row[below]
            line = named if len(named) <= width else line
        lines.append(style(line, "bold") if header_row else line)
        if below is not None and width is not None and row[below] and not header_row:
            # Under the second column, so that the first still leads every row.
            under = indent + " " * (widths[kept[0]] + len(gap) if len(kept) > 1 else 2)
            lines += wrap(row[below], width, under)
    return "".join(line + "\n" for line in lines)


def _total(widths: Sequence[int], kept: Sequence[int], gap: int) -> int:
    return sum(widths[i] for i in kept) + gap * (len(kept) - 1)


def _cut(text: str, width: int, how: str) -> str:
    if how == "middle":
        return cut_middle(text, width)
    return cut(text, width) if how else text


def _fit(
    columns: Sequence[Column], widths: list[int], room: int, gap: int, kept: list[int]
) -> tuple[list[int], list[int]]:
    """Which of the ``kept`` columns to keep and how wide, for at most ``room`` columns."""
    widths = list(widths)
    kept = list(kept)
    floors = {
        i: min(widths[i], max(CUT_FLOOR, len(columns[i].header)))
        for i in kept
        if columns[i].cut in ("end", "middle")
    }

    def total(cuts_at_floor: bool) -> int:
        cells = sum(floors[i] if cuts_at_floor and i in floors else widths[i] for i in kept)
        return cells + gap * (len(kept) - 1)

    droppable = sorted((i for i in kept if columns[i].drop), key=lambda i: (-columns[i].drop, -i))
    for i in droppable:
        if total(cuts_at_floor=True) <= room:
            break
        kept.remove(i)
    # The room left goes to the cut columns; the widest gives first, down to the floor, then
    # (the table still too wide) down to its header.
    over = total(cuts_at_floor=False) - room
    while over > 0:
        shrinkable = [i for i in kept if i in floors and widths[i] > floors[i]]
        if not shrinkable:
            hard = {i: len(columns[i].header) for i in floors}
            if floors == hard or not any(i in kept for i in floors):
                break
            floors = hard
            continue
        widest = max(shrinkable, key=lambda i: widths[i])
        others = [widths[i] for i in shrinkable if i != widest]
        target = max(floors[widest], widths[widest] - over, max(others, default=0))
        if target == widths[widest]:
            target -= 1
        over -= widths[widest] - target
        widths[widest] = target
    return kept, widths
