"""The text of ``upgrade-check``: a row per graph, then each graph's findings under the target."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.upgrade import GraphUpgrade, UpgradeReport

COLUMNS = [
    Column("GRAPH"),
    Column("NEXT UPDATE"),
    Column("WORKERS ROLL", cut="end"),
    Column("DEPRECATED/DROPPED", cut="end"),
]


def _rolls(graph: GraphUpgrade) -> str:
    if graph.hash_from is None and graph.hash_note:
        return "unknown"
    if not graph.workers:
        return "no workers"
    if not graph.rolls:
        return "no"
    return f"yes: {', '.join(graph.workers)} ({graph.hash_from} -> {graph.hash_to})"


def _fields(graph: GraphUpgrade) -> str:
    parts = [f"deprecated {p}" for p in graph.deprecated] + [f"dropped {p}" for p in graph.dropped]
    return ", ".join(parts) or "-"


def draw_upgrade(view: UpgradeReport, options: Options, wide: bool = False) -> str:
    del wide
    lines = [
        f"Operator {view.current} -> {view.target} (running release {view.current}: {view.how})"
    ]
    if not view.graphs:
        return "\n".join([*lines, "No graphs found."]) + "\n"
    rows = [
        [
            f"{g.namespace}/{g.name}" if g.namespace else g.name,
            g.verdict,
            _rolls(g),
            _fields(g),
        ]
        for g in view.graphs
    ]
    lines.append(
        render_table(COLUMNS, rows, options.style, options.headers, width=options.width).rstrip(
            "\n"
        )
    )
    for g in view.graphs:
        shown = [f for f in g.findings if f.severity in ("error", "warning")]
        if not shown and not g.hash_note:
            continue
        lines.append("")
        lines.append(f"{g.name} ({g.source}) under {view.target}:")
        if g.hash_note:
            lines.append(f"  note: {g.hash_note}")
        for f in shown:
            new = f" (new in {view.target})" if f.code in g.new_codes else ""
            where = f"{f.path}: " if f.path and not f.message.startswith(f.path) else ""
            lines.append(f"  {f.severity} [{f.layer}] {where}{f.message}{new}")
    broken = [g.name for g in view.graphs if g.breaks]
    lines.append("")
    if broken:
        lines.append(f"would break: {', '.join(broken)}")
    else:
        rolling = [g.name for g in view.graphs if g.rolls]
        tail = f"; the upgrade rolls the workers of {', '.join(rolling)}" if rolling else ""
        lines.append(f"nothing would break{tail}")
    return "\n".join(lines) + "\n"
