"""``rollout status`` lines and the ``rollout explain`` prose."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from kubectl_dgd.output.printer import Options

if TYPE_CHECKING:
    from kubectl_dgd.core.views import Explanation


class _State(Protocol):
    """``usecases.rollout.RolloutState``: its line says where the rollout stands."""

    @property
    def line(self) -> str: ...


def draw_state(state: _State, options: Options, wide: bool) -> str:
    return state.line + "\n"


def draw_explanation(view: Explanation, options: Options, wide: bool) -> str:
    paragraphs = [f'dgd "{view.name}" in namespace "{view.namespace}": {view.summary}']
    if view.rollingUpdate is not None:
        paragraphs.append("\n".join(view.rollingUpdate))
    if view.restart is not None:
        paragraphs.append("\n".join(view.restart))
    if view.rollingUpdate is None and view.restart is None:
        paragraphs.append("No rolling update or restart has been recorded for this graph.")
    paragraphs.append("What you can do:\n" + "\n".join(f"- {a}" for a in view.advice))
    return "\n\n".join(paragraphs) + "\n"
