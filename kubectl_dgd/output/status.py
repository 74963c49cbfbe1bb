"""The status view as text (default and ``-o wide``); ``-o json/yaml`` dump its data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.events import draw_events
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import PLAIN, Color, Style
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.status import ComponentView, StatusView
    from kubectl_dgd.core.views import LiveStatusView, StatusList

COMPUTED_MARK = "*"
UNKNOWN_MARK = "?"

_COLUMNS = [
    Column("NAME"),
    Column("TYPE"),
    Column("KIND"),
    Column("READY"),
    Column("UPDATED"),
    Column("AVAILABLE"),
    Column("GPU/ENGINE"),
    Column("GPU/REPLICA"),
    Column("GPUS"),
]
_WIDE_COLUMNS = [Column("SCHEDULED"), Column("RUNTIME NAMESPACE"), Column("BACKING")]
_HEALTH_COLOURS: dict[str, Color] = {
    "Healthy": "green",
    "Progressing": "yellow",
    "Degraded": "red",
    "Suspended": "cyan",
    "Missing": "red",
}


def draw_status(view: StatusView, options: Options, wide: bool) -> str:
    return render_text(view, wide, options.style)


def draw_status_list(views: StatusList, options: Options, wide: bool) -> str:
    """The graphs of one file: their views, a blank line between them."""
    return "\n".join(render_text(v, wide, options.style) for v in views.views)


def draw_live_status(view: LiveStatusView, options: Options, wide: bool) -> str:
    text = render_text(view.status, wide, options.style)
    if view.events is not None:
        text += "\n" + draw_events(view.events)
    return text


def render_text(view: StatusView, wide: bool = False, style: Style = PLAIN) -> str:
    sections = [_header(view, style), _components(view, wide, style)]
    if view.restart:
        sections.append(_block("Restart:", view.restart.lines))
    if view.rollingUpdate:
        sections.append(_block("Rolling update:", view.rollingUpdate.lines))
    if view.checkpoints:
        sections.append(_checkpoints(view))
    if view.placement:
        score = "not reported" if view.placement.score is None else f"{view.placement.score:g}"
        sections.append(f"Placement:    {view.placement.state or 'unknown'}, score {score}\n")
    if view.conditions:
        sections.append(_conditions(view))
    return "\n".join(sections)


def _header(view: StatusView, style: Style) -> str:
    ready = view.ready
    if ready.status is None:
        ready_text = "unknown (no Ready condition)"
    else:
        detail = ": ".join(x for x in (ready.reason, ready.message) if x)
        ready_text = f"{ready.status}" + (f" ({detail})" if detail else "")
    health = f"{style(view.health.status, _HEALTH_COLOURS.get(view.health.status, 'bold'))}"
    provider = view.provider or "unknown"
    if view.providerSource == "componentKinds":
        provider += " (from component kinds)"
    generation = "unknown" if view.generation is None else str(view.generation)
    if view.observedGeneration is None:
        generation += " (not observed yet)"
    elif view.stale:
        generation += (
            f" (observed {view.observedGeneration}: status is stale, the operator has not "
            "processed the latest spec)"
        )
    else:
        generation += f" (observed {view.observedGeneration})"
    rows = [
        ("Name", view.name),
        ("Namespace", view.namespace or "-"),
        ("State", view.state or "-"),
        ("Ready", ready_text),
        ("Health", f"{health}: {view.health.message}"),
        ("Backend", view.backend or "-"),
        ("Provider", provider),
        ("Generation", generation),
    ]
    return "".join(f"{label + ':':<14}{value}\n" for label, value in rows)


def _components(view: StatusView, wide: bool, style: Style) -> str:
    columns = _COLUMNS + (_WIDE_COLUMNS if wide else [])
    rows = [_row(c, wide) for c in view.components]
    totals = view.totals
    total_row = [
        "TOTAL",
        "",
        "",
        f"{totals.readyReplicas}/{totals.desiredReplicas}",
        "",
        "",
        "",
        "",
    ]
    computed = COMPUTED_MARK if any(c.gpuSource == "spec" for c in view.components) else ""
    unknown = "" if totals.gpusComplete else UNKNOWN_MARK
    total_row.append("-" if totals.gpus is None else f"{totals.gpus}{computed}{unknown}")
    if wide:
        total_row += ["", "", ""]
    rows.append(total_row)
    text = render_table(columns, rows, style)
    if not view.components:
        text += "No components.\n"
    return text + _footnotes(view)


def _row(component: ComponentView, wide: bool) -> list[str]:
    mark = COMPUTED_MARK if component.gpuSource == "spec" else ""
    desired = _number(component.desiredReplicas)
    row = [
        component.name,
        component.type or "-",
        component.kind or "-",
        f"{_number(component.readyReplicas)}/{desired}",
        _number(component.updatedReplicas),
        _number(component.availableReplicas),
        _gpu(component.gpusPerEngine, mark),
        _gpu(component.gpusPerReplica, mark),
        _gpu(component.gpus, mark) if component.inStatus else "-",
    ]
    if wide:
        row += [
            _number(component.scheduledReplicas),
            component.runtimeNamespace or "-",
            ",".join(component.componentNames) or "-",
        ]
    return row


def _footnotes(view: StatusView) -> str:
    notes = []
    if any(c.gpuSource == "spec" for c in view.components):
        notes.append(f"{COMPUTED_MARK} computed from spec: the operator reported no GPU figures")
    for component in view.components:
        if component.gpuNote:
            notes.append(f"{UNKNOWN_MARK} {component.name}: {component.gpuNote}")
    if view.totals.desiredGpus is not None and view.totals.desiredGpus != view.totals.gpus:
        notes.append(f"Desired GPUs: {view.totals.desiredGpus}")
    return "".join(note + "\n" for note in notes)


def _gpu(value: int | None, mark: str) -> str:
    return UNKNOWN_MARK if value is None else f"{value}{mark}"


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)


def _block(title: str, lines: list[str]) -> str:
    return title + "\n" + "".join(f"  {line}\n" for line in lines)


def _checkpoints(view: StatusView) -> str:
    columns = [Column("COMPONENT"), Column("CHECKPOINT"), Column("ID"), Column("READY")]
    rows = [
        [c.component, c.checkpointName or "-", c.checkpointID or "-", _bool(c.ready)]
        for c in view.checkpoints
    ]
    return "Checkpoints:\n" + _indent(render_table(columns, rows))


def _conditions(view: StatusView) -> str:
    columns = [Column("TYPE"), Column("STATUS"), Column("REASON"), Column("MESSAGE")]
    rows = [[c.type, c.status, c.reason or "-", c.message or "-"] for c in view.conditions]
    return "Conditions:\n" + _indent(render_table(columns, rows))


def _bool(value: bool | None) -> str:
    return "-" if value is None else str(value).lower()


def _indent(text: str) -> str:
    return "".join(f"  {line}\n" for line in text.splitlines())
