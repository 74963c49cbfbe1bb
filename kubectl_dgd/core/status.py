"""The status view of one DGD: what ``status -f FILE`` and ``status NAME`` print.

``build_status_view(obj, now)`` turns a stored object (``kubectl get dgd X -o yaml``) into a
view model; every rendering (table, wide, json, yaml) is drawn from it. GPU figures come from
``status.components`` when the operator reports them, otherwise from the spec with the
operator's counting rules (``core.gpus``), and say which (``gpuSource``). The view never carries
env values (a podTemplate may hold Secret material); it holds no env at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from kubectl_dgd.core.gpus import component_gpus
from kubectl_dgd.core.graphinfo import observed_provider
from kubectl_dgd.core.health import health
from kubectl_dgd.core.rollout import (
    RestartView,
    RollingUpdateView,
    explain_restart,
    explain_rolling_update,
)
from kubectl_dgd.model.dgd import (
    Component,
    ComponentReplicaStatus,
    Condition,
    DynamoGraphDeployment,
)

# PodCliqueScalingGroups report no readyReplicas: their available ones count.
_READY_FROM_AVAILABLE = frozenset({"PodCliqueScalingGroup"})


class ReadyView(BaseModel):
    status: str | None = None
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None


class ConditionView(BaseModel):
    type: str
    status: str
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None


class HealthView(BaseModel):
    status: str
    message: str


class ComponentView(BaseModel):
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
    componentNames: list[str] = Field(default_factory=list)
    inSpec: bool = True
    inStatus: bool = True


class Totals(BaseModel):
    gpus: int | None = None
    desiredGpus: int | None = None
    readyReplicas: int = 0
    desiredReplicas: int = 0
    gpusComplete: bool = True


class CheckpointView(BaseModel):
    component: str
    checkpointName: str | None = None
    checkpointID: str | None = None
    ready: bool | None = None


class PlacementView(BaseModel):
    score: float | None = None
    state: str | None = None


class StatusView(BaseModel):
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
    components: list[ComponentView] = Field(default_factory=list)
    totals: Totals = Field(default_factory=Totals)
    restart: RestartView | None = None
    rollingUpdate: RollingUpdateView | None = None
    checkpoints: list[CheckpointView] = Field(default_factory=list)
    placement: PlacementView | None = None
    conditions: list[ConditionView] = Field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        """Plain data for json/yaml, keys in declaration order."""
        return self.model_dump(mode="json")


def build_status_view(obj: dict[str, Any], now: datetime) -> StatusView:
    """The view of one stored DGD at time ``now`` (raises pydantic's error on a malformed object)."""
    dgd = DynamoGraphDeployment.model_validate(obj)
    status = dgd.status
    ready = status.condition("Ready") if status else None
    provider, provider_source = observed_provider(dgd)
    generation = dgd.metadata.generation
    observed = status.observedGeneration if status else None
    verdict, message = health(obj)
    components = _components(dgd)
    return StatusView(
        name=dgd.metadata.name,
        namespace=dgd.metadata.namespace,
        state=status.state if status else None,
        ready=_ready(ready),
        health=HealthView(status=verdict, message=message),
        backend=dgd.spec.backendFramework,
        provider=provider,
        providerSource=provider_source,
        generation=generation,
        observedGeneration=observed,
        stale=generation is not None and observed is not None and observed < generation,
        components=components,
        totals=_totals(components),
        restart=explain_restart(dgd),
        rollingUpdate=explain_rolling_update(dgd, now),
        checkpoints=[
            CheckpointView(
                component=name,
                checkpointName=c.checkpointName,
                checkpointID=c.checkpointID,
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
        lastTransitionTime=condition.lastTransitionTime,
    )


def _condition(condition: Condition) -> ConditionView:
    return ConditionView(
        type=condition.type,
        status=condition.status,
        reason=condition.reason,
        message=condition.message,
        lastTransitionTime=condition.lastTransitionTime,
    )


def _components(dgd: DynamoGraphDeployment) -> list[ComponentView]:
    reported = dict(dgd.status.components) if dgd.status else {}
    views = [_component(c, reported.pop(c.name, None)) for c in dgd.spec.components]
    # Components only the status knows (e.g. the spec was trimmed): shown, never guessed at.
    views += [_status_only(name, entry) for name, entry in sorted(reported.items())]
    return views


def _component(component: Component, entry: ComponentReplicaStatus | None) -> ComponentView:
    desired = component.replicas if component.replicas is not None else 1
    view = ComponentView(
        name=component.name,
        type=component.type,
        desiredReplicas=desired,
        inStatus=entry is not None,
    )
    if entry is not None:
        _copy_status(view, entry)
    if entry is not None and entry.gpusPerReplica is not None:
        view.gpusPerEngine, view.gpusPerReplica = entry.gpusPerEngine, entry.gpusPerReplica
        view.gpuSource = "status"
    else:
        figures = component_gpus(component.model_dump(mode="json", exclude_none=True))
        view.gpusPerEngine, view.gpusPerReplica = figures.per_engine, figures.per_replica
        view.gpuSource = "spec"
        view.gpuNote = figures.note
    if view.gpusPerReplica is not None:
        view.desiredGpus = view.gpusPerReplica * desired
        if view.replicas is not None:
            view.gpus = view.gpusPerReplica * view.replicas
    return view


def _status_only(name: str, entry: ComponentReplicaStatus) -> ComponentView:
    view = ComponentView(name=name, inSpec=False)
    _copy_status(view, entry)
    view.gpusPerEngine, view.gpusPerReplica = entry.gpusPerEngine, entry.gpusPerReplica
    if entry.gpusPerReplica is not None:
        view.gpuSource = "status"
        view.gpus = entry.gpusPerReplica * entry.replicas
    return view


def _copy_status(view: ComponentView, entry: ComponentReplicaStatus) -> None:
    view.kind = entry.componentKind
    view.replicas = entry.replicas
    view.updatedReplicas = entry.updatedReplicas
    view.readyReplicas = entry.readyReplicas
    if view.readyReplicas is None and entry.componentKind in _READY_FROM_AVAILABLE:
        view.readyReplicas = entry.availableReplicas
    view.availableReplicas = entry.availableReplicas
    view.scheduledReplicas = entry.scheduledReplicas
    view.runtimeNamespace = entry.runtimeNamespace
    view.componentNames = list(entry.componentNames)


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
    totals.readyReplicas = sum(c.readyReplicas or 0 for c in components)
    totals.desiredReplicas = sum(c.desiredReplicas or 0 for c in components)
    return totals
