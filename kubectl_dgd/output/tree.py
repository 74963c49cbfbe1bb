"""The text of ``tree NAME``: one line per object, the hierarchy drawn with box characters.

Columns after the name: status (with a symbol), ready, restarts, age, node, GPUs. The name
column is shortened in the middle when the line would not fit the terminal's width; an
unhealthy pod's reason goes on the line below it, cut to the width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import Color

if TYPE_CHECKING:
    from kubectl_dgd.core.tree import TreeNode, TreeView

SYMBOLS = {
    "Healthy": "✔",
    "Running": "✔",
    "Succeeded": "✔",
    "Progressing": "◌",
    "Pending": "◌",
    "ScaledDown": "-",
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
    table = [HEADERS, *rows] if options.headers else rows
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADERS))]
    rest = sum(widths[1:]) + 2 * (len(HEADERS) - 1)
    name_width = max(view.width - rest, MIN_NAME)
    widths[0] = min(widths[0], name_width)
    lines = []
    for index, row in enumerate(table):
        entry = entries[index - 1] if options.headers and index else None
        if not options.headers:
            entry = entries[index]
        name = row[0]
        if len(name) > widths[0]:  # the whole name on its own line, the columns below it
            lines.append(_shorten(name, view.width))
            name = entry[2] if entry is not None else ""
        cells = [_shorten(name, widths[0]).ljust(widths[0])]
        for cell, width, value in zip(row[1:], widths[1:], range(1, len(row)), strict=True):
            text = cell.ljust(width)
            if value == 1 and entry is not None:
                text = style(cell, _color(entry[1].status)) + " " * (width - len(cell))
            cells.append(text)
        lines.append("  ".join(cells).rstrip())
        if entry is not None and entry[1].reason:
            lines.append(_shorten(f"{entry[2]}   {entry[1].reason}", view.width))
    lines += [f"warning: {warning}" for warning in view.warnings]
    return "\n".join(lines) + "\n"
