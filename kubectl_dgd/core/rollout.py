"""Explanations of a graph's rolling update and restart (docs/operator-semantics.md#rolling-update, #restart).

Both are view models (plain dataclasses; ``to_data()`` for json/yaml) with the facts as fields
and ``lines``, the same facts as prose, so the status view, ``rollout explain`` and the restart
``--wait`` progress can share them. They read the graph through ``core.graph`` and its phase
through ``core.phase``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from kubectl_dgd.core.graph import (
    GROVE_KINDS,
    GROVE_UPDATE_STRATEGY_ANNOTATION,
    WORKER_HASH_ANNOTATION,
    Component,
    Graph,
)
from kubectl_dgd.core.phase import (
    RESTART_COMPLETED,
    RESTART_FAILED,
    RESTART_PENDING,
    RESTART_RESTARTING,
    RESTART_SUPERSEDED,
    ROLLOUT_COMPLETED,
    ROLLOUT_PENDING,
    STATE_FAILED,
    graph_phase,
)
from kubectl_dgd.core.restart import default_order
from kubectl_dgd.core.timefmt import human_duration, parse_time, seconds_between
from kubectl_dgd.core.viewmodel import ViewModel
from kubectl_dgd.core.wording import plural

_HASH_SUFFIX = re.compile(r"-([0-9a-f]{8})$")


@dataclass(kw_only=True)
class WorkerRollout(ViewModel):
    """One worker component during a managed rolling update."""

    name: str
    updated: bool
    oldNames: list[str] = field(default_factory=list)
    newNames: list[str] = field(default_factory=list)
    desiredReplicas: int
    replicas: int | None = None
    readyReplicas: int | None = None
    updatedReplicas: int | None = None
    runtimeNamespace: str | None = None
    recreate: bool = False
    waitingFor: str | None = None


@dataclass
class NativeRollout(ViewModel):
    """Components that roll through their own controller, not the operator's managed update."""

    components: list[str]
    kind: Literal["Grove", "LeaderWorkerSet"]
    how: str


@dataclass
class RollingUpdateView(ViewModel):
    """The managed rolling update, as status and rollout show it."""

    phase: str
    active: bool
    startTime: str | None = None
    endTime: str | None = None
    elapsedSeconds: int | None = None
    elapsed: str | None = None
    updatedComponents: list[str] = field(default_factory=list)
    pendingComponents: list[str] = field(default_factory=list)
    oldWorkerHash: str | None = None
    newWorkerHash: str | None = None
    oldRuntimeNamespace: str | None = None
    newRuntimeNamespace: str | None = None
    workers: list[WorkerRollout] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    native: list[NativeRollout] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


@dataclass
class RestartView(ViewModel):
    """The requested restart and its progress, as status and rollout show it."""

    id: str | None = None
    observedID: str | None = None
    phase: str | None = None
    strategy: Literal["Sequential", "Parallel"] = "Sequential"
    order: list[str] = field(default_factory=list)
    orderSource: Literal["spec", "alphabetical"] = "alphabetical"
    requested: bool = False
    inProgress: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    next: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


# ---- rolling update --------------------------------------------------------------------------


def explain_rolling_update(graph: Graph, now: datetime) -> RollingUpdateView | None:
    """The managed rolling update (if any) and how the natively rolled components update.

    None for a graph with neither: no ``status.rollingUpdate`` phase and no Grove or
    LeaderWorkerSet components.
    """
    phase = graph_phase(graph)
    native = _native_rollouts(graph)
    if not phase.rollout_phase and not native:
        return None
    view = RollingUpdateView(
        phase=phase.rollout_phase or "None", active=phase.rollout_active, native=native
    )
    if phase.rollout_phase:
        _fill_managed(view, graph, now)
    view.lines = _rolling_lines(view)
    return view


def _fill_managed(view: RollingUpdateView, graph: Graph, now: datetime) -> None:
    assert graph.status is not None and graph.status.rolling_update is not None
    rolling = graph.status.rolling_update
    view.startTime, view.endTime = rolling.start_time, rolling.end_time
    start, end = parse_time(rolling.start_time), parse_time(rolling.end_time)
    view.elapsedSeconds = seconds_between(start, end if end and not view.active else now)
    view.elapsed = human_duration(view.elapsedSeconds)
    view.updatedComponents = list(rolling.updated_components)
    old_hash = graph.annotations.get(WORKER_HASH_ANNOTATION)
    view.oldWorkerHash = old_hash if view.active else None
    for component in _managed_workers(graph):
        view.workers.append(_worker_rollout(graph, component, old_hash if view.active else None))
    if not view.active:
        return
    view.pendingComponents = [w.name for w in view.workers if not w.updated]
    new_hashes = {_suffix(n) for w in view.workers for n in w.newNames} - {None}
    if len(new_hashes) == 1:
        view.newWorkerHash = new_hashes.pop()
    namespaces = {w.runtimeNamespace for w in view.workers if w.runtimeNamespace}
    if len(namespaces) == 1:
        view.oldRuntimeNamespace = namespaces.pop()
    if view.newWorkerHash:
        view.newRuntimeNamespace = f"{graph.worker_base_namespace}-{view.newWorkerHash}"
    view.blockers = _blockers(graph, view)


def _managed_workers(graph: Graph) -> list[Component]:
    """Single-node worker components on the component path: the ones the operator rolls itself."""
    provider, _ = graph.observed_provider()
    result = []
    for component in graph.components:
        if not component.is_worker or component.is_multinode or provider == "grove":
            continue
        entry = graph.observed(component.name)
        if entry is None or entry.kind in (None, "Deployment"):
            result.append(component)
    return result


def _worker_rollout(graph: Graph, component: Component, old_hash: str | None) -> WorkerRollout:
    entry = graph.observed(component.name)
    names = list(entry.names) if entry else []
    old, new = _split_generations(graph, component, names, old_hash)
    rolling = graph.status.rolling_update if graph.status else None
    updated = rolling is not None and component.name in rolling.updated_components
    return WorkerRollout(
        name=component.name,
        updated=updated,
        oldNames=old,
        newNames=new,
        desiredReplicas=component.desired_replicas,
        replicas=entry.replicas if entry else None,
        readyReplicas=entry.ready if entry else None,
        updatedReplicas=entry.updated_replicas if entry else None,
        runtimeNamespace=entry.runtime_namespace if entry else None,
        recreate=component.recreates,
    )


def _split_generations(
    graph: Graph, component: Component, names: list[str], old_hash: str | None
) -> tuple[list[str], list[str]]:
    """Old and new backing names. The hash annotation still holds the old hash until completion."""
    if old_hash is None:
        return [], names
    legacy_name = f"{graph.name}-{component.name.lower()}"
    old = [
        n
        for n in names
        if n.endswith(f"-{old_hash}") or (old_hash == "legacy" and n == legacy_name)
    ]
    return old, [n for n in names if n not in old]


def _suffix(name: str) -> str | None:
    match = _HASH_SUFFIX.search(name)
    return match.group(1) if match else None


def _blockers(graph: Graph, view: RollingUpdateView) -> list[str]:
    blockers = []
    if view.phase == ROLLOUT_PENDING:
        blockers.append("the operator to create the new worker generation on its next reconcile")
    for worker in view.workers:
        if worker.updated:
            continue
        worker.waitingFor = _waiting_for(worker)
        if worker.waitingFor:
            blockers.append(f"{worker.name}: {worker.waitingFor}")
    ready = graph.status.ready_condition if graph.status else None
    if graph.status is not None and graph.status.state == STATE_FAILED:
        reason = ready.reason if ready and ready.reason else "failed"
        message = f": {ready.message}" if ready and ready.message else ""
        blockers.append(f"the graph failed ({reason}{message}); fix the cause first")
    return blockers


def _waiting_for(worker: WorkerRollout) -> str | None:
    """What one worker waits for, from the counts the status aggregates over both generations.

    The counts cannot say which pods are ready: when some replica is not ready, the wait is for
    readiness (the operator scales the old generation down only as new replicas become ready),
    never "the old generation to drain"; the pods themselves (``why``) say which one and why.
    """
    desired = worker.desiredReplicas
    updated = worker.updatedReplicas or 0
    ready = worker.readyReplicas or 0
    replicas = worker.replicas or 0
    drain = "the old generation to drain"
    if worker.recreate and worker.oldNames and replicas > updated:
        return f"{drain} before new pods start (Recreate strategy): {replicas - updated} old replicas left"
    if updated < desired:
        return f"new replicas: {updated} of {desired} created"
    if ready < max(replicas, desired):
        old = max(replicas - updated, 0)
        split = f" ({updated} new, {old} old)" if old else ""
        return (
            f"replicas to become ready: {ready} of {replicas} ready{split}; the old generation "
            "is scaled down only as new replicas become ready"
        )
    if replicas > updated:
        return f"{drain}: {plural(replicas - updated, 'old replica')} left, every replica ready"
    return "the operator to record the component as updated"


def _native_rollouts(graph: Graph) -> list[NativeRollout]:
    provider, _ = graph.observed_provider()
    status_components = graph.status.components if graph.status else {}
    kinds = {name: entry.kind for name, entry in status_components.items()}
    grove = provider == "grove" or bool(set(kinds.values()) & GROVE_KINDS)
    names = [c.name for c in graph.components] or sorted(kinds)
    if grove:
        strategy = graph.annotations.get(GROVE_UPDATE_STRATEGY_ANNOTATION)
        return [NativeRollout(components=names, kind="Grove", how=_grove_how(strategy))]
    lws = [
        c.name
        for c in graph.components
        if kinds.get(c.name) == "LeaderWorkerSet" or (c.is_multinode and c.name not in kinds)
    ]
    if lws:
        return [NativeRollout(components=lws, kind="LeaderWorkerSet", how=_LWS_HOW)]
    return []


_LWS_HOW = (
    "LeaderWorkerSet replaces one leader-worker group at a time (maxUnavailable 1, maxSurge 0); "
    "the operator does not manage these updates (event RollingUpdateNotSupported), and old and "
    "new workers may talk to each other meanwhile"
)


def _grove_how(strategy: str | None) -> str:
    if strategy == "OnDelete":
        replace = "pods are replaced only when you delete them (update strategy OnDelete)"
    else:
        named = strategy or "unset, so Grove's default applies"
        replace = (
            "the PodCliqueSet replaces pods clique by clique, one unavailable at a time and no "
            f"surge (update strategy {named})"
        )
    return (
        f"{replace}; worker runtime namespaces switch only after every worker clique runs the new "
        "PodCliqueSet revision, and old and new workers may talk to each other meanwhile"
    )


def _rolling_lines(view: RollingUpdateView) -> list[str]:
    lines: list[str] = []
    if view.phase != "None":
        lines.extend(_managed_lines(view))
    for native in view.native:
        who = "this graph" if native.kind == "Grove" else ", ".join(native.components)
        lines.append(f"{native.kind} rolls {who} natively: {native.how}.")
    return lines


def _managed_lines(view: RollingUpdateView) -> list[str]:
    if view.phase == ROLLOUT_COMPLETED:
        took = f" after {view.elapsed}" if view.elapsed else ""
        at = f" at {view.endTime}" if view.endTime else ""
        return [
            f"Managed rolling update Completed{at}{took}: the old worker generation was deleted "
            "and the frontend uses the new worker runtime namespace."
        ]
    if not view.active:
        return [f"Managed rolling update {view.phase}."]
    since = ""
    if view.startTime:
        # A start in the future (clock skew) gives no elapsed time; the start time still helps.
        elapsed = f" for {view.elapsed}" if view.elapsedSeconds else ""
        since = f"{elapsed} (since {view.startTime})"
    lines = [f"Managed rolling update {view.phase}{since}."]
    hashes = _change("worker hash", view.oldWorkerHash, view.newWorkerHash)
    hashes = f" ({hashes})" if hashes else ""
    lines.append(
        f"Trigger: the worker hash changed{hashes}; every worker component is replaced by a new "
        "generation, whichever worker changed."
    )
    lines.append(
        f"Updated: {_names(view.updatedComponents)}. Pending: {_names(view.pendingComponents)}."
    )
    for worker in view.workers:
        counts = _counts(worker)
        generations = _generations(worker.oldNames, worker.newNames)
        lines.append(f"{worker.name}: {generations}{counts}.")
    old_ns, new_ns = view.oldRuntimeNamespace, view.newRuntimeNamespace
    if old_ns or new_ns:
        report = (
            f"workers report {old_ns} until every worker component is updated; " if old_ns else ""
        )
        registers = f"registers in {new_ns}" if new_ns else "registers in a new runtime namespace"
        lines.append(
            f"Runtime namespace: {report}the new generation {registers} and the frontend cuts "
            "over when the update completes."
        )
    if view.blockers:
        lines.append("Waiting for: " + "; ".join(view.blockers) + ".")
    return lines


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


def _counts(worker: WorkerRollout) -> str:
    """``2 replicas (1 new, 1 old), 1 ready, for 2 desired``, leaving out what the status lacks.

    The new/old split only once a new generation exists: before that the updated count is the
    old Deployment's own, not the rollout's."""
    replicas = (
        "replicas not reported" if worker.replicas is None else plural(worker.replicas, "replica")
    )
    updated = worker.updatedReplicas
    if worker.newNames and updated is not None:
        old = (worker.replicas or 0) - updated
        replicas += (
            f" ({updated} new, {old} old)" if worker.oldNames and old > 0 else f" ({updated} new)"
        )
    ready = "" if worker.readyReplicas is None else f", {worker.readyReplicas} ready"
    return f"{replicas}{ready}, for {worker.desiredReplicas} desired"


def _change(what: str, old: str | None, new: str | None) -> str:
    """``what old -> new``, or the half that is known; empty when neither is."""
    if old and new:
        return f"{what} {old} -> {new}"
    if new:
        return f"{what} now {new}"
    return f"{what} was {old}" if old else ""


def _generations(old: list[str], new: list[str]) -> str:
    """The old and new children of a worker, leaving out a side that has none yet."""
    if old and new:
        return f"old {_names(old)} -> new {_names(new)}; "
    if new:
        return f"new {_names(new)}; "
    return f"old {_names(old)}, no new generation yet; " if old else ""


# ---- restart ---------------------------------------------------------------------------------


def restart_order(graph: Graph) -> tuple[list[str], Literal["spec", "alphabetical"]]:
    """The sequential order: ``strategy.order`` when given, else names in byte order (docs/operator-semantics.md#restart)."""
    if graph.restart and graph.restart.order:
        return list(graph.restart.order), "spec"
    return default_order([c.name for c in graph.components]), "alphabetical"


def explain_restart(graph: Graph) -> RestartView | None:
    spec = graph.restart
    observed = graph.status.restart if graph.status else None
    if spec is None and observed is None:
        return None
    phase = graph_phase(graph)
    strategy = spec.strategy if spec else "Sequential"
    order, source = restart_order(graph)
    view = RestartView(
        id=phase.restart_id,
        observedID=phase.restart_observed_id,
        phase=phase.restart_phase,
        strategy=strategy,
        order=order if strategy == "Sequential" else default_order(order),
        orderSource=source if strategy == "Sequential" else "alphabetical",
        inProgress=list(phase.restart_in_progress),
        requested=phase.restart_id is not None and phase.restart_id != phase.restart_observed_id,
    )
    _fill_progress(view)
    view.lines = _restart_lines(view, phase.rollout_active)
    return view


def _fill_progress(view: RestartView) -> None:
    if view.requested:
        view.next = list(view.order)
        return
    if view.phase == RESTART_COMPLETED:
        view.done = list(view.order)
    elif view.phase == RESTART_RESTARTING and view.strategy == "Parallel":
        view.done = [n for n in view.order if n not in view.inProgress]
    elif view.phase == RESTART_RESTARTING and view.inProgress:
        busy = [view.order.index(n) for n in view.inProgress if n in view.order]
        if busy:  # before the first one in progress: done; the rest not in progress: next
            at = min(busy)
            view.done = view.order[:at]
            view.next = [n for n in view.order[at:] if n not in view.inProgress]
        else:
            view.next = list(view.order)


def _restart_lines(view: RestartView, rollout_active: bool) -> list[str]:
    strategy = f"Strategy: {view.strategy}"
    if view.strategy == "Sequential":
        source = (
            "from strategy.order" if view.orderSource == "spec" else "alphabetical, no order given"
        )
        strategy += f", order {' -> '.join(view.order)} ({source})"
    strategy += "."
    if view.requested:
        lines = [f"Restart {view.id} requested; the operator has not picked it up yet.", strategy]
        if view.observedID:
            lines.append(f"Last observed restart: {view.observedID} ({view.phase or 'no phase'}).")
        if rollout_active:
            lines.append(
                "A rolling update is in progress, so the operator will mark this restart "
                "Superseded instead of restarting."
            )
        return lines
    phase = view.phase or "no phase reported"
    lines = [f"Restart {view.observedID or view.id}: {phase}.", strategy]
    if view.phase == RESTART_RESTARTING:
        lines.append(
            f"In progress: {_names(view.inProgress)}. Done: {_names(view.done)}. "
            f"Next: {_names(view.next)}."
        )
        if (
            view.strategy == "Sequential"
            and view.inProgress
            and view.inProgress[0] not in view.order
        ):
            lines.append(
                f"{view.inProgress[0]} is not in the order, so the sequence starts again from "
                f"{view.order[0] if view.order else 'the first component'}."
            )
    elif view.phase == RESTART_COMPLETED:
        lines.append(f"Every component restarted: {_names(view.done)}.")
    elif view.phase == RESTART_SUPERSEDED:
        lines.append(
            "Superseded: a managed rolling update was running when this restart was requested. "
            "The rolling update replaces every worker pod anyway, so the operator restarted nothing "
            "(event RestartSuperseded); non-worker components were not restarted. Set a new "
            "restart id once the rolling update has completed to restart them."
        )
    elif view.phase in (RESTART_PENDING, RESTART_FAILED):
        lines.append(
            f"Phase {view.phase} is defined by the API but not set by known operator versions."
        )
    return lines
