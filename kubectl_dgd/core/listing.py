"""One row per graph for ``kubectl dgd list``: the view model of the table and of -o json."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.core.gpus import component_gpus
from kubectl_dgd.core.graph import (
    WORKLOAD_PROVIDER_ANNOTATION,
    Component,
    ComponentStatus,
    read_graph,
)
from kubectl_dgd.core.phase import Phase, graph_phase
from kubectl_dgd.core.timefmt import parse_time, seconds_between
from kubectl_dgd.core.viewmodel import ViewModel


@dataclass(frozen=True)
class GraphRow(ViewModel):
    """One row of `list`."""

    namespace: str
    name: str
    state: str
    ready_components: int
    components: int
    ready_replicas: int
    desired_replicas: int
    gpus: int | None
    restart: str
    rollout: str
    age_seconds: int | None
    provider: str
    backend: str
    ready_reason: str

    def to_dict(self) -> dict[str, Any]:
        return self.to_data()


def _gpus(component: Component, observed: ComponentStatus | None, replicas: int) -> int | None:
    per_replica = observed.gpus_per_replica if observed else None
    if per_replica is None:
        per_replica = component_gpus(component.raw).per_replica
    return None if per_replica is None else per_replica * replicas


def _restart(phase: Phase) -> str:
    if phase.restart_phase:
        return "Requested" if phase.restart_requested else phase.restart_phase
    return "Requested" if phase.restart_id else "-"


def graph_row(obj: dict[str, Any], now: datetime) -> GraphRow:
    graph = read_graph(obj)
    phase = graph_phase(graph)
    gpus: int | None = 0
    for component in graph.components:
        count = _gpus(component, graph.observed(component.name), component.desired_replicas)
        gpus = None if gpus is None or count is None else gpus + count
    ready = phase.ready_condition
    return GraphRow(
        namespace=graph.namespace or "",
        name=graph.name,
        state=(graph.status.state if graph.status else None) or "initializing",
        ready_components=phase.ready_components,
        components=len(phase.components),
        ready_replicas=phase.ready_replicas,
        desired_replicas=phase.desired_replicas,
        gpus=gpus,
        restart=_restart(phase),
        rollout=phase.rollout_phase or "-",
        age_seconds=seconds_between(parse_time(graph.creation_timestamp), now),
        provider=graph.annotations.get(WORKLOAD_PROVIDER_ANNOTATION) or "-",
        backend=graph.backend or "-",
        ready_reason=(ready.reason if ready else None) or "-",
    )
