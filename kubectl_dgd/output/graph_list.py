"""The ``kubectl dgd list`` table (and ``-o wide``); ``-o name`` and ``-o json`` are generic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, TableLayout, render_table, table_layout

if TYPE_CHECKING:
    from kubectl_dgd.core.listing import GraphRow
    from kubectl_dgd.core.views import GraphList

_HEADERS = ["NAME", "STATE", "READY", "REPLICAS", "GPUS", "RESTART", "ROLLOUT", "AGE"]
# A terminal too narrow for the whole row loses RESTART, then GPUS, then REPLICAS (the
# READY column still says how many components are up); -o wide keeps every column.
_DROP = {"RESTART": 3, "GPUS": 2, "REPLICAS": 1}
_WIDE_HEADERS = ["PROVIDER", "BACKEND", "REASON"]


def _cells(row: GraphRow, all_namespaces: bool, wide: bool) -> list[str]:
    cells = [row.namespace] if all_namespaces else []
    cells += [
        row.name,
        row.state,
        f"{row.ready_components}/{row.components}",
        f"{row.ready_replicas}/{row.desired_replicas}",
        "unknown" if row.gpus is None else str(row.gpus),
        row.restart,
        row.rollout,
        human_age(row.age_seconds),
    ]
    if wide:
        cells += [row.provider, row.backend, row.ready_reason]
    return cells


def _labels(obj: dict[str, Any]) -> dict[str, str]:
    labels = (obj.get("metadata") or {}).get("labels") or {}
    return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}


def label_header(key: str) -> str:
    """kubectl's header for ``-L key``: the key's last path segment, upper-cased."""
    return key.rsplit("/", 1)[-1].upper()


def _table(
    listing: GraphList, options: Options, wide: bool
) -> tuple[list[Column], list[list[str]]]:
    headers = (["NAMESPACE"] if listing.all_namespaces else []) + _HEADERS
    headers += _WIDE_HEADERS if wide else []
    headers += [label_header(key) for key in options.label_columns]
    headers += ["LABELS"] if options.show_labels else []
    rows = [_cells(r, listing.all_namespaces, wide) for r in listing.rows]
    for cells, obj in zip(rows, listing.objects, strict=True):
        labels = _labels(obj)
        cells += [labels.get(key, "") for key in options.label_columns]
        if options.show_labels:
            cells.append(",".join(f"{k}={v}" for k, v in sorted(labels.items())) or "<none>")
    # As kubectl get: the header row is plain even on a terminal.
    return [Column(h, drop=0 if wide else _DROP.get(h, 0)) for h in headers], rows


def draw_graph_list(listing: GraphList, options: Options, wide: bool) -> str:
    columns, rows = _table(listing, options, wide)
    return render_table(
        columns, rows, headers=options.headers, width=None if wide else options.width
    )


# list -w: the columns whose values are a few known words (or a short age) are as wide as the
# widest of them from the first row on, so that a graph starting to restart or roll does not
# widen its column.
_KNOWN_WIDTHS = {
    "EVENT": len("MODIFIED"),
    "STATE": len("initializing"),
    "RESTART": len("Restarting"),
    "ROLLOUT": len("InProgress"),
    "AGE": len("7h59m"),  # every age under two years (core/timefmt.human_age)
    "OBSERVED": len("00:00:00"),
}


@dataclass
class WatchRows:
    """``list -w``'s rows as ``kubectl get -w`` appends them, under one header, in columns that
    keep their widths: set by the first rows (and ``_KNOWN_WIDTHS``), they only grow, when a
    later value is wider than its column (a longer name), and then the header is printed again
    above that row at the new widths, so that every row lines up with the header over it and no
    value is cut. A terminal resized so that a column gives way or comes back brings the header
    too, above the next row. The last column, OBSERVED, is when the change was seen (the
    caller's clock); ``events`` adds kubectl's EVENT column first (``--output-watch-events``)."""

    wide: bool
    events: bool = False
    layout: TableLayout | None = None

    def draw(
        self, listing: GraphList, types: Sequence[str], observed: str, options: Options
    ) -> str:
        """The rows of ``listing`` (``types``: each one's event), with the header first when
        ``options.headers`` and it is the first draw or the layout had to change."""
        columns, rows = _table(listing, options, self.wide)
        if self.events:
            columns.insert(0, Column("EVENT"))
            rows = [[kind, *cells] for kind, cells in zip(types, rows, strict=True)]
        columns.append(Column("OBSERVED"))
        rows = [[*cells, observed] for cells in rows]
        floors = (
            self.layout.widths
            if self.layout is not None
            else tuple(_KNOWN_WIDTHS.get(c.header, 0) for c in columns)
        )
        width = None if self.wide else options.width
        layout = table_layout(columns, rows, width=width, floors=floors)
        header = options.headers and layout != self.layout
        self.layout = layout
        lines = render_table(columns, rows, width=width, floors=floors).splitlines()
        return "".join(line + "\n" for line in lines[0 if header else 1 :])
