"""The status view as text (default and ``-o wide``); ``-o json/yaml`` dump its data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.events import draw_events
from kubectl_dgd.output.fit import DEFAULT_WIDTH, wrapped
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import PLAIN, Color, Style
from kubectl_dgd.output.table import Column, render_table

if TYPE_CHECKING:
    from kubectl_dgd.core.status import ComponentView, StatusView
    from kubectl_dgd.core.views import LiveStatusView, StatusList

COMPUTED_MARK = "*"
# A GPU figure nobody reported and the spec does not give; a total that misses some.
UNKNOWN = "unknown"
INCOMPLETE_MARK = "+"
_MARKS = (COMPUTED_MARK, INCOMPLETE_MARK)
LABEL_WIDTH = 14  # "Generation:   "

# At 80 columns the default table keeps what says whether the graph is up; a narrower
# terminal loses AVAILABLE, then KIND, then UPDATED. -o wide shows every column.
_COLUMNS = [
    Column("NAME"),
    Column("TYPE"),
    Column("KIND", drop=2),
    Column("READY"),
    Column("UPDATED", drop=1),
    Column("AVAILABLE", drop=3),
    Column("GPUS"),
]
_WIDE_COLUMNS = [
    Column("NAME"),
    Column("TYPE"),
    Column("KIND"),
    Column("READY"),
    Column("UPDATED"),
    Column("AVAILABLE"),
    Column("GPU/ENGINE"),
    Column("GPU/REPLICA"),
    Column("GPUS"),
    Column("SCHEDULED"),
    Column("RUNTIME NAMESPACE"),
    Column("BACKING"),
]
_HEALTH_COLOURS: dict[str, Color] = {
    "Healthy": "green",
    "Progressing": "yellow",
    "Degraded": "red",
    "Suspended": "cyan",
    "Missing": "red",
}


def draw_status(view: StatusView, options: Options, wide: bool) -> str:
    return render_text(view, wide, options.style, options.width, options.headers)


def draw_status_list(views: StatusList, options: Options, wide: bool) -> str:
    """The graphs of one file: their views, a blank line between them."""
    return "\n".join(
        render_text(v, wide, options.style, options.width, options.headers) for v in views.views
    )


def draw_live_status(view: LiveStatusView, options: Options, wide: bool) -> str:
    text = render_text(view.status, wide, options.style, options.width, options.headers)
    if view.events is not None:
        text += "\n" + draw_events(view.events, None if wide else options.width, options.headers)
    return text


def render_text(
    view: StatusView,
    wide: bool = False,
    style: Style = PLAIN,
    width: int = DEFAULT_WIDTH,
    headers: bool = True,
) -> str:
    """Prose wraps to ``width``; tables fit it unless ``wide``; ``headers``: the tables' header
    rows (--no-headers)."""
    fit = None if wide else width
    sections = [_header(view, style, width), _components(view, wide, style, width, headers)]
    if view.restart:
        sections.append(_block("Restart:", view.restart.lines, width))
    if view.rollingUpdate:
        sections.append(_block("Rolling update:", view.rollingUpdate.lines, width))
    if view.checkpoints:
        sections.append(_checkpoints(view, fit, headers))
    if view.placement:
        score = "not reported" if view.placement.score is None else f"{view.placement.score:g}"
        state = view.placement.state or "unknown"
        sections.append(wrapped(f"{state}, score {score}", width, f"{'Placement:':<{LABEL_WIDTH}}"))
    if view.conditions:
        sections.append(_conditions(view, fit, headers))
    return "\n".join(sections)


def _header(view: StatusView, style: Style, width: int) -> str:
    ready = view.ready
    if ready.status is None:
        ready_text = "unknown (no Ready condition)"
    else:
        detail = ": ".join(x for x in (ready.reason, ready.message) if x)
        ready_text = f"{ready.status}" + (f" ({detail})" if detail else "")
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
        ("Health", f"{view.health.status}: {view.health.message}"),
        ("Backend", view.backend or "-"),
        ("Provider", provider),
        ("Generation", generation),
    ]
    text = "".join(wrapped(value, width, f"{label + ':':<{LABEL_WIDTH}}") for label, value in rows)
    # Coloured once wrapped, so that the escape codes take no room.
    status = view.health.status
    plain = f"{'Health:':<{LABEL_WIDTH}}{status}"
    colour = _HEALTH_COLOURS.get(status, "bold")
    return text.replace(plain, f"{'Health:':<{LABEL_WIDTH}}{style(status, colour)}", 1)


def _components(view: StatusView, wide: bool, style: Style, width: int, headers: bool) -> str:
    columns = _WIDE_COLUMNS if wide else _COLUMNS
    rows = [_row(c, wide) for c in view.components]
    totals = view.totals
    computed = COMPUTED_MARK if any(c.gpuSource == "spec" for c in view.components) else ""
    incomplete = "" if totals.gpusComplete else INCOMPLETE_MARK
    gpus = "-" if totals.gpus is None else f"{totals.gpus}{computed}{incomplete}"
    ready = f"{totals.readyReplicas}/{totals.desiredReplicas}"
    total_row = ["TOTAL", "", "", ready, "", "", "", "", gpus, "", "", ""]
    rows.append(total_row if wide else [*total_row[:6], gpus])
    text = render_table(columns, rows, style, headers, width=None if wide else width)
    if not view.components:
        text += "No components.\n"
    shown = {mark for row in rows for cell in row for mark in cell[-2:] if mark in _MARKS}
    return text + _footnotes(view, width, shown)


def _row(component: ComponentView, wide: bool) -> list[str]:
    mark = COMPUTED_MARK if component.gpuSource == "spec" else ""
    desired = _number(component.desiredReplicas)
    gpus = _gpu(component.gpus, mark) if component.inStatus else "-"
    row = [
        component.name,
        component.type or "-",
        component.kind or "-",
        f"{_number(component.readyReplicas)}/{desired}",
        _number(component.updatedReplicas),
        _number(component.availableReplicas),
    ]
    if not wide:
        return [*row, gpus]
    return [
        *row,
        _gpu(component.gpusPerEngine, mark),
        _gpu(component.gpusPerReplica, mark),
        gpus,
        _number(component.scheduledReplicas),
        component.runtimeNamespace or "-",
        ",".join(component.componentNames) or "-",
    ]


def _footnotes(view: StatusView, width: int, shown: set[str]) -> str:
    """The notes under the table; a mark's only when a cell shows the mark."""
    notes = []
    if COMPUTED_MARK in shown:
        notes.append(f"{COMPUTED_MARK} computed from spec: the operator reported no GPU figures")
    if INCOMPLETE_MARK in shown:
        notes.append(f"{INCOMPLETE_MARK} not counted: the GPUs of some components are unknown")
    for component in view.components:
        if component.gpuNote:
            notes.append(f"{component.name}: GPUs {UNKNOWN}: {component.gpuNote}")
    if view.totals.desiredGpus is not None and view.totals.desiredGpus != view.totals.gpus:
        notes.append(f"Desired GPUs: {view.totals.desiredGpus}")
    return "".join(wrapped(note, width, "", "  ") for note in notes)


def _gpu(value: int | None, mark: str) -> str:
    return UNKNOWN if value is None else f"{value}{mark}"


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)


def _block(title: str, lines: list[str], width: int) -> str:
    """A titled block of sentences, each wrapped with its continuation indented under it."""
    return title + "\n" + "".join(wrapped(line, width, "  ", "    ") for line in lines)


def _checkpoints(view: StatusView, width: int | None, headers: bool) -> str:
    columns = [Column("COMPONENT"), Column("CHECKPOINT"), Column("ID", drop=1), Column("READY")]
    rows = [
        [c.component, c.checkpointName or "-", c.checkpointID or "-", _bool(c.ready)]
        for c in view.checkpoints
    ]
    return "Checkpoints:\n" + render_table(columns, rows, headers=headers, indent="  ", width=width)


def _conditions(view: StatusView, width: int | None, headers: bool) -> str:
    columns = [Column("TYPE"), Column("STATUS"), Column("REASON"), Column("MESSAGE", cut="below")]
    rows = [[c.type, c.status, c.reason or "-", c.message or "-"] for c in view.conditions]
    return "Conditions:\n" + render_table(columns, rows, headers=headers, indent="  ", width=width)


def _bool(value: bool | None) -> str:
    return "-" if value is None else str(value).lower()
