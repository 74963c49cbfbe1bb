"""``rollout status`` lines and the ``rollout explain`` prose."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from kubectl_dgd.output.fit import wrapped
from kubectl_dgd.output.printer import Options

if TYPE_CHECKING:
    from kubectl_dgd.core.views import Explanation


class _State(Protocol):
    """``usecases.rollout.RolloutState``: its line says where the rollout stands."""

    @property
    def line(self) -> str: ...

    @property
    def blocked(self) -> str | None: ...


def draw_state(state: _State, options: Options, wide: bool) -> str:
    """The line, and under it (indented) what blocks the rollout, when ``why`` found it."""
    text = wrapped(state.line, options.width, "", "  ")
    if state.blocked:
        text += wrapped(f"blocked by {state.blocked}", options.width, "  ", "    ")
    return text


def draw_explanation(view: Explanation, options: Options, wide: bool) -> str:
    """Paragraphs wrapped to the terminal; a sentence's continuation is indented under it."""
    width = options.width

    def sentences(lines: list[str]) -> str:
        return "".join(wrapped(line, width, "", "  ") for line in lines)

    paragraphs = [
        wrapped(f'dgd "{view.name}" in namespace "{view.namespace}": {view.summary}', width)
    ]
    if view.blocked:
        paragraphs.append(wrapped(f"Blocked by {view.blocked}", width, "", "  "))
    if view.rollingUpdate is not None:
        paragraphs.append(sentences(view.rollingUpdate))
    if view.restart is not None:
        paragraphs.append(sentences(view.restart))
    if view.rollingUpdate is None and view.restart is None:
        paragraphs.append(
            wrapped("No rolling update or restart has been recorded for this graph.", width)
        )
    advice = "".join(wrapped(a, width, "- ") for a in view.advice)
    paragraphs.append("What you can do:\n" + advice)
    return "\n".join(paragraphs)
