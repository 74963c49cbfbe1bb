"""``read_graph(obj)``: a DGD mapping into ``Graph``, tolerant of any shape, or strict (a field of
the wrong type is a ``GraphShapeError`` naming it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from kubectl_dgd.core.graph.model import (
    CheckpointStatus,
    Component,
    ComponentStatus,
    Condition,
    Graph,
    GraphStatus,
    Placement,
    RestartSpec,
    RestartStatus,
    RollingUpdateStatus,
)
from kubectl_dgd.core.graph.raw import as_int, as_list, mapping
from kubectl_dgd.errors import InputError


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
        if value is not None and as_int(value) is None:
            self.wrong(f"{path}.{key}", "an integer", value)
        return as_int(value)

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
