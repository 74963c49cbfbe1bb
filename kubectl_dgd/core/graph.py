"""What a DynamoGraphDeployment says: the one module that knows the shape of a graph.

Two ways in, one set of facts:

- raw component mappings (validate and render walk them field by field): ``mapping``,
  ``items``, ``is_worker``, ``node_count``, ``is_multinode``, ``desired_replicas``;
- ``read_graph(obj)`` for the views (status, list, rollout, health, diff, preview): a typed,
  read-only ``Graph`` with its spec and its status side. It tolerates any shape (a wrong type
  reads as absent, as the Argo CD health check must); ``strict=True`` instead raises
  ``GraphShapeError`` naming the first field a view needs that has the wrong type, e.g.
  ``not a readable DynamoGraphDeployment: spec.components[0].replicas: expected an integer,
  got "two"`` (one line, exit 2).

The operator's own names live here too: worker types, the annotations it reads, the component
kinds it reports, and the one readiness rule per kind (``ComponentStatus.ready_count``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from kubectl_dgd.core.naming import GLOBAL_DYNAMO_NAMESPACE, runtime_namespace
from kubectl_dgd.errors import InputError
from kubectl_dgd.model import kinds

# The component types the worker hash covers (worker, prefill, decode); named with the API.
WORKER_TYPES = kinds.WORKER_TYPES
DEFAULT_REPLICAS = 1
# What the mutating webhook writes for an absent minAvailable on the Grove path.
DEFAULT_MIN_AVAILABLE = 1
# A multinode block without nodeCount means the CRD default.
DEFAULT_NODE_COUNT = 2

# DGD metadata annotations the operator reads.
WORKLOAD_PROVIDER_ANNOTATION = "nvidia.com/workload-provider"
ENABLE_GROVE_ANNOTATION = "nvidia.com/enable-grove"
WORKER_HASH_ANNOTATION = "nvidia.com/current-worker-hash-v2"
GROVE_UPDATE_STRATEGY_ANNOTATION = "nvidia.com/grove-update-strategy"
DISCOVERY_BACKEND_ANNOTATION = "nvidia.com/dynamo-discovery-backend"
ENABLE_METRICS_ANNOTATION = "nvidia.com/enable-metrics"
KUBE_DISCOVERY_MODE_ANNOTATION = "nvidia.com/dynamo-kube-discovery-mode"
OPERATOR_ORIGIN_VERSION_ANNOTATION = "nvidia.com/dynamo-operator-origin-version"
VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION = "nvidia.com/vllm-distributed-executor-backend"
# The DGD metadata annotations the operator copies onto every component pod template.
PROPAGATED_ANNOTATIONS = (
    ENABLE_METRICS_ANNOTATION,
    DISCOVERY_BACKEND_ANNOTATION,
    KUBE_DISCOVERY_MODE_ANNOTATION,
    OPERATOR_ORIGIN_VERSION_ANNOTATION,
    VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION,
)
# Component pod-template annotations the operator reads for the Deployment's strategy.
DEPLOYMENT_STRATEGY_ANNOTATION = "nvidia.com/deployment-strategy"
MAX_SURGE_ANNOTATION = "nvidia.com/deployment-rolling-update-max-surge"
MAX_UNAVAILABLE_ANNOTATION = "nvidia.com/deployment-rolling-update-max-unavailable"
# The label the operator puts on worker children (and Grove worker cliques).
WORKER_HASH_LABEL = "nvidia.com/dynamo-worker-hash"

# status.components[*].componentKind
GROVE_KINDS = frozenset({"PodClique", "PodCliqueScalingGroup"})
COMPONENT_KINDS = frozenset({"Deployment", "LeaderWorkerSet"})
# PodCliqueScalingGroups report no readyReplicas: their available replicas are the ready ones.
READY_FROM_AVAILABLE_KINDS = frozenset({"PodCliqueScalingGroup"})


# ---- raw mappings ------------------------------------------------------------------------------


def mapping(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping, else an empty one: read any shape without raising."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def items(value: Any) -> list[dict[str, Any]]:
    """The mappings of a list (anything else is skipped)."""
    return [v for v in as_list(value) if isinstance(v, dict)]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def is_worker(component: dict[str, Any]) -> bool:
    """worker, prefill and decode: the components the worker hash covers."""
    return component.get("type") in WORKER_TYPES


def node_count(component: dict[str, Any]) -> int:
    """Nodes per replica: 1 without a multinode block, its nodeCount (default 2) with one."""
    multinode = component.get("multinode")
    if not isinstance(multinode, dict):
        return 1
    count = _int(multinode.get("nodeCount", DEFAULT_NODE_COUNT))
    return DEFAULT_NODE_COUNT if count is None else count


def is_multinode(component: dict[str, Any]) -> bool:
    return node_count(component) > 1


def replicas_default(component: dict[str, Any]) -> int | None:
    """What the mutating webhook writes for an absent ``replicas``: 1, except for LPX
    components, which newer operators leave unset."""
    return None if component.get("type") == "lpx" else DEFAULT_REPLICAS


def desired_replicas(component: dict[str, Any]) -> int:
    """``replicas`` as the operator defaults it (1 when absent or unreadable)."""
    value = _int(component.get("replicas"))
    return DEFAULT_REPLICAS if value is None else value


def pod_annotations(component: dict[str, Any]) -> dict[str, Any]:
    return mapping(
        mapping(mapping(component.get("podTemplate")).get("metadata")).get("annotations")
    )


def recreates(component: dict[str, Any]) -> bool:
    """The component's Deployment uses the Recreate strategy (pod-template annotation)."""
    return str(pod_annotations(component).get(DEPLOYMENT_STRATEGY_ANNOTATION, "")) == "Recreate"


def restart_id(obj: dict[str, Any]) -> str | None:
    value = mapping(mapping(obj.get("spec")).get("restart")).get("id")
    return str(value) if value else None


def components_by_name(obj: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The named ``spec.components`` mappings, by name, in spec order."""
    out: dict[str, dict[str, Any]] = {}
    for item in items(mapping(obj.get("spec")).get("components")):
        if item.get("name") is not None:
            out[str(item["name"])] = item
    return out


def graph_annotations(obj: dict[str, Any]) -> dict[str, Any]:
    return mapping(mapping(obj.get("metadata")).get("annotations"))


# ---- typed reading -----------------------------------------------------------------------------


class GraphShapeError(InputError):
    """A field a view needs has the wrong type (the message names it; exit 2)."""


class _Reader:
    """Reads fields of one expected type; a wrong type is absent, or an error when strict."""

    def __init__(self, strict: bool, source: str) -> None:
        self.strict = strict
        self.source = source

    def wrong(self, path: str, expected: str, value: Any) -> None:
        if self.strict:
            raise GraphShapeError(
                f"not a readable DynamoGraphDeployment: {path}: expected {expected}, "
                f"got {_show(value)}",
                self.source,
            )

    def str_(self, node: dict[str, Any], key: str, path: str, required: bool = False) -> str | None:
        value = node.get(key)
        if isinstance(value, datetime):  # an unquoted timestamp some YAML loaders turn into one
            return _rfc3339(value)
        if isinstance(value, str):
            return value
        if value is not None or (required and self.strict):
            self.wrong(f"{path}.{key}", "a string", value)
        return None

    def int_(self, node: dict[str, Any], key: str, path: str) -> int | None:
        value = node.get(key)
        if value is not None and _int(value) is None:
            self.wrong(f"{path}.{key}", "an integer", value)
        return _int(value)

    def bool_(self, node: dict[str, Any], key: str, path: str) -> bool | None:
        value = node.get(key)
        if value is not None and not isinstance(value, bool):
            self.wrong(f"{path}.{key}", "true or false", value)
            return None
        return value

    def float_(self, node: dict[str, Any], key: str, path: str) -> float | None:
        value = node.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if value is not None:
            self.wrong(f"{path}.{key}", "a number", value)
        return None

    def map_(self, node: dict[str, Any], key: str, path: str) -> dict[str, Any] | None:
        value = node.get(key)
        if value is not None and not isinstance(value, dict):
            self.wrong(f"{path}.{key}", "a mapping", value)
        return value if isinstance(value, dict) else None

    def list_(self, node: dict[str, Any], key: str, path: str) -> list[Any]:
        value = node.get(key)
        if value is not None and not isinstance(value, list):
            self.wrong(f"{path}.{key}", "a list", value)
        return as_list(value)

    def maps(self, node: dict[str, Any], key: str, path: str) -> list[tuple[int, dict[str, Any]]]:
        result = []
        for i, item in enumerate(self.list_(node, key, path)):
            if isinstance(item, dict):
                result.append((i, item))
            else:
                self.wrong(f"{path}.{key}[{i}]", "a mapping", item)
        return result

    def strs(self, node: dict[str, Any], key: str, path: str) -> tuple[str, ...]:
        result = []
        for i, item in enumerate(self.list_(node, key, path)):
            if isinstance(item, str):
                result.append(item)
            else:
                self.wrong(f"{path}.{key}[{i}]", "a string", item)
        return tuple(result)

    def str_map(self, node: dict[str, Any], key: str, path: str) -> dict[str, str]:
        result = {}
        for name, value in (self.map_(node, key, path) or {}).items():
            if isinstance(value, str):
                result[str(name)] = value
            else:
                self.wrong(f"{path}.{key}.{name}", "a string", value)
        return result


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return type(value).__name__


def _rfc3339(moment: datetime) -> str:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat() + "Z"


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
    id: str | None
    strategy: Literal["Sequential", "Parallel"]
    order: tuple[str, ...]


@dataclass(frozen=True)
class Condition:
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
    observed_id: str | None
    phase: str | None
    in_progress: tuple[str, ...]


@dataclass(frozen=True)
class RollingUpdateStatus:
    phase: str | None
    start_time: str | None
    end_time: str | None
    updated_components: tuple[str, ...]


@dataclass(frozen=True)
class CheckpointStatus:
    checkpoint_name: str | None
    checkpoint_id: str | None
    ready: bool | None


@dataclass(frozen=True)
class Placement:
    score: float | None
    state: str | None


@dataclass(frozen=True)
class GraphStatus:
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


def read_graph(obj: Any, *, strict: bool = False, source: str = "") -> Graph:
    """The typed facts of a stored or written DGD (see the module docstring for ``strict``)."""
    read = _Reader(strict, source)
    top = mapping(obj)
    if strict and not isinstance(obj, dict):
        read.wrong("object", "a mapping", obj)
    meta = read.map_(top, "metadata", "") or {}
    spec = read.map_(top, "spec", "") or {}
    status = top.get("status")
    if status is not None and not isinstance(status, dict):
        read.wrong("status", "a mapping", status)
    return Graph(
        name=read.str_(meta, "name", "metadata") or "",
        namespace=read.str_(meta, "namespace", "metadata"),
        generation=read.int_(meta, "generation", "metadata"),
        uid=read.str_(meta, "uid", "metadata"),
        creation_timestamp=read.str_(meta, "creationTimestamp", "metadata"),
        deletion_timestamp=read.str_(meta, "deletionTimestamp", "metadata"),
        annotations=read.str_map(meta, "annotations", "metadata"),
        backend=read.str_(spec, "backendFramework", "spec"),
        components=tuple(_component(read, i, c) for i, c in read.maps(spec, "components", "spec")),
        restart=_restart_spec(read, read.map_(spec, "restart", "spec")),
        status=_status(read, status) if isinstance(status, dict) else None,
        raw=top,
    )


def _component(read: _Reader, index: int, raw: dict[str, Any]) -> Component:
    path = f"spec.components[{index}]"
    for key in ("multinode", "podTemplate"):
        read.map_(raw, key, path)
    if isinstance(raw.get("multinode"), dict):
        read.int_(raw["multinode"], "nodeCount", f"{path}.multinode")
    return Component(
        index=index,
        name=read.str_(raw, "name", path, required=True) or "",
        type=read.str_(raw, "type", path),
        replicas=read.int_(raw, "replicas", path),
        global_namespace=bool(read.bool_(raw, "globalDynamoNamespace", path)),
        raw=raw,
    )


def _restart_spec(read: _Reader, node: dict[str, Any] | None) -> RestartSpec | None:
    if node is None:
        return None
    strategy = read.map_(node, "strategy", "spec.restart") or {}
    kind = read.str_(strategy, "type", "spec.restart.strategy")
    if kind not in (None, "Sequential", "Parallel"):
        read.wrong("spec.restart.strategy.type", '"Sequential" or "Parallel"', kind)
    return RestartSpec(
        id=read.str_(node, "id", "spec.restart", required=True),
        strategy="Parallel" if kind == "Parallel" else "Sequential",
        order=read.strs(strategy, "order", "spec.restart.strategy"),
    )


def _status(read: _Reader, node: dict[str, Any]) -> GraphStatus:
    restart = read.map_(node, "restart", "status")
    rolling = read.map_(node, "rollingUpdate", "status")
    placement = read.map_(node, "placement", "status")
    return GraphStatus(
        state=read.str_(node, "state", "status"),
        observed_generation=read.int_(node, "observedGeneration", "status"),
        conditions=tuple(
            _condition(read, f"status.conditions[{i}]", c)
            for i, c in read.maps(node, "conditions", "status")
        ),
        components={
            str(name): _component_status(read, f"status.components.{name}", entry)
            for name, entry in _entries(read, node, "components")
        },
        restart=None
        if restart is None
        else RestartStatus(
            observed_id=read.str_(restart, "observedID", "status.restart"),
            phase=read.str_(restart, "phase", "status.restart"),
            in_progress=read.strs(restart, "inProgress", "status.restart"),
        ),
        rolling_update=None
        if rolling is None
        else RollingUpdateStatus(
            phase=read.str_(rolling, "phase", "status.rollingUpdate"),
            start_time=read.str_(rolling, "startTime", "status.rollingUpdate"),
            end_time=read.str_(rolling, "endTime", "status.rollingUpdate"),
            updated_components=read.strs(rolling, "updatedComponents", "status.rollingUpdate"),
        ),
        checkpoints={
            str(name): CheckpointStatus(
                checkpoint_name=read.str_(entry, "checkpointName", f"status.checkpoints.{name}"),
                checkpoint_id=read.str_(entry, "checkpointID", f"status.checkpoints.{name}"),
                ready=read.bool_(entry, "ready", f"status.checkpoints.{name}"),
            )
            for name, entry in _entries(read, node, "checkpoints")
        },
        placement=None
        if placement is None
        else Placement(
            score=read.float_(placement, "score", "status.placement"),
            state=read.str_(placement, "state", "status.placement"),
        ),
    )


def _entries(read: _Reader, node: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
    result = []
    for name, entry in (read.map_(node, key, "status") or {}).items():
        if isinstance(entry, dict):
            result.append((str(name), entry))
        else:
            read.wrong(f"status.{key}.{name}", "a mapping", entry)
    return result


def _condition(read: _Reader, path: str, node: dict[str, Any]) -> Condition:
    return Condition(
        type=read.str_(node, "type", path, required=True) or "",
        status=read.str_(node, "status", path, required=True),
        reason=read.str_(node, "reason", path),
        message=read.str_(node, "message", path),
        last_transition_time=read.str_(node, "lastTransitionTime", path),
    )


def _component_status(read: _Reader, path: str, node: dict[str, Any]) -> ComponentStatus:
    return ComponentStatus(
        kind=read.str_(node, "componentKind", path),
        names=read.strs(node, "componentNames", path),
        runtime_namespace=read.str_(node, "runtimeNamespace", path),
        replicas=read.int_(node, "replicas", path) or 0,
        updated_replicas=read.int_(node, "updatedReplicas", path) or 0,
        ready_replicas=read.int_(node, "readyReplicas", path),
        available_replicas=read.int_(node, "availableReplicas", path),
        scheduled_replicas=read.int_(node, "scheduledReplicas", path),
        gpus_per_engine=read.int_(node, "gpusPerEngine", path),
        gpus_per_replica=read.int_(node, "gpusPerReplica", path),
    )
