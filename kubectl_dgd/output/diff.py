"""Text of ``kubectl dgd diff``: field changes, then the impact table."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from kubectl_dgd.output.fit import wrap
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.views import DiffList, FieldChange, GraphDiff

IMPACT_TEXT = {
    "rejected": "rejected by admission",
    "created": "created",
    "managed-rolling-update": "managed rolling update",
    "in-place-rolling-update": "in-place rolling update",
    "grove-native-update": "Grove native update",
    "lws-native-update": "LeaderWorkerSet native update",
    "scale": "scale only",
    "restart": "restart requested",
    "none": "nothing",
}


_IMPACT_COLUMNS = [
    Column("COMPONENT"),
    Column("TYPE"),
    Column("IMPACT"),
    Column("DETAIL", cut="below"),
]


def _show(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _change_line(change: FieldChange) -> str:
    if change.change == "+":
        return f"+ {change.path}: {_show(change.new)}"
    if change.change == "-":
        return f"- {change.path}: {_show(change.old)}"
    return f"~ {change.path}: {_show(change.old)} -> {_show(change.new)}"


def render_diff(result: GraphDiff, width: int | None = None) -> str:
    """The text of one graph's diff; ``width``: wrap the lines and fit the table to it (none
    for -o wide: one line per change, the table as wide as it is)."""

    def lines_of(text: str, first: str, rest: str) -> list[str]:
        return [first + text] if width is None else wrap(text, width, first, rest)

    head = f"dynamographdeployment {result.namespace}/{result.name}"
    if not result.exists:
        head += " (not in the cluster: would be created)"
    lines = [head]
    if not result.changes and result.exists:
        lines.append("no differences")
        return "\n".join(lines) + "\n"
    lines += ["", "Changes:"]
    for change in result.changes:
        lines += lines_of(_change_line(change), "  ", "      ")
    impact = result.impact
    if impact.rejected:
        lines += ["", "Rejected by admission (nothing would change):"]
        for f in impact.rejected:
            lines += lines_of(f"{f.layer}: {f.path}: {f.message}", "  ", "    ")
    rows = [[c.name, c.type, IMPACT_TEXT[c.impact], c.detail] for c in impact.components]
    lines += ["", "Impact:"]
    lines += render_table(_IMPACT_COLUMNS, rows, indent="  ", width=width).splitlines()
    for note in impact.notes:
        lines += lines_of(note, "note: ", "      ")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def draw_diffs(diffs: DiffList, options: Options, wide: bool) -> str:
    width = None if wide else options.width
    return "\n".join(render_diff(r, width) for r in diffs.results)
