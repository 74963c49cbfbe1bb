"""Small facts about a saved DGD that several views share: provider, names, times."""

from __future__ import annotations

from datetime import UTC, datetime

from kubectl_dgd.core.naming import runtime_namespace
from kubectl_dgd.core.profile import WORKLOAD_PROVIDER_ANNOTATION
from kubectl_dgd.model.dgd import DynamoGraphDeployment

WORKER_HASH_ANNOTATION = "nvidia.com/current-worker-hash-v2"
GROVE_UPDATE_STRATEGY_ANNOTATION = "nvidia.com/grove-update-strategy"
GLOBAL_RUNTIME_NAMESPACE = "dynamo"
GROVE_KINDS = frozenset({"PodClique", "PodCliqueScalingGroup"})
COMPONENT_KINDS = frozenset({"Deployment", "LeaderWorkerSet"})


def observed_provider(dgd: DynamoGraphDeployment) -> tuple[str | None, str | None]:
    """The provider of a stored graph and where we learnt it: the annotation, else the kinds."""
    stored = dgd.metadata.annotations.get(WORKLOAD_PROVIDER_ANNOTATION)
    if stored:
        return stored, "annotation"
    kinds = {c.componentKind for c in (dgd.status.components.values() if dgd.status else [])}
    if kinds & GROVE_KINDS:
        return "grove", "componentKinds"
    if kinds & COMPONENT_KINDS:
        return "component", "componentKinds"
    return None, None


def base_runtime_namespace(dgd: DynamoGraphDeployment) -> str:
    """``<namespace>-<name with dots as dashes>`` (fact sheet §3.3)."""
    return runtime_namespace(dgd.metadata.namespace or "default", dgd.metadata.name, False)


def parse_time(value: str | None) -> datetime | None:
    """An RFC 3339 timestamp as Kubernetes writes it; None when absent or unreadable."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def seconds_between(start: datetime | None, end: datetime | None) -> int | None:
    if start is None or end is None:
        return None
    return max(int((end - start).total_seconds()), 0)


def human_duration(seconds: int | None) -> str | None:
    """kubectl-like short durations: 45s, 5m12s, 3h4m, 2d5h."""
    if seconds is None:
        return None
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{secs}s" if secs else f"{minutes}m"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours}h{minutes}m" if minutes else f"{hours}h"
    days, hours = divmod(hours, 24)
    return f"{days}d{hours}h" if hours else f"{days}d"
