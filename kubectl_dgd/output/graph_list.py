"""The ``kubectl dgd list`` table (and ``-o wide``); ``-o name`` and ``-o json`` are generic."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

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


def draw_graph_list(listing: GraphList, options: Options, wide: bool) -> str:
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
    columns = [Column(h, drop=0 if wide else _DROP.get(h, 0)) for h in headers]
    return render_table(
        columns, rows, headers=options.headers, width=None if wide else options.width
    )


EVENT_WIDTH = len("MODIFIED")


def draw_watch_rows(
    reference: GraphList,
    count: int,
    options: Options,
    wide: bool,
    events: list[str] | None = None,
) -> str:
    """``list -w``: the last ``count`` rows of ``reference``'s table, drawn over the whole of it
    so they line up with the rows printed before (``reference``: the first listing and these
    rows), with the header when ``options.headers``; ``events`` adds kubectl's EVENT column
    (``--output-watch-events``), one value per row of ``reference``."""
    lines = draw_graph_list(reference, replace(options, headers=True), wide).splitlines()
    header, rows = lines[0], lines[1:]
    if events is not None:
        header = f"{'EVENT':<{EVENT_WIDTH}}   {header}"
        rows = [f"{e:<{EVENT_WIDTH}}   {r}" for e, r in zip(events, rows, strict=True)]
    shown = ([header] if options.headers else []) + rows[len(rows) - count :]
    return "".join(line.rstrip() + "\n" for line in shown)
