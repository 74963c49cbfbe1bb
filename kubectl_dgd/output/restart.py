"""What ``restart`` prints: the id change, the strategy, the outcome (its ``--wait`` progress
lines are ``rollout status``'s, output/rollout.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.fit import wrapped
from kubectl_dgd.output.printer import Options

if TYPE_CHECKING:
    from kubectl_dgd.core.views import RestartSummary


def draw_summary(view: RestartSummary, options: Options, wide: bool) -> str:
    # The diff (restart -f) is drawn as it is; the sentences after it wrap to the terminal.
    lines = [
        f"{view.graph}: restart id {view.oldId or '(none)'} -> {view.newId}",
        f"strategy: {view.strategy}",
        *(view.outcome.splitlines() or [""]),
    ]
    return view.diff + "".join(wrapped(line, options.width, "", "  ") for line in lines)
