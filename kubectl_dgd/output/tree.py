"""The text of ``tree NAME``: one line per object, the hierarchy drawn with box characters.

Columns after the name: status (with a symbol), ready (the graph's row: its components, the
others: replicas, a pod: its containers), restarts, age, node, GPUs. The name
column is shortened in the middle when the line would not fit the terminal's width; an
unhealthy pod's reason goes on the line below it, cut to the width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import Color
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.tree import TreeNode, TreeView

SYMBOLS = {
    "Healthy": "✔",
    "Running": "✔",
    "Succeeded": "✔",
    "Progressing": "◌",
    "Pending": "◌",
    "ScaledDown": "-",
    "Unknown": "?",  # not readable by this account
}
SHORT_KINDS = {
    "DynamoGraphDeployment": "dgd",
    "DynamoComponentDeployment": "dcd",
    "Deployment": "deploy",
    "ReplicaSet": "rs",
    "Pod": "pod",
    "LeaderWorkerSet": "lws",
    "PodCliqueSet": "pcs",
    "PodCliqueScalingGroup": "pcsg",
    "PodClique": "pclq",
    "Component": "component",
}
HEADERS = ["NAME", "STATUS", "READY", "RESTARTS", "AGE", "NODE", "GPUS"]
COLUMNS = [Column(header) for header in HEADERS]
MIN_NAME = 24


def _lines(
    node: TreeNode, prefix: str, last: bool, top: bool, out: list[tuple[str, TreeNode, str]]
) -> None:
    branch = "" if top else prefix + ("└─ " if last else "├─ ")
    label = f"{SHORT_KINDS.get(node.kind, node.kind)}/{node.name}"
    below = "" if top else prefix + ("   " if last else "│  ")
    out.append((branch + label, node, below))
    for index, child in enumerate(node.children):
        _lines(child, below, index == len(node.children) - 1, False, out)


def _shorten(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    keep = width - 1
    return text[: keep - keep // 2] + "…" + text[len(text) - keep // 2 :]


def _counted(node: TreeNode) -> str:
    """The graph's READY says what it counts, its components (as `list`'s READY), unlike every
    other row's: replicas, a pod's containers (as kubectl get)."""
    return f"{node.ready} components" if node.ready else ""


def _color(status: str) -> Color:
    symbol = SYMBOLS.get(status)
    return "green" if symbol == "✔" else "red" if symbol is None else "yellow"


def draw_tree(view: TreeView, options: Options, wide: bool = False) -> str:
    del wide
    style = options.style
    entries: list[tuple[str, TreeNode, str]] = []
    _lines(view.root, "", True, True, entries)
    rows = []
    for name, node, _ in entries:
        symbol = SYMBOLS.get(node.status, "✖")
        rows.append(
            [
                name,
                f"{symbol} {node.status}",
                node.ready,
                "" if node.restarts is None else str(node.restarts),
                "" if node.ageSeconds is None else human_age(node.ageSeconds),
                node.node or "",
                "" if not node.gpus else str(node.gpus),
            ]
        )
    # The graph's "N/M components" runs on into its RESTARTS cell, always empty, where it fits
    # there: the column stays as narrow as the replica counts below it (output/table.py).
    rows[0][2] = _counted(view.root)
    table = [HEADERS, *rows] if options.headers else rows
    others = [row for row in table if row is not rows[0]]
    widths = [max((len(row[i]) for row in others), default=0) for i in range(len(HEADERS))]
    for i, cell in enumerate(rows[0]):
        if i != 2 or rows[0][3] or len(cell) > widths[2] + 2 + widths[3]:
            widths[i] = max(widths[i], len(cell))
    rest = sum(widths[1:])
    name_width = max(view.width - rest - 2 * (len(HEADERS) - 1), MIN_NAME)
    before: list[str] = []  # per row: the whole name on a line of its own, when too long
    for row, (_, _, below) in zip(rows, entries, strict=True):
        long = len(row[0]) > name_width
        before.append(_shorten(row[0], view.width) if long else "")
        if long:
            row[0] = below
    drawn = render_table(
        COLUMNS, rows, headers=options.headers, gap="  ", run_on={(0, 2)}
    ).splitlines()
    lines = [drawn.pop(0)] if options.headers else []
    for plain, name, (_, node, below) in zip(drawn, before, entries, strict=True):
        if name:
            lines.append(name)
        shown = f"{SYMBOLS.get(node.status, '✖')} {node.status}"
        start = plain.find(shown, len(below))
        coloured = style(shown, _color(node.status))
        lines.append(plain if start < 0 else plain[:start] + coloured + plain[start + len(shown) :])
        if node.reason:
            lines.append(_shorten(f"{below}   {node.reason}", view.width))
    lines += [f"warning: {warning}" for warning in view.warnings]
    return "\n".join(lines) + "\n"
