"""Small facts about a saved DGD that several views share: provider and backing names."""

from __future__ import annotations

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
    """``<namespace>-<name with dots as dashes>``, the runtime namespace."""
    return runtime_namespace(dgd.metadata.namespace or "default", dgd.metadata.name, False)
