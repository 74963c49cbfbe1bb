"""One row per graph for ``kubectl dgd list``: the view model of the table and of -o json."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.core.gpus import component_gpus
from kubectl_dgd.core.timefmt import parse_time, seconds_between


@dataclass(frozen=True)
class GraphRow:
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
        return asdict(self)


def _ready(observed: dict[str, Any]) -> int:
    value = observed.get("readyReplicas")
    if value is None:
        value = observed.get("availableReplicas")
    return int(value or 0)


def _gpus(component: dict[str, Any], observed: dict[str, Any], replicas: int) -> int | None:
    per_replica = observed.get("gpusPerReplica")
    if per_replica is None:
        per_replica = component_gpus(component).per_replica
    return None if per_replica is None else int(per_replica) * replicas


def graph_row(graph: dict[str, Any], now: datetime) -> GraphRow:
    meta = graph.get("metadata") or {}
    spec = graph.get("spec") or {}
    status = graph.get("status") or {}
    observed_all = status.get("components") or {}
    ready_components = ready_replicas = desired_replicas = 0
    gpus: int | None = 0
    components = [c for c in spec.get("components") or [] if isinstance(c, dict)]
    for component in components:
        desired = component.get("replicas", 1)
        desired = desired if isinstance(desired, int) else 1
        observed = observed_all.get(component.get("name")) or {}
        ready = _ready(observed)
        ready_components += ready >= desired
        ready_replicas += ready
        desired_replicas += desired
        count = _gpus(component, observed, desired)
        gpus = None if gpus is None or count is None else gpus + count
    restart = status.get("restart") or {}
    requested = (spec.get("restart") or {}).get("id")
    restart_text = "-"
    if restart.get("phase"):
        restart_text = str(restart["phase"])
        if requested and restart.get("observedID") != requested:
            restart_text = "Requested"
    elif requested:
        restart_text = "Requested"
    ready_condition: dict[str, Any] = next(
        (c for c in status.get("conditions") or [] if c.get("type") == "Ready"), {}
    )
    return GraphRow(
        namespace=str(meta.get("namespace") or ""),
        name=str(meta.get("name") or ""),
        state=str(status.get("state") or "initializing"),
        ready_components=ready_components,
        components=len(components),
        ready_replicas=ready_replicas,
        desired_replicas=desired_replicas,
        gpus=gpus,
        restart=restart_text,
        rollout=str((status.get("rollingUpdate") or {}).get("phase") or "-"),
        age_seconds=seconds_between(parse_time(meta.get("creationTimestamp")), now),
        provider=str((meta.get("annotations") or {}).get("nvidia.com/workload-provider") or "-"),
        backend=str(spec.get("backendFramework") or "-"),
        ready_reason=str(ready_condition.get("reason") or "-"),
    )
