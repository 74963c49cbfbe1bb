"""The text of ``history`` (a row per revision, the writers, the notes) and of ``undo``/``abort``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.history import History, Reverted

COLUMNS = [
    Column("REVISION", align="right"),
    Column("SOURCE", cut="end"),
    Column("WORKER HASH"),
    Column("DIFFERS FROM LIVE IN", cut="end"),
]


def _changes(paths: list[str]) -> str:
    if not paths:
        return "-"
    shown = ", ".join(paths[:3])
    return shown + (f" (+{len(paths) - 3} more)" if len(paths) > 3 else "")


def draw_history(view: History, options: Options, wide: bool = False) -> str:
    del wide
    rows = [
        [
            str(r.number),
            r.source + ("" if r.exact else " (not restorable)"),
            r.worker_hash or "-",
            "(live)" if r.live else _changes(r.changes),
        ]
        for r in view.revisions
    ]
    lines = [
        render_table(COLUMNS, rows, options.style, options.headers, width=options.width).rstrip(
            "\n"
        )
    ]
    if view.rolling:
        lines.append(
            f"\na managed rolling update runs: the operator still records worker hash "
            f"{view.recorded_hash} (abort writes those worker templates back)"
        )
    if view.writers:
        lines.append("\nwriters (managedFields: who wrote which fields, not their old values):")
        lines += [f"  {w}" for w in view.writers]
    lines += [f"\nnote: {n}" for n in view.notes]
    return "\n".join(lines) + "\n"


def draw_reverted(view: Reverted, options: Options, wide: bool = False) -> str:
    del options, wide
    verb = (
        "rolled back to" if view.action == "undo" else "aborted: wrote back the worker templates of"
    )
    lines = [
        f"dynamographdeployment.nvidia.com/{view.name} {verb} revision {view.revision} "
        f"({view.source}); resourceVersion {view.resource_version}",
        f"changed: {_changes(view.changes)}",
        f"operator: {view.operator}",
    ]
    return "\n".join(lines) + "\n"


def draw_file_undo(view: Any, options: Options, wide: bool = False) -> str:
    """``undo -f``: the file, the revision it went back to, the fields set (usecases.undo_file)."""
    del options, wide
    changed = ", ".join(view.changes) or "nothing"
    return (
        f"updated {view.path}: {view.name} to revision {view.revision} ({view.source}); "
        f"changed: {changed}\n"
    )
