"""What render produces: Kubernetes objects, each with the graph/component it comes from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PREVIEW_ANNOTATION = "kubectl-dgd.nvidia.com/preview"
NOT_SHOWN_ANNOTATION = "kubectl-dgd.nvidia.com/not-shown"
NOTE_ANNOTATION = "kubectl-dgd.nvidia.com/note"
HASH_PREVIEW = "worker hash computed offline; the operator's serialization may differ"

# Within one source, objects come in the order a reader follows them: owner, then what it runs.
KIND_ORDER = (
    "PodCliqueSet",
    "DynamoComponentDeployment",
    "Deployment",
    "LeaderWorkerSet",
    "Service",
    "DynamoGraphDeploymentScalingAdapter",
    "ResourceClaimTemplate",
)


@dataclass(frozen=True)
class RenderedObject:
    """One child object rendered, and the graph or component it comes from."""

    source: str  # "<graph>/<component>", or "<graph>" for objects of the whole graph
    obj: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.obj.get("kind", ""))

    @property
    def name(self) -> str:
        return str(self.obj.get("metadata", {}).get("name", ""))

    def sort_key(self) -> tuple[str, int, str]:
        rank = KIND_ORDER.index(self.kind) if self.kind in KIND_ORDER else len(KIND_ORDER)
        return (self.source, rank, self.name)


def metadata(
    name: str,
    namespace: str,
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": namespace}
    if labels:
        meta["labels"] = dict(sorted(labels.items()))
    if annotations:
        meta["annotations"] = dict(sorted(annotations.items()))
    return meta
