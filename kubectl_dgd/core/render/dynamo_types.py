"""Go type descriptions of the operator's DGD/DCD specs, per operator release, for ``gojson``.

Field orders are the declaration orders of ``api/v1beta1`` (DynamoComponentDeploymentSpec and its
inlined shared spec) and ``api/v1alpha1`` (the legacy v1 hash input), read at fork 2a6da14c8
(1.5). Release differences: 1.3 has no ``runtimeVersionOverride``;
1.5 adds ``providerOverride`` first and ``multinode.leader/worker``; 1.6 adds ``roles`` and ``lpx``.
``roles`` directly after ``multinode`` is the declaration order of the roles-era
``api/v1beta1/dynamocomponentdeployment_types.go`` (search index 68481739318); no indexed
revision declares ``lpx`` (LPXConfig lives in lpx_types.go, 71470448157), so its place after
``roles`` is our assumption, and the 1.6 hash stays a preview until a cluster value confirms it.
"""

from __future__ import annotations

from functools import cache

from kubectl_dgd.core.profile import at_least
from kubectl_dgd.core.render.gojson import (
    ANY,
    BOOL,
    CONTAINER,
    ENV_VAR,
    INT,
    OBJECT_META,
    POD_SPEC,
    POD_TEMPLATE,
    PROBE,
    QUANTITY,
    STRING,
    STRING_MAP,
    STRINGS,
    F,
    GoType,
    map_of,
    ptr,
    slice_of,
    struct,
)

PROVIDER_OVERRIDE = struct(
    F("apiVersion", STRING, omitempty=False),
    F("target", STRING),
    F("value", ANY, omitempty=False),
)
TOPOLOGY = struct(F("packDomain", STRING, omitempty=False))
MODEL_REF = struct(F("name", STRING, omitempty=False), F("revision", STRING))
EPP_CONFIG = struct(F("configMapRef", ptr(ANY)), F("config", ptr(ANY)))
COMPILATION_CACHE = struct(F("pvcName", STRING, omitempty=False), F("mountPath", STRING))
GMS = struct(
    F("mode", STRING),
    F("deviceClassName", STRING),
    F("extraClientContainers", STRINGS),
    F("extraClientPods", slice_of(ANY)),
)
FAILOVER = struct(F("mode", STRING), F("numShadows", INT))
GROVE = struct(F("forceScalingGroup", BOOL))
CHECKPOINT = struct(
    F("enabled", BOOL, omitempty=False),
    F("mode", STRING),
    F("startupPolicy", STRING),
    F("deletionPolicy", STRING),
    F("checkpointRef", ptr(STRING)),
    F("identity", ptr(ANY)),
    F("targetContainerName", STRING),
    F("job", ptr(ANY)),
)
EXPERIMENTAL = struct(
    F("gpuMemoryService", ptr(GMS)),
    F("failover", ptr(FAILOVER)),
    F("grove", ptr(GROVE)),
    F("checkpoint", ptr(CHECKPOINT)),
)
ROLE = struct(
    F("name", STRING, omitempty=False),
    F("replicas", ptr(INT)),
    F("providerOverride", ptr(PROVIDER_OVERRIDE)),
    F("podTemplate", ptr(POD_TEMPLATE)),
)


@cache
def dcd_spec(version: str) -> GoType:
    """``DynamoComponentDeploymentSpec`` of operator release ``version``."""
    multinode_fields = [F("nodeCount", INT, omitempty=False)]
    if at_least(version, "1.5") and not at_least(version, "1.6"):
        role = struct(F("providerOverride", ptr(PROVIDER_OVERRIDE)))
        multinode_fields += [F("leader", ptr(role)), F("worker", ptr(role))]
    fields: list[F] = [F("backendFramework", STRING)]
    if at_least(version, "1.5"):
        fields.append(F("providerOverride", ptr(PROVIDER_OVERRIDE)))
    fields += [F("name", STRING, omitempty=False), F("type", STRING)]
    if at_least(version, "1.4"):
        fields.append(F("runtimeVersionOverride", STRING))
    fields += [
        F("globalDynamoNamespace", BOOL),
        F("podTemplate", ptr(POD_TEMPLATE)),
        F("replicas", ptr(INT)),
        F("minAvailable", ptr(INT)),
        F("multinode", ptr(struct(*multinode_fields))),
    ]
    if at_least(version, "1.6"):
        fields += [F("roles", slice_of(ROLE)), F("lpx", ptr(ANY))]
    fields += [
        F("sharedMemorySize", ptr(QUANTITY)),
        F("modelRef", ptr(MODEL_REF)),
        F("scalingAdapter", ptr(struct())),
        F("eppConfig", ptr(EPP_CONFIG)),
        F("frontendSidecar", ptr(STRING)),
        F("compilationCache", ptr(COMPILATION_CACHE)),
        F("topologyConstraint", ptr(TOPOLOGY)),
        F("experimental", ptr(EXPERIMENTAL)),
    ]
    return struct(*fields)


@cache
def worker_template(version: str) -> GoType:
    """The per-worker value ``ComputeDGDWorkersSpecHash`` marshals (dyn/hash.go)."""
    fields = [F("labels", STRING_MAP), F("annotations", STRING_MAP)]
    if at_least(version, "1.4"):
        fields.append(F("runtimeVersion", STRING))
    fields.append(F("spec", dcd_spec(version), omitempty=False))
    return struct(*fields)


# ---- v1alpha1: the legacy v1 hash input (api/v1alpha1/legacy_worker_hash.go) ----------------
ALPHA_EXTRA_POD_SPEC = struct(
    # *corev1.PodSpec is inlined (its fields only when set; ExtraPodSpec's MarshalJSON drops a
    # nil containers list), then the main container.
    *(F(f.name, f.type) for f in POD_SPEC.fields),
    F("mainContainer", ptr(CONTAINER)),
)
ALPHA_SHARED_SPEC = struct(
    F("providerOverride", ptr(PROVIDER_OVERRIDE)),
    F("annotations", STRING_MAP),
    F("labels", STRING_MAP),
    F("serviceName", STRING),
    F("componentType", STRING),
    F("subComponentType", STRING),
    F("runtimeVersionOverride", STRING),
    F("dynamoNamespace", ptr(STRING)),
    F("globalDynamoNamespace", BOOL),
    F("resources", ptr(ANY)),
    F("autoscaling", ptr(ANY)),
    F("envs", slice_of(ENV_VAR)),
    F("envFromSecret", ptr(STRING)),
    F("volumeMounts", slice_of(ANY)),
    F("ingress", ptr(ANY)),
    F("modelRef", ptr(MODEL_REF)),
    F("sharedMemory", ptr(ANY)),
    F("extraPodMetadata", ptr(struct(F("annotations", STRING_MAP), F("labels", STRING_MAP)))),
    F("extraPodSpec", ptr(ALPHA_EXTRA_POD_SPEC)),
    F("livenessProbe", ptr(PROBE)),
    F("readinessProbe", ptr(PROBE)),
    F("replicas", ptr(INT)),
    F("minAvailable", ptr(INT)),
    F("multinode", ptr(ANY)),
    F("scalingAdapter", ptr(ANY)),
    F("eppConfig", ptr(ANY)),
    F("frontendSidecar", ptr(ANY)),
    F("checkpoint", ptr(ANY)),
    F("topologyConstraint", ptr(TOPOLOGY)),
    F("gpuMemoryService", ptr(ANY)),
    F("failover", ptr(ANY)),
)
ALPHA_SERVICES = map_of(ALPHA_SHARED_SPEC)
__all__ = ["ALPHA_SERVICES", "OBJECT_META", "dcd_spec", "worker_template"]
