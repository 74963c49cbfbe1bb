"""Text of ``kubectl dgd diff``: field changes, then the impact table."""

from __future__ import annotations

import json
from typing import Any, Protocol

from kubectl_dgd.core.impact import Impact

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


class _Change(Protocol):
    change: str
    path: str
    old: Any
    new: Any


class _Diff(Protocol):
    name: str
    namespace: str
    exists: bool
    changes: list[Any]
    impact: Impact


def _show(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _change_line(change: _Change) -> str:
    if change.change == "+":
        return f"+ {change.path}: {_show(change.new)}"
    if change.change == "-":
        return f"- {change.path}: {_show(change.old)}"
    return f"~ {change.path}: {_show(change.old)} -> {_show(change.new)}"


def render_diff(result: _Diff) -> str:
    head = f"dynamographdeployment {result.namespace}/{result.name}"
    if not result.exists:
        head += " (not in the cluster: would be created)"
    lines = [head]
    if not result.changes and result.exists:
        lines.append("no differences")
        return "\n".join(lines) + "\n"
    lines += ["", "Changes:"] + [f"  {_change_line(c)}" for c in result.changes]
    impact = result.impact
    if impact.rejected:
        lines += ["", "Rejected by admission (nothing would change):"]
        lines += [f"  {f.layer}: {f.path}: {f.message}" for f in impact.rejected]
    rows = [["COMPONENT", "TYPE", "IMPACT", "DETAIL"]]
    rows += [[c.name, c.type, IMPACT_TEXT[c.impact], c.detail] for c in impact.components]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines += ["", "Impact:"]
    lines += [
        "  " + "   ".join(r[i].ljust(widths[i]) for i in range(3)) + "   " + r[3] for r in rows
    ]
    lines += [f"note: {n}" for n in impact.notes]
    return "\n".join(line.rstrip() for line in lines) + "\n"
