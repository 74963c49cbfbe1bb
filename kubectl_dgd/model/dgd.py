"""pydantic v2 models of the DynamoGraphDeployment (nvidia.com/v1beta1), spec and status.

Field names follow the CRD (camelCase on the wire). Every model keeps unknown fields
(``extra="allow"``) so nothing a newer operator adds is lost; the schema layer of validation
reports them. ``podTemplate`` and provider-native fragments stay plain mappings.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kubectl_dgd.model.kinds import API_GROUP, KIND, V1ALPHA1, V1BETA1, WORKER_TYPES, is_dgd

__all__ = [
    "API_GROUP",
    "KIND",
    "V1ALPHA1",
    "V1BETA1",
    "WORKER_TYPES",
    "DynamoGraphDeployment",
    "is_dgd",
]


ComponentType = Literal["frontend", "worker", "prefill", "decode", "planner", "epp", "lpx"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class ObjectMeta(_Model):
    name: str = ""
    namespace: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    generation: int | None = None
    resourceVersion: str | None = None
    uid: str | None = None
    creationTimestamp: str | None = None
    deletionTimestamp: str | None = None


class ProviderOverride(_Model):
    apiVersion: str = ""
    target: str | None = None
    value: dict[str, Any] = Field(default_factory=dict)


class TopologyConstraint(_Model):
    packDomain: str | None = None


class SpecTopologyConstraint(_Model):
    clusterTopologyName: str = ""
    packDomain: str | None = None


class RestartStrategy(_Model):
    type: Literal["Sequential", "Parallel"] = "Sequential"
    order: list[str] | None = None


class Restart(_Model):
    id: str
    strategy: RestartStrategy | None = None


class KvTransferPolicy(_Model):
    labelKey: str | None = None
    clusterTopologyName: str | None = None
    domain: str = ""
    enforcement: Literal["required", "preferred"] = "required"
    preferredWeight: float | None = None


class GraphExperimental(_Model):
    kvTransferPolicy: KvTransferPolicy | None = None


class MultinodeRole(_Model):
    providerOverride: ProviderOverride | None = None


class Multinode(_Model):
    nodeCount: int = 2
    leader: MultinodeRole | None = None
    worker: MultinodeRole | None = None


class Role(_Model):
    name: str
    replicas: int | None = None
    providerOverride: ProviderOverride | None = None
    podTemplate: dict[str, Any] | None = None


class ModelRef(_Model):
    name: str
    revision: str | None = None


class CompilationCache(_Model):
    pvcName: str
    mountPath: str | None = None


class GpuMemoryService(_Model):
    mode: Literal["IntraPod", "InterPod"] = "IntraPod"
    deviceClassName: str = "gpu.nvidia.com"
    extraClientContainers: list[str] | None = None
    extraClientPods: list[dict[str, Any]] | None = None


class Failover(_Model):
    mode: Literal["IntraPod", "InterPod"] = "IntraPod"
    numShadows: int = 1


class GroveOptions(_Model):
    forceScalingGroup: bool | None = None


class Checkpoint(_Model):
    enabled: bool
    mode: str | None = None
    startupPolicy: str | None = None
    deletionPolicy: str | None = None
    checkpointRef: str | None = None
    identity: dict[str, Any] | None = None
    targetContainerName: str | None = None
    job: dict[str, Any] | None = None


class ComponentExperimental(_Model):
    gpuMemoryService: GpuMemoryService | None = None
    failover: Failover | None = None
    grove: GroveOptions | None = None
    checkpoint: Checkpoint | None = None


class Lpx(_Model):
    buildId: str | None = None
    scheduling: dict[str, Any] | None = None
    localPartitions: dict[str, Any] | None = None


class Component(_Model):
    """One entry of ``spec.components`` (DynamoComponentDeploymentSharedSpec)."""

    name: str
    type: ComponentType | None = None
    globalDynamoNamespace: bool | None = None
    runtimeVersionOverride: str | None = None
    podTemplate: dict[str, Any] | None = None
    replicas: int | None = None
    minAvailable: int | None = None
    multinode: Multinode | None = None
    roles: list[Role] | None = None
    providerOverride: ProviderOverride | None = None
    sharedMemorySize: int | str | None = None
    modelRef: ModelRef | None = None
    scalingAdapter: dict[str, Any] | None = None
    eppConfig: dict[str, Any] | None = None
    frontendSidecar: str | None = None
    compilationCache: CompilationCache | None = None
    topologyConstraint: TopologyConstraint | None = None
    experimental: ComponentExperimental | None = None
    lpx: Lpx | None = None

    @property
    def is_worker(self) -> bool:
        return self.type in WORKER_TYPES

    @property
    def is_multinode(self) -> bool:
        return self.multinode is not None and self.multinode.nodeCount > 1


class GraphSpec(_Model):
    components: list[Component] = Field(default_factory=list)
    # Not the CRD's enum: a newer operator adds backends, and `status` must still show the graph
    # (`validate` checks the enum against the CRD schema).
    backendFramework: str | None = None
    env: list[dict[str, Any]] | None = None
    annotations: dict[str, str] | None = None
    labels: dict[str, str] | None = None
    priorityClassName: str | None = None
    restart: Restart | None = None
    topologyConstraint: SpecTopologyConstraint | None = None
    providerOverride: ProviderOverride | None = None
    experimental: GraphExperimental | None = None


# ---- status -----------------------------------------------------------------------------------

ComponentKind = Literal["PodClique", "PodCliqueScalingGroup", "Deployment", "LeaderWorkerSet"]


class Condition(_Model):
    type: str
    status: str
    reason: str | None = None
    message: str | None = None
    lastTransitionTime: str | None = None
    observedGeneration: int | None = None


class ComponentReplicaStatus(_Model):
    componentKind: str | None = None
    componentNames: list[str] = Field(default_factory=list)
    runtimeNamespace: str | None = None
    replicas: int = 0
    updatedReplicas: int = 0
    readyReplicas: int | None = None
    availableReplicas: int | None = None
    scheduledReplicas: int | None = None
    gpusPerEngine: int | None = None
    gpusPerReplica: int | None = None


class RestartStatus(_Model):
    observedID: str | None = None
    phase: str | None = None
    inProgress: list[str] = Field(default_factory=list)


class RollingUpdateStatus(_Model):
    phase: str | None = None
    startTime: str | None = None
    endTime: str | None = None
    updatedComponents: list[str] = Field(default_factory=list)


class CheckpointStatus(_Model):
    checkpointName: str | None = None
    checkpointID: str | None = None
    identityHash: str | None = None
    ready: bool | None = None


class PlacementStatus(_Model):
    score: float | None = None
    state: str | None = None


class GraphStatus(_Model):
    observedGeneration: int | None = None
    state: str = "initializing"
    conditions: list[Condition] = Field(default_factory=list)
    components: dict[str, ComponentReplicaStatus] = Field(default_factory=dict)
    restart: RestartStatus | None = None
    checkpoints: dict[str, CheckpointStatus] = Field(default_factory=dict)
    rollingUpdate: RollingUpdateStatus | None = None
    placement: PlacementStatus | None = None

    def condition(self, type_: str) -> Condition | None:
        return next((c for c in self.conditions if c.type == type_), None)


class DynamoGraphDeployment(_Model):
    apiVersion: str = V1BETA1
    kind: str = KIND
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: GraphSpec = Field(default_factory=GraphSpec)
    status: GraphStatus | None = None

    def component(self, name: str) -> Component | None:
        return next((c for c in self.spec.components if c.name == name), None)
