"""The text of ``gpus``: one row per GPU node, then the totals and the pods still waiting.

USED BY lists the scope's graphs with the GPUs they hold on the node (``-A``: namespace/name),
then ``other`` for the rest; in text it is cut to the terminal's width (``+N more``), ``-o wide``
prints it whole and adds the GPU pods bound to the node and whether it takes new pods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import GAP, Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.cluster_gpus import ClusterGpus, NodeRow
    from kubectl_dgd.core.node_gpus import GraphUse

HEADERS = ["NODE", "PRODUCT", "ALLOCATABLE", "REQUESTED", "FREE"]
WIDE_HEADERS = [*HEADERS, "PODS", "SCHEDULABLE"]
USED_BY = "USED BY"


def _graph(use: GraphUse, view: ClusterGpus) -> str:
    return use.name if view.namespace is not None else f"{use.namespace}/{use.name}"


def _uses(row: NodeRow, view: ClusterGpus) -> list[str]:
    shown = [f"{_graph(use, view)} ({use.gpus})" for use in row.used_by]
    if row.other_gpus:
        shown.append(f"other ({row.other_gpus})")
    return shown


def _fit(entries: list[str], width: int) -> str:
    """As many entries as fit in ``width``, then ``+N more`` (at least the first entry)."""
    whole = ", ".join(entries)
    if len(whole) <= width:
        return whole
    for keep in range(len(entries) - 1, 0, -1):
        text = ", ".join(entries[:keep]) + f", +{len(entries) - keep} more"
        if len(text) <= width:
            return text
    more = f" +{len(entries) - 1}" if len(entries) > 1 else ""
    first = entries[0]
    room = max(width - len(more), 2)
    return (first if len(first) <= room else first[: room - 1] + "…") + more


def _summary(view: ClusterGpus) -> list[str]:
    nodes = len(view.rows)
    lines = [
        f"{nodes} GPU node{'s' if nodes != 1 else ''}: {view.allocatable} allocatable, "
        f"{view.requested} requested, {view.free} free (most free on one node: {view.most_free})"
    ]
    for use in view.waiting:
        pods = f"{use.pods} pods" if use.pods != 1 else "1 pod"
        verb = "want" if use.pods != 1 else "wants"
        lines.append(
            f"waiting: {pods} of {_graph(use, view)} {verb} {use.gpus} GPUs and no node has them"
        )
    return lines


def draw_cluster_gpus(view: ClusterGpus, options: Options, wide: bool = False) -> str:
    headers = WIDE_HEADERS if wide else HEADERS
    rows = []
    for row in view.rows:
        node = row.node
        cells = [
            node.name,
            node.product or "-",
            str(node.allocatable),
            str(node.requested),
            str(node.free),
        ]
        if wide:
            cells += [str(node.pods), "yes" if node.schedulable else "no (cordoned)"]
        rows.append(cells)
    table = [headers, *rows] if options.headers else rows
    used = sum(max(len(r[i]) for r in table) for i in range(len(headers)))
    room = max(view.width - used - len(GAP) * len(headers), len(USED_BY))
    for cells, row in zip(rows, view.rows, strict=True):
        entries = _uses(row, view)
        cells.append(", ".join(entries) if wide else _fit(entries, room) if entries else "")
    columns = [Column(h) for h in headers] + [Column(USED_BY)]
    text = render_table(columns, rows, options.style, options.headers)
    if options.headers:
        text += "".join(line + "\n" for line in _summary(view))
    return text
