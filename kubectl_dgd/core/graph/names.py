"""The operator's names a graph is read with: worker types, defaults, the annotations and labels
it reads, the component kinds it reports."""

from __future__ import annotations

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
