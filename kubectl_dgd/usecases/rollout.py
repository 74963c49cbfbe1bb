"""``rollout status NAME``: wait, like ``kubectl rollout status``, until the graph has settled.

Settled is ``core.phase``'s: the operator has observed the current generation, nothing failed,
no managed rolling update is Pending/InProgress, the requested restart, if any, is done
(docs/operator-semantics.md#rolling-update and #restart), and the graph is ready: the Ready
condition and every component's ready replicas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph import read_graph
from kubectl_dgd.core.phase import STATE_FAILED, Phase, graph_phase
from kubectl_dgd.core.views import Explanation
from kubectl_dgd.core.wording import plural
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

    def to_data(self) -> dict[str, Any]:
        return {"done": self.done, "failed": self.failed, "message": self.line}


def rollout_state(graph: dict[str, Any]) -> RolloutState:
    return state_of(graph_phase(read_graph(graph)))


def state_of(phase: Phase) -> RolloutState:
    name = phase.name
    if phase.failed:
        return RolloutState(False, True, f'dgd "{name}" failed: {_failure(phase)}', _failure(phase))
    waiting = _waiting(phase)
    if waiting:
        line = f'Waiting for dgd "{name}" rollout to finish: {waiting}...'
        return RolloutState(False, False, line, f"{waiting}...")
    done = "rolled out; nothing in flight."
    return RolloutState(True, False, f'dgd "{name}" successfully rolled out', done)


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


def _waiting(phase: Phase) -> str:
    """What the rollout still waits for ("" once settled)."""
    if phase.deleting:
        return "the graph is being deleted"
    if not phase.reported or phase.unobserved:
        if phase.generation is None:
            return "the operator to report status"
        return f"generation {phase.generation} not yet observed by the operator"
    if phase.rollout_active:
        return (
            f"rolling update {phase.rollout_phase}, "
            f"{plural(phase.updated_workers, 'worker component')} updated "
            f"({', '.join(phase.updated_components) or 'none yet'})"
        )
    if phase.restart_requested or phase.restart_active:
        busy = ", ".join(phase.restart_in_progress) if not phase.restart_requested else ""
        return f"restart {phase.restart_id or phase.restart_observed_id} ({busy or 'not started'})"
    if phase.failure:  # not a failure for good (phase.failed): the operator retries the step
        return f"the operator retries after: {phase.failure}"
    if not phase.settled:
        message = phase.ready_condition.message if phase.ready_condition else None
        detail = f" ({message})" if message else ""
        return f"{phase.ready_components} of {len(phase.components)} components ready{detail}"
    return ""


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
) -> RolloutOutcome:
    """Follow the graph until it settles or fails; ``report`` gets each new waiting state."""
    graph = cluster.get_graph(name, namespace)
    shown = ""

    def step(obj: dict[str, Any]) -> RolloutState:
        nonlocal shown
        state = rollout_state(obj)
        if state.line != shown and not state.failed:
            report(state)
            shown = state.line
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
    return RolloutOutcome(False, "timed out waiting for the condition")


def explain(graph: dict[str, Any], now: datetime) -> Explanation:
    """``rollout explain``: the rolling-update and restart explanations of the status view, and
    what the user can do next."""
    from kubectl_dgd.core.rollout import explain_restart, explain_rolling_update

    dgd = read_graph(graph, strict=True)
    rolling = explain_rolling_update(dgd, now)
    restart = explain_restart(dgd)
    state = state_of(graph_phase(dgd))
    return Explanation(
        name=dgd.name,
        namespace=dgd.namespace,
        summary=state.detail,
        rollingUpdate=None if rolling is None else list(rolling.lines),
        restart=None if restart is None else list(restart.lines),
        advice=_advice(dgd.name, rolling, state),
    )


def _advice(name: str, rolling: Any, state: RolloutState) -> list[str]:
    advice: list[str] = []
    if rolling is not None and rolling.active:
        advice.append(f"follow it: kubectl dgd rollout status {name}")
        advice.append(
            "a restart is refused until it completes (admission rejects a new spec.restart.id "
            "while the rolling update is Pending or InProgress); the update replaces the worker "
            "pods anyway"
        )
    elif state.failed:
        advice.append(f"read the events: kubectl dgd status {name} --events")
        advice.append("fix the cause in the manifest and re-apply; see the Ready condition")
    elif not state.done:
        advice.append(f"follow it: kubectl dgd rollout status {name}")
    else:
        advice.append("check what a change would do before applying it: kubectl dgd diff -f FILE")
    return advice
