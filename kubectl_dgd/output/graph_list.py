"""The ``kubectl dgd list`` table (and ``-o wide``); ``-o name`` and ``-o json`` are generic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.listing import GraphRow
    from kubectl_dgd.core.views import GraphList

_HEADERS = ["NAME", "STATE", "READY", "REPLICAS", "GPUS", "RESTART", "ROLLOUT", "AGE"]
_WIDE_HEADERS = ["PROVIDER", "BACKEND", "REASON"]


def _cells(row: GraphRow, all_namespaces: bool, wide: bool) -> list[str]:
    cells = [row.namespace] if all_namespaces else []
    cells += [
        row.name,
        row.state,
        f"{row.ready_components}/{row.components}",
        f"{row.ready_replicas}/{row.desired_replicas}",
        "?" if row.gpus is None else str(row.gpus),
        row.restart,
        row.rollout,
        human_age(row.age_seconds),
    ]
    if wide:
        cells += [row.provider, row.backend, row.ready_reason]
    return cells


def draw_graph_list(listing: GraphList, options: Options, wide: bool) -> str:
    headers = (["NAMESPACE"] if listing.all_namespaces else []) + _HEADERS
    headers += _WIDE_HEADERS if wide else []
    rows = [_cells(r, listing.all_namespaces, wide) for r in listing.rows]
    # As kubectl get: the header row is plain even on a terminal.
    return render_table([Column(h) for h in headers], rows, headers=options.headers)
