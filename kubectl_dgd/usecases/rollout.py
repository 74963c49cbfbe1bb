"""``rollout status NAME``: wait, like ``kubectl rollout status``, until the graph has settled.

Settled = the operator has observed the current generation, the Ready condition is True, no
managed rolling update is Pending/InProgress and the requested restart, if any, is done
(see docs/operator-semantics.md#rolling-update and #restart).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.core.views import Explanation
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.watching import TimedOut, follow

ROLLING = ("Pending", "InProgress")


@dataclass(frozen=True)
class RolloutState:
    done: bool
    failed: bool
    line: str

    def to_data(self) -> dict[str, Any]:
        return {"done": self.done, "failed": self.failed, "message": self.line}


def _ready_components(graph: dict[str, Any]) -> tuple[int, int]:
    spec_components = (graph.get("spec") or {}).get("components") or []
    status_components = (graph.get("status") or {}).get("components") or {}
    ready = 0
    for component in spec_components:
        name = component.get("name")
        desired = component.get("replicas", 1)
        observed = status_components.get(name) or {}
        have = observed.get("readyReplicas")
        if have is None:
            have = observed.get("availableReplicas") or 0
        if have >= (desired if isinstance(desired, int) else 1):
            ready += 1
    return ready, len(spec_components)


def rollout_state(graph: dict[str, Any]) -> RolloutState:
    meta = graph.get("metadata") or {}
    status = graph.get("status") or {}
    name = meta.get("name", "")
    waiting = f'Waiting for dgd "{name}" rollout to finish: '
    conditions = {c.get("type"): c for c in status.get("conditions") or [] if isinstance(c, dict)}
    ready = conditions.get("Ready") or {}
    if status.get("state") == "failed":
        reason = ready.get("message") or ready.get("reason") or "state failed"
        return RolloutState(False, True, f'dgd "{name}" failed: {reason}')
    generation, observed = meta.get("generation"), status.get("observedGeneration")
    if generation is not None and (observed is None or observed < generation):
        return RolloutState(
            False, False, waiting + f"generation {generation} not yet observed by the operator..."
        )
    rolling = status.get("rollingUpdate") or {}
    if rolling.get("phase") in ROLLING:
        updated = rolling.get("updatedComponents") or []
        return RolloutState(
            False,
            False,
            waiting + f"rolling update {rolling['phase']}, "
            f"{len(updated)} worker component(s) updated ({', '.join(updated) or 'none yet'})...",
        )
    requested = ((graph.get("spec") or {}).get("restart") or {}).get("id")
    restart = status.get("restart") or {}
    if requested:
        if restart.get("phase") == "Failed" and restart.get("observedID") == requested:
            return RolloutState(False, True, f'dgd "{name}" failed: restart {requested} failed')
        if restart.get("observedID") != requested or restart.get("phase") not in (
            "Completed",
            "Superseded",
        ):
            busy = ", ".join(restart.get("inProgress") or []) or "not started"
            return RolloutState(False, False, waiting + f"restart {requested} ({busy})...")
    have, total = _ready_components(graph)
    if ready.get("status") != "True" or have < total:
        detail = f" ({ready['message']})" if ready.get("message") else ""
        return RolloutState(
            False, False, waiting + f"{have} of {total} components ready{detail}..."
        )
    return RolloutState(True, False, f'dgd "{name}" successfully rolled out')


@dataclass(frozen=True)
class RolloutOutcome:
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
    from kubectl_dgd.model.dgd import DynamoGraphDeployment

    dgd = DynamoGraphDeployment.model_validate(graph)
    name = dgd.metadata.name
    rolling = explain_rolling_update(dgd, now)
    restart = explain_restart(dgd)
    state = rollout_state(graph)
    return Explanation(
        name=name,
        namespace=dgd.metadata.namespace,
        summary=_summary(state),
        rollingUpdate=None if rolling is None else list(rolling.lines),
        restart=None if restart is None else list(restart.lines),
        advice=_advice(name, rolling, state),
    )


def _summary(state: RolloutState) -> str:
    if state.done:
        return "rolled out; nothing in flight."
    if state.failed:
        return state.line.split(": ", 1)[-1]
    return state.line.split("to finish: ", 1)[-1]


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
