"""The text of ``gpus``: one row per GPU node, then the totals and the pods still waiting.

A node partitioned into MIG slices has a row per profile (PRODUCT ``MIG 1g.10gb``, its figures
in slices). MEMORY (per GPU or slice, from GPU feature discovery's labels) is shown when a node
has it. USED BY lists the scope's graphs with the GPUs they hold on the node (``-A``:
namespace/name), then ``other`` for the rest; in text it is the last column to give way to the
terminal's width: MEMORY goes first, then PRODUCT, and only then is USED BY cut (``+N more``).
``-o wide`` prints it whole and adds the GPU pods bound to the node and whether it takes new pods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import GAP, Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.cluster_gpus import ClusterGpus, NodeRow
    from kubectl_dgd.core.node_gpus import GraphUse, NodeGpus

MIG_PREFIX = "nvidia.com/mig-"

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
    lines = []
    total = view.totals()
    if view.whole_gpu_rows or not view.mig_resources:
        nodes = total.nodes
        lines.append(
            f"{nodes} GPU node{'s' if nodes != 1 else ''}: {total.allocatable} allocatable, "
            f"{total.requested} requested, {total.free} free (most free on one node: "
            f"{total.most_free})"
        )
    for resource in view.mig_resources:
        mig = view.totals(resource)
        lines.append(
            f"MIG {resource.removeprefix(MIG_PREFIX)}: {mig.allocatable} allocatable, "
            f"{mig.requested} requested, {mig.free} free (most free on one node: {mig.most_free})"
        )
    for use in view.waiting:
        pods = f"{use.pods} pods" if use.pods != 1 else "1 pod"
        verb = "want" if use.pods != 1 else "wants"
        sliced = use.resource.startswith(MIG_PREFIX)
        what = f"MIG {use.resource.removeprefix(MIG_PREFIX)} slice" if sliced else "GPU"
        lines.append(
            f"waiting: {pods} of {_graph(use, view)} {verb} {use.gpus} "
            f"{what}{'s' if use.gpus != 1 else ''} and no node has them"
        )
    return lines


def _product(node: NodeGpus) -> str:
    if node.mig:
        return f"MIG {node.mig}"
    return node.product or "-"


def _memory(node: NodeGpus) -> str:
    return f"{node.memory_mib} MiB" if node.memory_mib is not None else "-"


# The columns that give way, in this order, before USED BY is cut (text only).
_YIELDING = ("MEMORY", "PRODUCT")


def draw_cluster_gpus(view: ClusterGpus, options: Options, wide: bool = False) -> str:
    with_memory = any(row.node.memory_mib is not None for row in view.rows)
    headers = ["NODE", "PRODUCT", *(["MEMORY"] if with_memory else []), *HEADERS[2:]]
    if wide:
        headers += WIDE_HEADERS[len(HEADERS) :]
    rows = []
    for row in view.rows:
        node = row.node
        cells = {
            "NODE": node.name,
            "PRODUCT": _product(node),
            "MEMORY": _memory(node),
            "ALLOCATABLE": str(node.allocatable),
            "REQUESTED": str(node.requested),
            "FREE": str(node.free),
            "PODS": str(node.pods),
            "SCHEDULABLE": "yes" if node.schedulable else "no (cordoned)",
        }
        rows.append(cells)
    uses = [_uses(row, view) for row in view.rows]

    def room(shown: list[str]) -> int:
        table = [dict(zip(shown, shown, strict=True)), *rows] if options.headers else rows
        used = sum(max(len(r[h]) for r in table) for h in shown) if table else 0
        return view.width - used - len(GAP) * len(shown)

    if not wide:
        longest = max((len(", ".join(u)) for u in uses), default=0)
        for column in _YIELDING:
            if room(headers) >= max(longest, len(USED_BY)) or column not in headers:
                continue
            headers = [h for h in headers if h != column]
    space = max(room(headers), len(USED_BY))
    table_rows = []
    for cells, entries in zip(rows, uses, strict=True):
        used_by = ", ".join(entries) if wide else _fit(entries, space) if entries else ""
        table_rows.append([cells[h] for h in headers] + [used_by])
    columns = [Column(h) for h in headers] + [Column(USED_BY)]
    text = render_table(columns, table_rows, options.style, options.headers)
    if options.headers:
        text += "".join(line + "\n" for line in _summary(view))
    return text
