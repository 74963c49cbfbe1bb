"""The typed, read-only facts of one graph (``read_graph`` builds them): its spec side and its
status side, the one readiness rule per component kind, the observed provider and the runtime
namespaces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from kubectl_dgd.core.graph.names import (
    COMPONENT_KINDS,
    GROVE_KINDS,
    READY_FROM_AVAILABLE_KINDS,
    WORKLOAD_PROVIDER_ANNOTATION,
)
from kubectl_dgd.core.graph.raw import (
    desired_replicas,
    is_multinode,
    is_worker,
    node_count,
    recreates,
)
from kubectl_dgd.core.naming import GLOBAL_DYNAMO_NAMESPACE, runtime_namespace


@dataclass(frozen=True)
class Component:
    """One ``spec.components[]`` entry; ``raw`` is the mapping as written."""

    index: int
    name: str
    type: str | None
    replicas: int | None
    global_namespace: bool
    raw: dict[str, Any] = field(repr=False, compare=False)

    @property
    def desired_replicas(self) -> int:
        return desired_replicas(self.raw)

    @property
    def is_worker(self) -> bool:
        return is_worker(self.raw)

    @property
    def node_count(self) -> int:
        return node_count(self.raw)

    @property
    def is_multinode(self) -> bool:
        return is_multinode(self.raw)

    @property
    def recreates(self) -> bool:
        return recreates(self.raw)


@dataclass(frozen=True)
class RestartSpec:
    """spec.restart: the requested restart."""

    id: str | None
    strategy: Literal["Sequential", "Parallel"]
    order: tuple[str, ...]


@dataclass(frozen=True)
class Condition:
    """One entry of status.conditions."""

    type: str
    status: str | None
    reason: str | None
    message: str | None
    last_transition_time: str | None


@dataclass(frozen=True)
class ComponentStatus:
    """One ``status.components`` entry (ComponentReplicaStatus)."""

    kind: str | None
    names: tuple[str, ...]
    runtime_namespace: str | None
    replicas: int
    updated_replicas: int
    ready_replicas: int | None
    available_replicas: int | None
    scheduled_replicas: int | None
    gpus_per_engine: int | None
    gpus_per_replica: int | None

    @property
    def ready(self) -> int | None:
        """The ready replicas of this kind: PodCliqueScalingGroups count their available ones,
        PodClique, Deployment and LeaderWorkerSet their ready ones; an entry without a kind
        falls back from ready to available. None when the entry reports neither."""
        if self.kind in READY_FROM_AVAILABLE_KINDS:
            return self.available_replicas
        if self.kind is None and self.ready_replicas is None:
            return self.available_replicas
        return self.ready_replicas

    @property
    def ready_count(self) -> int:
        return self.ready or 0


@dataclass(frozen=True)
class RestartStatus:
    """status.restart: how far the requested restart has got."""

    observed_id: str | None
    phase: str | None
    in_progress: tuple[str, ...]


@dataclass(frozen=True)
class RollingUpdateStatus:
    """status.rollingUpdate: the managed rolling update."""

    phase: str | None
    start_time: str | None
    end_time: str | None
    updated_components: tuple[str, ...]


@dataclass(frozen=True)
class CheckpointStatus:
    """One entry of status.checkpoints."""

    checkpoint_name: str | None
    checkpoint_id: str | None
    ready: bool | None


@dataclass(frozen=True)
class Placement:
    """status.placement: the topology placement's score and state."""

    score: float | None
    state: str | None


@dataclass(frozen=True)
class GraphStatus:
    """The operator's status of a DGD."""

    state: str | None  # None when the operator wrote none (the CRD default is "initializing")
    observed_generation: int | None
    conditions: tuple[Condition, ...]
    components: dict[str, ComponentStatus]
    restart: RestartStatus | None
    rolling_update: RollingUpdateStatus | None
    checkpoints: dict[str, CheckpointStatus]
    placement: Placement | None

    def condition(self, type_: str) -> Condition | None:
        return next((c for c in self.conditions if c.type == type_), None)

    @property
    def ready_condition(self) -> Condition | None:
        return self.condition("Ready")


@dataclass(frozen=True)
class Graph:
    """A DGD as the commands read it (the raw object kept for what the model leaves out)."""

    name: str
    namespace: str | None
    generation: int | None
    uid: str | None
    creation_timestamp: str | None
    deletion_timestamp: str | None
    annotations: dict[str, str]
    backend: str | None
    components: tuple[Component, ...]
    restart: RestartSpec | None
    status: GraphStatus | None
    raw: dict[str, Any] = field(repr=False, compare=False)

    def component(self, name: str) -> Component | None:
        return next((c for c in self.components if c.name == name), None)

    def observed(self, name: str) -> ComponentStatus | None:
        return self.status.components.get(name) if self.status else None

    @property
    def workers(self) -> tuple[Component, ...]:
        return tuple(c for c in self.components if c.is_worker)

    @property
    def restart_id(self) -> str | None:
        return self.restart.id if self.restart else None

    def observed_provider(self) -> tuple[str | None, str | None]:
        """The provider of a stored graph and where we learnt it: the annotation, else the kinds
        the operator reports in ``status.components``."""
        stored = self.annotations.get(WORKLOAD_PROVIDER_ANNOTATION)
        if stored:
            return stored, "annotation"
        kinds = {c.kind for c in (self.status.components.values() if self.status else [])}
        if kinds & GROVE_KINDS:
            return "grove", "componentKinds"
        if kinds & COMPONENT_KINDS:
            return "component", "componentKinds"
        return None, None

    @property
    def base_runtime_namespace(self) -> str:
        """``<namespace>-<name with dots as dashes>``: the runtime namespace of non-workers."""
        return runtime_namespace(self.namespace or "default", self.name, False)

    @property
    def worker_base_namespace(self) -> str:
        """Where workers register before the hash suffix: the global namespace when every
        worker sets ``globalDynamoNamespace``, else the graph's base namespace."""
        workers = self.workers
        if workers and all(c.global_namespace for c in workers):
            return GLOBAL_DYNAMO_NAMESPACE
        return self.base_runtime_namespace
