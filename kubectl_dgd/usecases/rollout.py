"""``rollout status NAME``: wait, like ``kubectl rollout status``, until the graph has settled.

Settled is ``core.phase``'s: the operator has observed the current generation, nothing failed,
no managed rolling update is Pending/InProgress, the requested restart, if any, is done
(docs/operator-semantics.md#rolling-update and #restart), and the graph is ready: the Ready
condition and every component's ready replicas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph import Graph, read_graph
from kubectl_dgd.core.phase import STATE_FAILED, Phase, graph_phase
from kubectl_dgd.core.views import Explanation
from kubectl_dgd.core.wording import plural
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.watching import TimedOut, follow


@dataclass(frozen=True)
class RolloutState:
    """Where a rollout stands at one observation."""

    done: bool
    failed: bool
    line: str
    # The state in a few words, without the "Waiting for ..." or "dgd X failed:" frame.
    detail: str
    # What blocks it, as ``why`` diagnoses it ("InsufficientGPU: ..."); None when not asked.
    blocked: str | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"done": self.done, "failed": self.failed, "message": self.line}
        if self.blocked:
            data["blocked"] = self.blocked
        return data


def rollout_state(graph: dict[str, Any]) -> RolloutState:
    dgd = read_graph(graph)
    return state_of(graph_phase(dgd), dgd)


def state_of(phase: Phase, dgd: Graph) -> RolloutState:
    """The one prose of a wait, ``rollout status``'s and ``restart --wait``'s."""
    name = phase.name
    if phase.failed:
        return RolloutState(False, True, f'dgd "{name}" failed: {_failure(phase)}', _failure(phase))
    waiting = _waiting(phase, dgd)
    if waiting:
        line = f'Waiting for dgd "{name}" rollout to finish: {waiting}...'
        return RolloutState(False, False, line, f"{waiting}.")
    done = "rolled out; nothing in flight."
    return RolloutState(True, False, f'dgd "{name}" successfully rolled out', done)


@dataclass
class Progress:
    """Hands each new state of a wait to ``report`` (a state whose line did not change is not
    said again), with what ``blocking`` (the ``why`` diagnosis) says blocks it while not done,
    said again only once it changed."""

    report: Callable[[RolloutState], None]
    blocking: Callable[[], str | None] | None = None
    shown: str = ""
    said: str | None = None

    def __call__(self, state: RolloutState, diagnose: bool = True) -> None:
        """``diagnose=False``: the state of the caller's own write (restart --wait's patch),
        which the operator cannot have acted on yet: nothing to diagnose."""
        if state.line == self.shown:
            return
        self.shown = state.line
        if self.blocking is not None and not state.done and diagnose:
            blocked = self.blocking()
            state = replace(state, blocked=blocked if blocked != self.said else None)
            self.said = blocked
        self.report(state)


def _failure(phase: Phase) -> str:
    ready = phase.ready_condition
    if phase.state == STATE_FAILED:
        return (
            (ready.message if ready else None)
            or (ready.reason if ready else None)
            or ("state failed")
        )
    if phase.restart_failed:
        return f"restart {phase.restart_id} failed"
    return phase.failure


def _waiting(phase: Phase, dgd: Graph) -> str:
    """What the rollout still waits for ("" once settled), with the replicas of each component
    that has not settled."""
    waiting = _waiting_stage(phase, dgd)
    replicas = _replicas(dgd, phase.rollout_active) if waiting else ""
    return f"{waiting}; {replicas}" if replicas else waiting


def _replicas(dgd: Graph, rolling: bool) -> str:
    """``decode: 2 replicas for 1 desired, 1 updated, 1 ready, 1 available`` for each component
    whose counts differ from its desired replicas (the status's own counts, over every
    generation of it). During a rolling update the updated replicas are the new generation's,
    called ``new`` as ``rollout explain`` calls them."""
    updated = "new" if rolling else "updated"
    parts = []
    for component in dgd.components:
        entry = dgd.observed(component.name)
        desired = component.desired_replicas
        if entry is None:
            parts.append(f"{component.name}: no replicas reported for {desired} desired")
            continue
        counts = (entry.replicas, entry.updated_replicas, entry.ready_count)
        available = entry.available_replicas
        if all(c == desired for c in counts) and available in (None, desired):
            continue
        text = (
            f"{component.name}: {plural(entry.replicas, 'replica')} for {desired} desired, "
            f"{entry.updated_replicas} {updated}, {entry.ready_count} ready"
        )
        parts.append(text + (f", {available} available" if available is not None else ""))
    return "; ".join(parts)


def _waiting_stage(phase: Phase, dgd: Graph) -> str:
    if phase.deleting:
        return "the graph is being deleted"
    if not phase.reported or phase.unobserved:
        if phase.generation is None:
            return "the operator to report status"
        return f"generation {phase.generation} not yet observed by the operator"
    if phase.rollout_active:
        workers = sum(c.is_worker for c in dgd.components)
        count = (
            f"{phase.updated_workers} of {workers} worker components"
            if workers
            else plural(phase.updated_workers, "worker component")
        )
        updated = ", ".join(phase.updated_components) or "none yet"
        return f"rolling update {phase.rollout_phase}, {count} updated ({updated})"
    if phase.restart_requested or phase.restart_active:
        return _restart_stage(dgd)
    if phase.failure:  # not a failure for good (phase.failed): the operator retries the step
        return f"the operator retries after: {phase.failure}"
    if not phase.settled:
        message = phase.ready_condition.message if phase.ready_condition else None
        detail = f" ({message})" if message else ""
        return f"{phase.ready_components} of {len(phase.components)} components ready{detail}"
    return ""


def _restart_stage(dgd: Graph) -> str:
    """``restart r2 Restarting (done: a; in progress: b; next: c)``, in the operator's order
    (core/rollout.explain_restart's, as ``status`` and ``rollout explain`` show it)."""
    from kubectl_dgd.core.rollout import explain_restart

    view = explain_restart(dgd)
    assert view is not None  # a restart is requested or active
    restart = f"restart {view.id or view.observedID}"
    if view.requested:
        return f"{restart} not yet picked up by the operator"
    steps = [
        f"{label}: {', '.join(names)}"
        for label, names in (
            ("done", view.done),
            ("in progress", view.inProgress),
            ("next", view.next),
        )
        if names
    ]
    return f"{restart} {view.phase}" + (f" ({'; '.join(steps)})" if steps else "")


@dataclass(frozen=True)
class RolloutOutcome:
    """How `rollout status` ended."""

    ok: bool
    message: str | None  # the error line when not ok


def rollout_status(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    clock: Clock,
    timeout: float | None,
    watch: bool,
    report: Callable[[RolloutState], None],
    blocking: Callable[[], str | None] | None = None,
) -> RolloutOutcome:
    """Follow the graph until it settles or fails; ``report`` gets each new waiting state, with
    what ``blocking`` (the ``why`` diagnosis) says blocks it; the timeout's message points at
    ``why``."""
    graph = named_graph(cluster, name, namespace)
    ns = str((graph.get("metadata") or {}).get("namespace") or namespace)
    progress = Progress(report, blocking)

    def step(obj: dict[str, Any]) -> RolloutState:
        state = rollout_state(obj)
        if not state.failed:  # a failure is the error line
            progress(state)
        return state

    state = step(graph)
    if state.done or state.failed or not watch:
        return RolloutOutcome(not state.failed, None if not state.failed else state.line)
    try:
        for obj in follow(cluster, graph, clock, timeout):
            state = step(obj)
            if state.done or state.failed:
                return RolloutOutcome(not state.failed, state.line if state.failed else None)
    except TimedOut:
        pass
    return RolloutOutcome(
        False,
        f"timed out waiting for the condition; what blocks it: kubectl dgd why {name} -n {ns}",
    )


def blocking_reason(cluster: GraphCluster, name: str, namespace: str) -> str | None:
    """The root cause ``why`` finds first (``InsufficientGPU: ...``) among what keeps the graph
    from becoming Ready (its ``error`` findings: a warning, such as the operator not having
    observed the change yet a moment after it, may clear by itself), None when it finds none
    or cannot read what it needs."""
    from kubectl_dgd.core.why.report import ERROR
    from kubectl_dgd.errors import DgdError
    from kubectl_dgd.usecases.why import live_why

    try:
        report = live_why(cluster, name, namespace)
    except DgdError:
        return None
    first = next((f for f in report.findings if f.severity == ERROR), None)
    return None if first is None else f"{first.reason}: {first.message}"


def explain(graph: dict[str, Any], now: datetime, blocked: str | None = None) -> Explanation:
    """``rollout explain``: the rolling-update and restart explanations of the status view,
    what blocks it (``blocked``: the ``why`` diagnosis's root cause, when the caller read it),
    and what the user can do next."""
    from kubectl_dgd.core.rollout import explain_restart, explain_rolling_update

    dgd = read_graph(graph, strict=True)
    rolling = explain_rolling_update(dgd, now)
    restart = explain_restart(dgd)
    state = state_of(graph_phase(dgd), dgd)
    blocked = None if state.done else blocked
    return Explanation(
        name=dgd.name,
        namespace=dgd.namespace,
        summary=state.detail,
        rollingUpdate=None if rolling is None else list(rolling.lines),
        restart=None if restart is None else list(restart.lines),
        advice=_advice(dgd.name, dgd.namespace, rolling, state, blocked),
        blocked=blocked,
    )


def _advice(
    name: str, namespace: str | None, rolling: Any, state: RolloutState, blocked: str | None
) -> list[str]:
    """Every command named carries ``-n`` (the graph's namespace), so it can be pasted as is."""
    where = f"{name} -n {namespace}" if namespace else name
    advice: list[str] = []
    if blocked or (not state.done and not state.failed):
        advice.append(f"see what blocks it: kubectl dgd why {where}")
    if rolling is not None and rolling.active:
        advice.append(f"follow it: kubectl dgd rollout status {where}")
        advice.append(
            "a restart is refused until it completes (admission rejects a new spec.restart.id "
            "while the rolling update is Pending or InProgress); the update replaces the worker "
            "pods anyway"
        )
    elif state.failed:
        advice.append(f"read the events: kubectl dgd status {where} --events")
        advice.append("fix the cause in the manifest and re-apply; see the Ready condition")
    elif not state.done:
        advice.append(f"follow it: kubectl dgd rollout status {where}")
    else:
        advice.append("check what a change would do before applying it: kubectl dgd diff -f FILE")
    return advice
