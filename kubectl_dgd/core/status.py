"""The status view of one DGD: what ``status -f FILE`` and ``status NAME`` print.

``build_status_view(obj, now)`` turns a stored object (``kubectl get dgd X -o yaml``) into a
view model; every rendering (table, wide, json, yaml) is drawn from it. GPU figures come from
``status.components`` when the operator reports them, otherwise from the spec with the
operator's counting rules (``core.gpus``), and say which (``gpuSource``). The view never carries
env values (a podTemplate may hold Secret material); it holds no env at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from kubectl_dgd.core.gpus import component_gpus
from kubectl_dgd.core.graph import Component, ComponentStatus, Condition, Graph, read_graph
from kubectl_dgd.core.health import phase_health
from kubectl_dgd.core.phase import graph_phase
from kubectl_dgd.core.rollout import (
    RestartView,
    RollingUpdateView,
    explain_restart,
    explain_rolling_update,
)
from kubectl_dgd.core.viewmodel import ViewModel


@dataclass
class ReadyView(ViewModel):
    """The Ready condition."""

    status: str | None = None
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None


@dataclass
class ConditionView(ViewModel):
    """One condition, for -o json|yaml."""

    type: str
    status: str
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None


@dataclass
class HealthView(ViewModel):
    """The Argo CD health verdict."""

    status: str
    message: str


@dataclass
class ComponentView(ViewModel):
    """One component's row of `status`."""

    name: str
    type: str | None = None
    kind: str | None = None
    replicas: int | None = None
    desiredReplicas: int | None = None
    readyReplicas: int | None = None
    updatedReplicas: int | None = None
    availableReplicas: int | None = None
    scheduledReplicas: int | None = None
    gpusPerEngine: int | None = None
    gpusPerReplica: int | None = None
    gpus: int | None = None
    desiredGpus: int | None = None
    gpuSource: Literal["status", "spec"] | None = None
    gpuNote: str | None = None
    runtimeNamespace: str | None = None
    componentNames: list[str] = field(default_factory=list)
    inSpec: bool = True
    inStatus: bool = True


@dataclass
class Totals(ViewModel):
    """Sums over the components."""

    gpus: int | None = None
    desiredGpus: int | None = None
    readyReplicas: int = 0
    desiredReplicas: int = 0
    gpusComplete: bool = True


@dataclass
class CheckpointView(ViewModel):
    """One component's checkpoint."""

    component: str
    checkpointName: str | None = None
    checkpointID: str | None = None
    ready: bool | None = None


@dataclass
class PlacementView(ViewModel):
    """The topology placement."""

    score: float | None = None
    state: str | None = None


@dataclass(kw_only=True)
class StatusView(ViewModel):
    """Everything `status` shows of one graph."""

    name: str
    namespace: str | None = None
    state: str | None = None
    ready: ReadyView
    health: HealthView
    backend: str | None = None
    provider: str | None = None
    providerSource: str | None = None
    generation: int | None = None
    observedGeneration: int | None = None
    stale: bool = False
    components: list[ComponentView] = field(default_factory=list)
    totals: Totals = field(default_factory=Totals)
    restart: RestartView | None = None
    rollingUpdate: RollingUpdateView | None = None
    checkpoints: list[CheckpointView] = field(default_factory=list)
    placement: PlacementView | None = None
    conditions: list[ConditionView] = field(default_factory=list)


def build_status_view(obj: dict[str, Any], now: datetime, source: str = "") -> StatusView:
    """The view of one stored DGD at time ``now``; a field of the wrong type is a
    ``GraphShapeError`` (an InputError naming the field)."""
    return status_view_of(read_graph(obj, strict=True, source=source), now)


def status_view_of(graph: Graph, now: datetime) -> StatusView:
    status = graph.status
    provider, provider_source = graph.observed_provider()
    generation = graph.generation
    observed = status.observed_generation if status else None
    verdict, message = phase_health(graph_phase(graph))
    components = _components(graph)
    return StatusView(
        name=graph.name,
        namespace=graph.namespace,
        # The CRD defaults a written status's state to "initializing".
        state=(status.state if status.state is not None else "initializing") if status else None,
        ready=_ready(status.ready_condition if status else None),
        health=HealthView(status=verdict, message=message),
        backend=graph.backend,
        provider=provider,
        providerSource=provider_source,
        generation=generation,
        observedGeneration=observed,
        stale=generation is not None and observed is not None and observed < generation,
        components=components,
        totals=_totals(components),
        restart=explain_restart(graph),
        rollingUpdate=explain_rolling_update(graph, now),
        checkpoints=[
            CheckpointView(
                component=name,
                checkpointName=c.checkpoint_name,
                checkpointID=c.checkpoint_id,
                ready=c.ready,
            )
            for name, c in sorted(status.checkpoints.items())
        ]
        if status
        else [],
        placement=PlacementView(score=status.placement.score, state=status.placement.state)
        if status and status.placement
        else None,
        conditions=[_condition(c) for c in status.conditions if c.type != "Ready"]
        if status
        else [],
    )


def _ready(condition: Condition | None) -> ReadyView:
    if condition is None:
        return ReadyView()
    return ReadyView(
        status=condition.status,
        reason=condition.reason,
        message=condition.message,
        lastTransitionTime=condition.last_transition_time,
    )


def _condition(condition: Condition) -> ConditionView:
    return ConditionView(
        type=condition.type,
        status=condition.status or "",  # required: a strict read has one
        reason=condition.reason,
        message=condition.message,
        lastTransitionTime=condition.last_transition_time,
    )


def _components(graph: Graph) -> list[ComponentView]:
    reported = dict(graph.status.components) if graph.status else {}
    views = [_component(c, reported.pop(c.name, None)) for c in graph.components]
    # Components only the status knows (e.g. the spec was trimmed): shown, never guessed at.
    views += [_status_only(name, entry) for name, entry in sorted(reported.items())]
    return views


def _component(component: Component, entry: ComponentStatus | None) -> ComponentView:
    desired = component.desired_replicas
    view = ComponentView(
        name=component.name,
        type=component.type,
        desiredReplicas=desired,
        inStatus=entry is not None,
    )
    if entry is not None:
        _copy_status(view, entry)
    if entry is not None and entry.gpus_per_replica is not None:
        view.gpusPerEngine, view.gpusPerReplica = entry.gpus_per_engine, entry.gpus_per_replica
        view.gpuSource = "status"
    else:
        figures = component_gpus(component.raw)
        view.gpusPerEngine, view.gpusPerReplica = figures.per_engine, figures.per_replica
        view.gpuSource = "spec"
        view.gpuNote = figures.note
    if view.gpusPerReplica is not None:
        view.desiredGpus = view.gpusPerReplica * desired
        if view.replicas is not None:
            view.gpus = view.gpusPerReplica * view.replicas
    return view


def _status_only(name: str, entry: ComponentStatus) -> ComponentView:
    view = ComponentView(name=name, inSpec=False)
    _copy_status(view, entry)
    view.gpusPerEngine, view.gpusPerReplica = entry.gpus_per_engine, entry.gpus_per_replica
    if entry.gpus_per_replica is not None:
        view.gpuSource = "status"
        view.gpus = entry.gpus_per_replica * entry.replicas
    return view


def _copy_status(view: ComponentView, entry: ComponentStatus) -> None:
    view.kind = entry.kind
    view.replicas = entry.replicas
    view.updatedReplicas = entry.updated_replicas
    # The one readiness rule per kind (core.graph): what list, rollout and health count too.
    view.readyReplicas = entry.ready
    view.availableReplicas = entry.available_replicas
    view.scheduledReplicas = entry.scheduled_replicas
    view.runtimeNamespace = entry.runtime_namespace
    view.componentNames = list(entry.names)


def _totals(components: list[ComponentView]) -> Totals:
    totals = Totals()
    gpus: list[int | None] = [c.gpus for c in components if c.inSpec or c.gpus is not None]
    desired: list[int | None] = [c.desiredGpus for c in components if c.inSpec]
    totals.gpus = (
        sum(g for g in gpus if g is not None) if any(g is not None for g in gpus) else None
    )
    totals.desiredGpus = (
        sum(d for d in desired if d is not None) if any(d is not None for d in desired) else None
    )
    # Complete when every component's GPUs could be counted (a missing status is not a gap).
    totals.gpusComplete = all(c.gpusPerReplica is not None for c in components if c.inSpec)
    # Ready against desired, as list and rollout count: spec components only.
    totals.readyReplicas = sum(c.readyReplicas or 0 for c in components if c.inSpec)
    totals.desiredReplicas = sum(c.desiredReplicas or 0 for c in components)
    return totals
