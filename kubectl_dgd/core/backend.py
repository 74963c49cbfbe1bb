"""Backend framework detection from a worker's command line (docs/operator-semantics.md#backend-detection).

The operator joins the ``main`` container's command and args with spaces and looks for
``python… -m dynamo.<framework>``; a match that only appears after ``|``, ``&`` or ``;`` does not count.
Only worker types (worker, prefill, decode) are considered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core.containers import main_container, string_list
from kubectl_dgd.core.graph import is_worker
from kubectl_dgd.core.lazyre import LazyPattern

FRAMEWORKS: tuple[str, ...] = ("vllm", "sglang", "trtllm")

# Compiled at first use, and only where the command names the module (a pattern cannot
# match a text without its literal ``dynamo.<name>``): most runs compile one of them or none.
_PATTERNS: dict[str, LazyPattern] = {
    name: LazyPattern(rf"python[0-9.]*\s+[^|&;]*-m\s+[^|&;]*dynamo\.{name}[^|&;]*")
    for name in FRAMEWORKS
}

MISMATCH = "backend framework mismatch: detected {detected!r} from command but explicitly configured as {explicit!r}"


@dataclass(frozen=True, slots=True)
class Detection:
    """What the command line says. ``frameworks`` lists every match in the operator's order."""

    frameworks: tuple[str, ...] = ()

    @property
    def framework(self) -> str | None:
        """The single detected framework; None when nothing or several matched."""
        return self.frameworks[0] if len(self.frameworks) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(self.frameworks) > 1


def command_line(component: dict[str, Any]) -> str:
    container = main_container(component)
    if container is None:
        return ""
    return " ".join(string_list(container.get("command")) + string_list(container.get("args")))


def detect_frameworks(text: str) -> tuple[str, ...]:
    return tuple(
        name for name in FRAMEWORKS if f"dynamo.{name}" in text and _PATTERNS[name].search(text)
    )


def detect(component: dict[str, Any]) -> Detection:
    """Detection for one component dict; never raises, non-workers detect nothing."""
    if not isinstance(component, dict) or not is_worker(component):
        return Detection()
    return Detection(detect_frameworks(command_line(component)))


def detect_backend(component: dict[str, Any]) -> str | None:
    """The framework the operator detects for this component, None when none or ambiguous."""
    return detect(component).framework


def go_quote(value: str) -> str:
    """Go's ``%q`` for the plain strings used here."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True, slots=True)
class Resolution:
    """The backend a component gets at reconcile time, or the error that fails reconciliation."""

    framework: str | None
    error: str | None = None


def resolve_backend(component: dict[str, Any], explicit: str | None) -> Resolution:
    """Precedence detected > explicit > none, with the operator's reconcile-time errors."""
    found = detect(component)
    if found.ambiguous:
        if explicit:
            return Resolution(explicit)
        names = ", ".join(found.frameworks)
        return Resolution(None, f"multiple backend frameworks detected from command: {names}")
    detected = found.framework
    if detected and explicit and detected != explicit:
        return Resolution(
            None,
            "backend framework mismatch: detected "
            f"{go_quote(detected)} from command but explicitly configured as {go_quote(explicit)}",
        )
    return Resolution(detected or explicit or None)
