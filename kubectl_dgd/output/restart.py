"""What ``restart`` prints: the id change, the strategy, the outcome; and its progress lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.printer import Options

if TYPE_CHECKING:
    from kubectl_dgd.core.views import RestartProgress, RestartSummary


def draw_summary(view: RestartSummary, options: Options, wide: bool) -> str:
    return (
        view.diff
        + f"{view.graph}: restart id {view.oldId or '(none)'} -> {view.newId}\n"
        + f"strategy: {view.strategy}\n"
        + view.outcome
        + "\n"
    )


def draw_progress(view: RestartProgress, options: Options, wide: bool) -> str:
    parts = [f"restart {view.restartId}: {view.phase or 'waiting for the operator'}"]
    for label, names in (
        ("done", view.done),
        ("in progress", view.inProgress),
        ("next", view.pending),
    ):
        if names:
            parts.append(f"{label}: {', '.join(names)}")
    return "; ".join(parts) + "\n"
