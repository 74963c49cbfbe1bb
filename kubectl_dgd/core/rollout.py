"""Explanations of a graph's rolling update and restart (docs/operator-semantics.md#rolling-update, #restart).

Both are view models with the facts as fields and ``lines``, the same facts as prose, so the
status view, ``rollout explain`` and the restart ``--wait`` progress can share them.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from kubectl_dgd.core.graphinfo import (
    GLOBAL_RUNTIME_NAMESPACE,
    GROVE_KINDS,
    GROVE_UPDATE_STRATEGY_ANNOTATION,
    WORKER_HASH_ANNOTATION,
    base_runtime_namespace,
    observed_provider,
)
from kubectl_dgd.core.timefmt import human_duration, parse_time, seconds_between
from kubectl_dgd.model.dgd import Component, DynamoGraphDeployment

ACTIVE_ROLLOUT_PHASES = frozenset({"Pending", "InProgress"})
RECREATE_ANNOTATION = "nvidia.com/deployment-strategy"
_HASH_SUFFIX = re.compile(r"-([0-9a-f]{8})$")


class WorkerRollout(BaseModel):
    """One worker component during a managed rolling update."""

    name: str
    updated: bool
    oldNames: list[str] = Field(default_factory=list)
    newNames: list[str] = Field(default_factory=list)
    desiredReplicas: int
    replicas: int | None = None
    readyReplicas: int | None = None
    updatedReplicas: int | None = None
    runtimeNamespace: str | None = None
    recreate: bool = False
    waitingFor: str | None = None


class NativeRollout(BaseModel):
    """Components that roll through their own controller, not the operator's managed update."""

    components: list[str]
    kind: Literal["Grove", "LeaderWorkerSet"]
    how: str


class RollingUpdateView(BaseModel):
    phase: str
    active: bool
    startTime: str | None = None
    endTime: str | None = None
    elapsedSeconds: int | None = None
    elapsed: str | None = None
    updatedComponents: list[str] = Field(default_factory=list)
    pendingComponents: list[str] = Field(default_factory=list)
    oldWorkerHash: str | None = None
    newWorkerHash: str | None = None
    oldRuntimeNamespace: str | None = None
    newRuntimeNamespace: str | None = None
    workers: list[WorkerRollout] = Field(default_factory=list)
    blockers: list[str] = Field(default_factory=list)
    native: list[NativeRollout] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list)


class RestartView(BaseModel):
    id: str | None = None
    observedID: str | None = None
    phase: str | None = None
    strategy: Literal["Sequential", "Parallel"] = "Sequential"
    order: list[str] = Field(default_factory=list)
    orderSource: Literal["spec", "alphabetical"] = "alphabetical"
    requested: bool = False
    inProgress: list[str] = Field(default_factory=list)
    done: list[str] = Field(default_factory=list)
    next: list[str] = Field(default_factory=list)
    lines: list[str] = Field(default_factory=list)


# ---- rolling update --------------------------------------------------------------------------


def explain_rolling_update(dgd: DynamoGraphDeployment, now: datetime) -> RollingUpdateView | None:
    """The managed rolling update (if any) and how the natively rolled components update.

    None for a graph with neither: no ``status.rollingUpdate`` phase and no Grove or
    LeaderWorkerSet components.
    """
    status = dgd.status
    rolling = status.rollingUpdate if status else None
    phase = (rolling.phase or "") if rolling else ""
    native = _native_rollouts(dgd)
    if not phase and not native:
        return None
    view = RollingUpdateView(
        phase=phase or "None", active=phase in ACTIVE_ROLLOUT_PHASES, native=native
    )
    if rolling is not None and phase:
        _fill_managed(view, dgd, now)
    view.lines = _rolling_lines(view)
    return view


def _fill_managed(view: RollingUpdateView, dgd: DynamoGraphDeployment, now: datetime) -> None:
    assert dgd.status is not None and dgd.status.rollingUpdate is not None
    rolling = dgd.status.rollingUpdate
    view.startTime, view.endTime = rolling.startTime, rolling.endTime
    start, end = parse_time(rolling.startTime), parse_time(rolling.endTime)
    view.elapsedSeconds = seconds_between(start, end if end and not view.active else now)
    view.elapsed = human_duration(view.elapsedSeconds)
    view.updatedComponents = list(rolling.updatedComponents)
    old_hash = dgd.metadata.annotations.get(WORKER_HASH_ANNOTATION)
    view.oldWorkerHash = old_hash if view.active else None
    for component in _managed_workers(dgd):
        view.workers.append(_worker_rollout(dgd, component, old_hash if view.active else None))
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
        view.newRuntimeNamespace = f"{_worker_base_namespace(dgd)}-{view.newWorkerHash}"
    view.blockers = _blockers(dgd, view)


def _managed_workers(dgd: DynamoGraphDeployment) -> list[Component]:
    """Single-node worker components on the component path: the ones the operator rolls itself."""
    provider, _ = observed_provider(dgd)
    components = dgd.status.components if dgd.status else {}
    result = []
    for component in dgd.spec.components:
        if not component.is_worker or component.is_multinode or provider == "grove":
            continue
        kind = components[component.name].componentKind if component.name in components else None
        if kind in (None, "Deployment"):
            result.append(component)
    return result


def _worker_rollout(
    dgd: DynamoGraphDeployment, component: Component, old_hash: str | None
) -> WorkerRollout:
    entry = dgd.status.components.get(component.name) if dgd.status else None
    names = list(entry.componentNames) if entry else []
    old, new = _split_generations(dgd, component, names, old_hash)
    template = component.podTemplate or {}
    annotations = (template.get("metadata") or {}).get("annotations") or {}
    updated = dgd.status is not None and dgd.status.rollingUpdate is not None
    updated = updated and component.name in dgd.status.rollingUpdate.updatedComponents  # type: ignore[union-attr]
    return WorkerRollout(
        name=component.name,
        updated=updated,
        oldNames=old,
        newNames=new,
        desiredReplicas=_desired(component),
        replicas=entry.replicas if entry else None,
        readyReplicas=entry.readyReplicas if entry else None,
        updatedReplicas=entry.updatedReplicas if entry else None,
        runtimeNamespace=entry.runtimeNamespace if entry else None,
        recreate=str(annotations.get(RECREATE_ANNOTATION, "")) == "Recreate",
    )


def _split_generations(
    dgd: DynamoGraphDeployment, component: Component, names: list[str], old_hash: str | None
) -> tuple[list[str], list[str]]:
    """Old and new backing names. The hash annotation still holds the old hash until completion."""
    if old_hash is None:
        return [], names
    legacy_name = f"{dgd.metadata.name}-{component.name.lower()}"
    old = [
        n
        for n in names
        if n.endswith(f"-{old_hash}") or (old_hash == "legacy" and n == legacy_name)
    ]
    return old, [n for n in names if n not in old]


def _suffix(name: str) -> str | None:
    match = _HASH_SUFFIX.search(name)
    return match.group(1) if match else None


def _worker_base_namespace(dgd: DynamoGraphDeployment) -> str:
    workers = [c for c in dgd.spec.components if c.is_worker]
    if workers and all(c.globalDynamoNamespace for c in workers):
        return GLOBAL_RUNTIME_NAMESPACE
    return base_runtime_namespace(dgd)


def _desired(component: Component) -> int:
    return component.replicas if component.replicas is not None else 1


def _blockers(dgd: DynamoGraphDeployment, view: RollingUpdateView) -> list[str]:
    blockers = []
    if view.phase == "Pending":
        blockers.append("the operator to create the new worker generation on its next reconcile")
    for worker in view.workers:
        if worker.updated:
            continue
        worker.waitingFor = _waiting_for(worker)
        if worker.waitingFor:
            blockers.append(f"{worker.name}: {worker.waitingFor}")
    ready = dgd.status.condition("Ready") if dgd.status else None
    if dgd.status is not None and dgd.status.state == "failed":
        reason = ready.reason if ready and ready.reason else "failed"
        message = f": {ready.message}" if ready and ready.message else ""
        blockers.append(f"the graph failed ({reason}{message}); fix the cause first")
    return blockers


def _waiting_for(worker: WorkerRollout) -> str | None:
    desired = worker.desiredReplicas
    updated = worker.updatedReplicas or 0
    ready = worker.readyReplicas or 0
    replicas = worker.replicas or 0
    drain = "the old generation to drain"
    if worker.recreate and worker.oldNames and replicas > updated:
        return f"{drain} before new pods start (Recreate strategy): {replicas - updated} old replicas left"
    if updated < desired:
        return f"new replicas: {updated} of {desired} created"
    if ready < desired:
        return f"new replicas to become ready: {ready} ready of {desired} desired"
    if replicas > updated or ready > updated:
        old_ready = max(ready - updated, 0)
        return f"{drain}: {replicas - updated} old replicas, {old_ready} of them ready"
    return "the operator to record the component as updated"


def _native_rollouts(dgd: DynamoGraphDeployment) -> list[NativeRollout]:
    provider, _ = observed_provider(dgd)
    status_components = dgd.status.components if dgd.status else {}
    kinds = {name: entry.componentKind for name, entry in status_components.items()}
    grove = provider == "grove" or bool(set(kinds.values()) & GROVE_KINDS)
    names = [c.name for c in dgd.spec.components] or sorted(kinds)
    if grove:
        strategy = dgd.metadata.annotations.get(GROVE_UPDATE_STRATEGY_ANNOTATION)
        return [NativeRollout(components=names, kind="Grove", how=_grove_how(strategy))]
    lws = [
        c.name
        for c in dgd.spec.components
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
    if view.phase == "Completed":
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
    hashes = ""
    if view.oldWorkerHash or view.newWorkerHash:
        hashes = f" (worker hash {view.oldWorkerHash or '?'} -> {view.newWorkerHash or '?'})"
    lines.append(
        f"Trigger: the worker hash changed{hashes}; every worker component is replaced by a new "
        "generation, whichever worker changed."
    )
    lines.append(
        f"Updated: {_names(view.updatedComponents)}. Pending: {_names(view.pendingComponents)}."
    )
    for worker in view.workers:
        counts = (
            f"{worker.replicas} replicas ({worker.updatedReplicas} new, {worker.readyReplicas} ready)"
            f" for {worker.desiredReplicas} desired"
        )
        lines.append(
            f"{worker.name}: old {_names(worker.oldNames)} -> new {_names(worker.newNames)}; {counts}."
        )
    if view.oldRuntimeNamespace or view.newRuntimeNamespace:
        lines.append(
            f"Runtime namespace: workers report {view.oldRuntimeNamespace or '?'} until every worker "
            f"component is updated; the new generation registers in {view.newRuntimeNamespace or '?'} "
            "and the frontend cuts over when the update completes."
        )
    if view.blockers:
        lines.append("Waiting for: " + "; ".join(view.blockers) + ".")
    return lines


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


# ---- restart ---------------------------------------------------------------------------------


def restart_order(dgd: DynamoGraphDeployment) -> tuple[list[str], Literal["spec", "alphabetical"]]:
    """The sequential order: ``strategy.order`` when given, else names in byte order (no frontend-last rule)."""
    restart = dgd.spec.restart
    if restart and restart.strategy and restart.strategy.order:
        return list(restart.strategy.order), "spec"
    return sorted(c.name for c in dgd.spec.components), "alphabetical"


def explain_restart(dgd: DynamoGraphDeployment) -> RestartView | None:
    spec = dgd.spec.restart
    observed = dgd.status.restart if dgd.status else None
    if spec is None and observed is None:
        return None
    strategy = spec.strategy.type if spec and spec.strategy else "Sequential"
    order, source = restart_order(dgd)
    view = RestartView(
        id=spec.id if spec else None,
        observedID=observed.observedID if observed else None,
        phase=observed.phase if observed else None,
        strategy=strategy,
        order=order if strategy == "Sequential" else sorted(order),
        orderSource=source if strategy == "Sequential" else "alphabetical",
        inProgress=list(observed.inProgress) if observed else [],
    )
    view.requested = view.id is not None and view.id != view.observedID
    _fill_progress(view)
    view.lines = _restart_lines(view, dgd)
    return view


def _fill_progress(view: RestartView) -> None:
    if view.requested:
        view.next = list(view.order)
        return
    if view.phase == "Completed":
        view.done = list(view.order)
    elif view.phase == "Restarting" and view.strategy == "Parallel":
        view.done = [n for n in view.order if n not in view.inProgress]
    elif view.phase == "Restarting" and view.inProgress:
        current = view.inProgress[0]
        if current in view.order:
            at = view.order.index(current)
            view.done, view.next = view.order[:at], view.order[at + 1 :]
        else:
            view.next = list(view.order)


def _restart_lines(view: RestartView, dgd: DynamoGraphDeployment) -> list[str]:
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
        rolling = dgd.status.rollingUpdate if dgd.status else None
        if rolling and rolling.phase in ACTIVE_ROLLOUT_PHASES:
            lines.append(
                "A rolling update is in progress, so the operator will mark this restart "
                "Superseded instead of restarting."
            )
        return lines
    phase = view.phase or "no phase reported"
    lines = [f"Restart {view.observedID or view.id}: {phase}.", strategy]
    if view.phase == "Restarting":
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
    elif view.phase == "Completed":
        lines.append(f"Every component restarted: {_names(view.done)}.")
    elif view.phase == "Superseded":
        lines.append(
            "Superseded: a managed rolling update was running when this restart was requested. "
            "The rolling update replaces every worker pod anyway, so the operator restarted nothing "
            "(event RestartSuperseded); non-worker components were not restarted. Set a new "
            "restart id once the rolling update has completed to restart them."
        )
    elif view.phase in ("Pending", "Failed"):
        lines.append(
            f"Phase {view.phase} is defined by the API but not set by known operator versions."
        )
    return lines
