"""The operator's envtest admission table, replayed through our pipeline.

Cases restate the rows of the operator's DGD admission table
(``dynamographdeployment_validation_envtest_test.go``) in our own structure: a baseline graph
(frontend + worker, images tagged 1.1.0, ``runtimeVersionOverride: 1.1.0``), one change, and the
error list the API server returned. As on the API server, schema and CEL errors stop the request
before the validating webhook, so the compared list is the first failing stage: structural
schema + CEL errors when there are any, otherwise the webhook's. Order is compared too, because
the operator's table compares the lists element by element.

Rows that need cluster state (ClusterTopologyBinding lookups, the request's user name), a
v1alpha1 request, or features of a newer operator than the bundled CRD are not ported; see
``NOT_PORTED``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile, version_key
from kubectl_dgd.core.validate.pipeline import validate_object

IMAGE = "registry.example/runtime:1.1.0"
IMMUTABLE_TOPOLOGY = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate "
    "the DynamoGraphDeployment to change topology constraints"
)
IMMUTABLE_KV = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate "
    "the DynamoGraphDeployment to change the KV transfer policy"
)
GMS_TOGGLE = (
    "the inter-pod GMS layout cannot be toggled after creation; delete and recreate the "
    "DynamoGraphDeployment"
)
SCALE_FORBIDDEN = (
    "Forbidden: cannot be modified directly when scaling adapter is enabled; scale or update the "
    "related DynamoGraphDeploymentScalingAdapter instead"
)
LONG_DGD = "test-graph-" + "x" * 50
BOUNDARY_NAME = "w" + "x" * 36
TOO_LONG_NAME = BOUNDARY_NAME + "x"
POWER_DRA = (
    'Forbidden: cannot be combined with annotation "dynamo.nvidia.com/gpu-power-limit": '
    "power-aware planning does not support DRA-backed device allocation"
)
POWER = "spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]"

Mutation = Callable[[dict[str, Any]], object]


def baseline() -> dict[str, Any]:
    def part(name: str, type_: str, replicas: int) -> dict[str, Any]:
        return {
            "name": name,
            "type": type_,
            "runtimeVersionOverride": "1.1.0",
            "replicas": replicas,
            "podTemplate": {"spec": {"containers": [{"name": "main", "image": IMAGE}]}},
        }

    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "test-graph", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "components": [part("frontend", "frontend", 1), part("worker", "worker", 2)],
        },
    }


def worker(obj: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in obj["spec"]["components"] if c["name"] == "worker")


def frontend(obj: dict[str, Any]) -> dict[str, Any]:
    return obj["spec"]["components"][0]  # type: ignore[no-any-return]


def experimental(component: dict[str, Any]) -> dict[str, Any]:
    return component.setdefault("experimental", {})  # type: ignore[no-any-return]


def gms(mode: str, component: Callable[[dict[str, Any]], dict[str, Any]] = worker) -> Mutation:
    """The component gets a GMS block and a main container with one GPU (the table's helper)."""

    def apply(obj: dict[str, Any]) -> None:
        target = component(obj)
        target["experimental"] = {"gpuMemoryService": {"mode": mode}}
        target["podTemplate"] = {
            "spec": {
                "containers": [
                    {
                        "name": "main",
                        "image": IMAGE,
                        "resources": {"limits": {"nvidia.com/gpu": "1"}},
                    }
                ]
            }
        }

    return apply


def power(watts: str, gpus: str, nodes: int) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        target = worker(obj)
        template = target["podTemplate"]
        template.setdefault("metadata", {})["annotations"] = {
            "dynamo.nvidia.com/gpu-power-limit": watts
        }
        template["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": gpus}}
        target["multinode"] = {"nodeCount": nodes}

    return apply


def claim(name: str, **source: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        spec = worker(obj)["podTemplate"]["spec"]
        spec["containers"][0].setdefault("resources", {})["claims"] = [{"name": name}]
        spec["resourceClaims"] = [{"name": name, **source}]

    return apply


def chain(*steps: Mutation) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        for step in steps:
            step(obj)

    return apply


def annotate(**values: str) -> Mutation:
    names = {
        "origin": "nvidia.com/dynamo-operator-origin-version",
        "vllm": "nvidia.com/vllm-distributed-executor-backend",
        "strategy": "nvidia.com/grove-update-strategy",
        "discovery": "nvidia.com/dynamo-kube-discovery-mode",
        "grove": "nvidia.com/enable-grove",
        "provider": "nvidia.com/workload-provider",
    }

    def apply(obj: dict[str, Any]) -> None:
        obj["metadata"]["annotations"] = {names[k]: v for k, v in values.items()}

    return apply


def set_worker(**values: Any) -> Mutation:
    """Set worker fields; None removes one (Go's omitempty leaves an empty value out)."""

    def apply(obj: dict[str, Any]) -> None:
        target = worker(obj)
        for key, value in values.items():
            if value is None:
                target.pop(key, None)
            else:
                target[key] = copy.deepcopy(value)

    return apply


def set_spec(**values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        obj["spec"].update(copy.deepcopy(values))

    return apply


def worker_experimental(**values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        experimental(worker(obj)).update(copy.deepcopy(values))

    return apply


def kv(**policy: Any) -> Mutation:
    return set_spec(experimental={"kvTransferPolicy": policy})


def restart(strategy: str | None, *order: str, id_: str = "roll") -> Mutation:
    block: dict[str, Any] = {"id": id_}
    if strategy is not None:
        block["strategy"] = {"type": strategy, **({"order": list(order)} if order else {})}
    return set_spec(restart=block)


def rolling(phase: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        obj["status"] = {"rollingUpdate": {"phase": phase}}

    return apply


def nothing(obj: dict[str, Any]) -> None:
    del obj


@dataclass(frozen=True)
class Row:
    """One table row: ``change`` applied to the baseline; ``old`` set makes it an update."""

    name: str
    change: Mutation
    expected: list[str] = field(default_factory=list)
    old: Mutation | None = None
    grove: bool = True
    checkpoint: bool = True
    lpx: bool = True
    # The operator seeds the stored object through its webhooks, which stamp the provider.
    stored_provider: str | None = "grove"
    # The operator releases whose table has this row (the rows above are the 1.5 table's; the
    # ordinary rows carry on into the 1.6 table beside the LPX, roles and pathway rows).
    versions: tuple[str, ...] = ("1.5", "1.6")
    # Where a release answers differently: its error list (the reference names the rule change).
    per_version: dict[str, list[str]] = field(default_factory=dict)

    def expected_in(self, version: str) -> list[str]:
        return self.per_version.get(version, self.expected)


SPEC_TOPOLOGY = {"clusterTopologyName": "grove-topology", "packDomain": "rack"}
ZONE_TOPOLOGY = {"clusterTopologyName": "grove-topology", "packDomain": "zone"}
LABEL_KV = {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}
LABEL_KEY_PATTERN = (
    "'^(([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?"
    "([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$'"
)
DOMAIN_PATTERN = "'^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'"

CREATE_ROWS = [
    Row("valid deployment with components", nothing),
    Row(
        "main image is required when the pod template is absent",
        lambda o: worker(o).pop("podTemplate"),
        ["spec.components[1].podTemplate.spec.containers: Required value: is required"],
    ),
    Row(
        "custom image requires a runtime version override",
        set_worker(
            runtimeVersionOverride=None,
            podTemplate={
                "spec": {
                    "containers": [{"name": "main", "image": "registry.example/runtime:custom"}]
                }
            },
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the "
            "specified main container image has no parseable semantic-version tag"
        ],
    ),
    Row(
        "no components",
        lambda o: o["spec"].pop("components"),
        ["spec.components: Required value: must have at least one component"],
    ),
    Row(
        "component replicas must be non-negative",
        set_worker(replicas=-1),
        [
            "spec.components[1].replicas: Invalid value: -1: spec.components[1].replicas in body "
            "should be greater than or equal to 0",
            "spec.components[1]: Invalid value: minAvailable must be less than or equal to "
            "replicas unless replicas is 0",
        ],
        # 1.6 defaults no minAvailable, so the CEL comparison has nothing to compare.
        per_version={
            "1.6": [
                "spec.components[1].replicas: Invalid value: -1: spec.components[1].replicas in body "
                "should be greater than or equal to 0"
            ]
        },
    ),
    Row(
        "component minAvailable requires Grove",
        set_worker(minAvailable=1),
        [
            "spec.components[1].minAvailable: Forbidden: is currently supported only for "
            "Grove-backed DynamoGraphDeployment components"
        ],
        grove=False,
    ),
    Row(
        "restart on create is rejected by CEL",
        restart("Parallel", "frontend", "worker"),
        [
            "spec: Invalid value: spec.restart must be unset on create; set spec.restart.id "
            "after creation to request a restart"
        ],
    ),
    Row(
        "component topology constraint requires deployment topology",
        set_worker(topologyConstraint={"packDomain": "rack"}),
        [
            "spec.topologyConstraint: Required value: is required when any component topology "
            "constraint is set"
        ],
    ),
    Row(
        "inter-pod GMS requires vLLM backend",
        chain(set_spec(backendFramework="sglang"), gms("InterPod")),
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": '
            "the inter-pod GMS layout is currently supported only for vLLM (detected backend: "
            "sglang)"
        ],
    ),
    Row(
        "KV transfer policy selector is rejected by CEL",
        kv(domain="rack"),
        [
            "spec.experimental.kvTransferPolicy: Invalid value: exactly one of labelKey or "
            "clusterTopologyName is required"
        ],
    ),
    Row(
        "intra-pod failover requires container discovery",
        chain(gms("IntraPod"), worker_experimental(failover={"mode": "IntraPod"})),
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Invalid value: "": '
            'must be "container" when intra-pod failover is configured'
        ],
    ),
    Row(
        "checkpoint job with checkpointRef is rejected by CEL",
        worker_experimental(
            checkpoint={"enabled": True, "checkpointRef": "existing-checkpoint", "job": {}}
        ),
        [
            "spec.components[1].experimental.checkpoint: Invalid value: checkpoint.job cannot "
            "be set when checkpointRef is specified"
        ],
    ),
    Row(
        "GMS requires GPU resources on the main container",
        worker_experimental(gpuMemoryService={"mode": "IntraPod"}),
        [
            "spec.components[1].experimental.gpuMemoryService: Forbidden: GPU memory service "
            "requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1"
        ],
    ),
    Row(
        "component name is required by the schema",
        lambda o: worker(o).update(name=""),
        [
            'spec.components[1].name: Invalid value: "": spec.components[1].name in body should '
            "be at least 1 chars long"
        ],
    ),
    Row(
        "component names are unique case-insensitively in CEL",
        lambda o: (frontend(o).update(name="worker"), worker(o).update(name="WORKER")),
        ["spec.components: Invalid value: component names must be unique case-insensitively"],
    ),
    Row(
        "compilation cache mount requires a PVC name in the schema",
        set_worker(compilationCache={"pvcName": ""}),
        [
            'spec.components[1].compilationCache.pvcName: Invalid value: "": '
            "spec.components[1].compilationCache.pvcName in body should be at least 1 chars long"
        ],
    ),
    Row(
        "sidecars must provide an image in CEL",
        set_worker(
            podTemplate={
                "spec": {"containers": [{"name": "main", "image": IMAGE}, {"name": "metrics"}]}
            }
        ),
        [
            "spec.components[1].podTemplate.spec.containers[1]: Invalid value: sidecar "
            "containers must specify a non-empty image"
        ],
    ),
    Row(
        "init containers must provide an image in CEL",
        set_worker(
            podTemplate={
                "spec": {
                    "containers": [{"name": "main", "image": IMAGE}],
                    "initContainers": [{"name": "prepare"}],
                }
            }
        ),
        [
            "spec.components[1].podTemplate.spec.initContainers[0]: Invalid value: init "
            "containers must specify a non-empty image"
        ],
    ),
    Row(
        "pod template backend annotation is validated by CEL",
        set_worker(
            podTemplate={
                "metadata": {
                    "annotations": {"nvidia.com/vllm-distributed-executor-backend": "invalid"}
                },
                "spec": {"containers": [{"name": "main", "image": IMAGE}]},
            }
        ),
        [
            "spec.components[1].podTemplate.metadata.annotations: Invalid value: podTemplate "
            "backend annotation must be mp or ray, case-insensitively"
        ],
    ),
    Row(
        "valid pod template backend and discovery annotations are admitted",
        set_worker(
            podTemplate={
                "metadata": {
                    "annotations": {
                        "nvidia.com/vllm-distributed-executor-backend": "RaY",
                        "nvidia.com/dynamo-kube-discovery-mode": "container",
                    }
                },
                "spec": {"containers": [{"name": "main", "image": IMAGE}]},
            }
        ),
    ),
    Row(
        "frontend sidecar must reference an existing container",
        set_worker(frontendSidecar="missing"),
        [
            'spec.components[1].frontendSidecar: Invalid value: "missing": must match a '
            "podTemplate.spec.containers name"
        ],
    ),
    Row(
        "pod template container counts are not artificially bounded",
        set_worker(
            podTemplate={
                "spec": {
                    "containers": [{"name": "main", "image": IMAGE}]
                    + [{"name": f"sidecar-{i}", "image": "sidecar:latest"} for i in range(32)],
                    "initContainers": [
                        {"name": f"init-{i}", "image": "init:latest"} for i in range(32)
                    ],
                }
            }
        ),
    ),
    Row(
        "replicas below minAvailable are rejected by CEL",
        set_worker(replicas=1, minAvailable=2),
        [
            "spec.components[1]: Invalid value: minAvailable must be less than or equal to "
            "replicas unless replicas is 0"
        ],
    ),
    Row("valid replicas and minAvailable are admitted", set_worker(replicas=2, minAvailable=1)),
    Row("power tuple is accepted on create", power("300", "1", 2)),
    Row(
        "power annotation with intra-pod GMS DRA is rejected",
        chain(gms("IntraPod"), power("300", "1", 2)),
        [f"spec.components[1].experimental.gpuMemoryService: {POWER_DRA}"],
    ),
    Row(
        "power annotation with inter-pod GMS DRA is rejected",
        chain(gms("InterPod"), power("300", "1", 2)),
        [f"spec.components[1].experimental.gpuMemoryService: {POWER_DRA}"],
    ),
    Row(
        "power annotation with a DRA claim template is rejected",
        chain(power("300", "1", 2), claim("gpu", resourceClaimTemplateName="gpu-template")),
        [f"spec.components[1].podTemplate.spec.containers[0].resources.claims: {POWER_DRA}"],
    ),
    Row(
        "power annotation with a direct DRA claim is rejected",
        chain(power("300", "1", 2), claim("gpu", resourceClaimName="gpu-claim")),
        [f"spec.components[1].podTemplate.spec.containers[0].resources.claims: {POWER_DRA}"],
    ),
    Row(
        "DRA claim without power annotation is accepted",
        claim("device", resourceClaimTemplateName="device-template"),
    ),
    Row(
        "power annotation zero is rejected",
        power("0", "1", 2),
        [f'{POWER}: Invalid value: "0": must be greater than zero'],
    ),
    Row(
        "power annotation negative is rejected",
        power("-300", "1", 2),
        [f'{POWER}: Invalid value: "-300": must be greater than zero'],
    ),
    Row(
        "power annotation that is not an integer is rejected",
        power("300W", "1", 2),
        [f'{POWER}: Invalid value: "300W": must be a decimal integer'],
    ),
    Row(
        "power annotation with an init-container DRA claim is rejected",
        chain(
            power("300", "1", 2),
            lambda o: worker(o)["podTemplate"]["spec"].update(
                initContainers=[
                    {
                        "name": "init-gpu",
                        "image": "nvcr.io/nvidia/cuda:12.0-base",
                        "resources": {"claims": [{"name": "gpu"}]},
                    }
                ],
                resourceClaims=[{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}],
            ),
        ),
        [f"spec.components[1].podTemplate.spec.initContainers[0].resources.claims: {POWER_DRA}"],
    ),
    Row(
        "forceScalingGroup requires Grove",
        worker_experimental(grove={"forceScalingGroup": True}),
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Forbidden: is currently "
            "supported only for Grove-backed DynamoGraphDeployment components"
        ],
        grove=False,
    ),
    Row(
        "forceScalingGroup on a single-node component is admitted",
        worker_experimental(grove={"forceScalingGroup": True}),
    ),
    Row(
        "redundant forceScalingGroup on a multinode component is admitted",
        chain(
            set_worker(multinode={"nodeCount": 2}),
            worker_experimental(grove={"forceScalingGroup": True}),
        ),
    ),
    Row("multinode worker without roles is admitted", set_worker(multinode={"nodeCount": 4})),
    Row(
        "frontend cannot be multinode",
        lambda o: frontend(o).update(multinode={"nodeCount": 2}),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "planner cannot be multinode",
        lambda o: frontend(o).update(type="planner", multinode={"nodeCount": 2}),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "valid checkpoint configuration is admitted",
        worker_experimental(checkpoint={"enabled": True}),
    ),
    Row(
        "non-worker checkpoint is rejected",
        lambda o: experimental(frontend(o)).update(checkpoint={"enabled": True}),
        [
            "spec.components[0].experimental.checkpoint: Forbidden: checkpoint functionality is "
            "supported only for worker, prefill, and decode components"
        ],
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "checkpoint configuration requires the operator feature gate",
        worker_experimental(checkpoint={"enabled": True, "job": {"gmsClientContainers": ["main"]}}),
        [
            "spec.components[1].experimental.checkpoint: Forbidden: checkpoint functionality is "
            "disabled in the operator configuration",
            "spec.components[1].experimental.checkpoint.job.gmsClientContainers: Forbidden: "
            "requires gpuMemoryService to be set",
        ],
        checkpoint=False,
    ),
    Row(
        "conflicting KV-transfer selectors are rejected by CEL",
        kv(
            labelKey="topology.kubernetes.io/zone",
            clusterTopologyName="grove-topology",
            domain="zone",
        ),
        [
            "spec.experimental.kvTransferPolicy: Invalid value: exactly one of labelKey or "
            "clusterTopologyName is required"
        ],
    ),
    Row("label-key KV-transfer policy is admitted", kv(**LABEL_KV)),
    Row(
        "preferred KV-transfer enforcement without weight is rejected by CEL",
        kv(**LABEL_KV, enforcement="preferred"),
        [
            "spec.experimental.kvTransferPolicy: Invalid value: preferredWeight is required when "
            "enforcement is preferred"
        ],
    ),
    Row(
        "required KV-transfer enforcement with weight is rejected by CEL",
        kv(**LABEL_KV, enforcement="required", preferredWeight=1),
        [
            "spec.experimental.kvTransferPolicy: Invalid value: preferredWeight may only be set "
            "when enforcement is preferred"
        ],
    ),
    Row(
        "valid preferred KV-transfer enforcement is admitted",
        kv(**LABEL_KV, enforcement="preferred", preferredWeight=1),
    ),
    Row(
        "KV-transfer label key format is validated by the schema",
        kv(labelKey="bad prefix/zone", domain="zone"),
        [
            'spec.experimental.kvTransferPolicy.labelKey: Invalid value: "bad prefix/zone": '
            "spec.experimental.kvTransferPolicy.labelKey in body should match " + LABEL_KEY_PATTERN
        ],
    ),
    Row(
        "KV-transfer label key name segment is validated by the schema",
        kv(labelKey="topology.kubernetes.io/-zone", domain="zone"),
        [
            "spec.experimental.kvTransferPolicy.labelKey: Invalid value: "
            '"topology.kubernetes.io/-zone": spec.experimental.kvTransferPolicy.labelKey in body '
            "should match " + LABEL_KEY_PATTERN
        ],
    ),
    Row(
        "KV-transfer cluster topology name must be a DNS-1123 subdomain",
        kv(clusterTopologyName="Bad_Name", domain="zone"),
        [
            'spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: "Bad_Name": '
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            "'-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ],
    ),
    Row(
        "KV-transfer domain is required by the schema",
        kv(labelKey="topology.kubernetes.io/zone", domain=""),
        [
            'spec.experimental.kvTransferPolicy.domain: Invalid value: "": '
            "spec.experimental.kvTransferPolicy.domain in body should match " + DOMAIN_PATTERN
        ],
    ),
    Row(
        "KV-transfer domain format is validated by the schema",
        kv(labelKey="topology.kubernetes.io/zone", domain="Zone"),
        [
            'spec.experimental.kvTransferPolicy.domain: Invalid value: "Zone": '
            "spec.experimental.kvTransferPolicy.domain in body should match " + DOMAIN_PATTERN
        ],
    ),
    Row(
        "KV-transfer enforcement enum is validated by the schema",
        kv(**LABEL_KV, enforcement="sometimes"),
        [
            'spec.experimental.kvTransferPolicy.enforcement: Unsupported value: "sometimes": '
            'supported values: "required", "preferred"'
        ],
    ),
    Row(
        "KV-transfer preferred weight range is validated by the schema",
        kv(**LABEL_KV, enforcement="preferred", preferredWeight=1.2),
        [
            "spec.experimental.kvTransferPolicy.preferredWeight: Invalid value: 1.2: "
            "spec.experimental.kvTransferPolicy.preferredWeight in body should be less than or "
            "equal to 1"
        ],
    ),
    Row(
        "inter-pod GMS client containers are rejected by CEL",
        chain(
            gms("InterPod"),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["metrics"]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService: Invalid value: "
            "extraClientContainers is only supported with mode=IntraPod"
        ],
    ),
    Row(
        "non-empty GMS extra client pods are rejected by CEL",
        chain(
            gms("InterPod"),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientPods=[{"name": "client", "podTemplate": {"spec": {"containers": []}}}]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService: Invalid value: extraClientPods is "
            "reserved for inter-pod GMS and is not implemented yet"
        ],
    ),
    Row("valid GMS configuration is admitted", gms("IntraPod")),
    Row(
        "GMS rejects the frontend component",
        gms("IntraPod", frontend),
        [
            "spec.components[0].experimental.gpuMemoryService: Forbidden: GPU memory service is "
            "only supported for worker, prefill, or decode components"
        ],
    ),
    Row(
        "GMS client container names are validated by the schema",
        chain(
            gms("IntraPod"),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["Bad_Name"]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService.extraClientContainers[0]: Invalid "
            'value: "Bad_Name": spec.components[1].experimental.gpuMemoryService.'
            "extraClientContainers[0] in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"
        ],
    ),
    Row(
        "GMS client container references must resolve",
        chain(
            gms("IntraPod"),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["missing-b", "missing-a"]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService.extraClientContainers[0]: Invalid "
            'value: "missing-b": does not name a container in podTemplate.spec.containers',
            "spec.components[1].experimental.gpuMemoryService.extraClientContainers[1]: Invalid "
            'value: "missing-a": does not name a container in podTemplate.spec.containers',
        ],
    ),
    Row(
        "GMS client container references must be unique",
        chain(
            gms("IntraPod"),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"].append(
                {"name": "loader", "image": "loader:latest"}
            ),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["loader", "loader"]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService.extraClientContainers[1]: "
            'Duplicate value: "loader"'
        ],
    ),
    Row(
        "intra-pod failover requires GMS",
        chain(annotate(discovery="container"), worker_experimental(failover={"mode": "IntraPod"})),
        [
            "spec.components[1].experimental.failover: Forbidden: gpuMemoryService is required "
            'when failover mode is "IntraPod"'
        ],
    ),
    Row(
        "failover mode must match GMS mode",
        chain(gms("IntraPod"), worker_experimental(failover={"mode": "InterPod", "numShadows": 1})),
        [
            'spec.components[1].experimental.failover.mode: Invalid value: "InterPod": must match '
            'gpuMemoryService.mode "IntraPod"'
        ],
    ),
    Row(
        "intra-pod failover shadow maximum is validated by the schema",
        chain(
            annotate(discovery="container"),
            gms("IntraPod"),
            worker_experimental(failover={"mode": "IntraPod", "numShadows": 2}),
        ),
        [
            "spec.components[1].experimental.failover.numShadows: Invalid value: 2: "
            "spec.components[1].experimental.failover.numShadows in body should be less than or "
            "equal to 1"
        ],
    ),
    Row(
        "inter-pod failover requires GMS",
        worker_experimental(failover={"mode": "InterPod", "numShadows": 1}),
        [
            "spec.components[1].experimental.failover: Forbidden: gpuMemoryService is required "
            'when failover mode is "InterPod"',
            "spec.components[1].experimental.failover: Forbidden: GMS failover requires at least 1 "
            "GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
        ],
    ),
    Row(
        "inter-pod failover shadow-count minimum is validated by the schema",
        chain(
            gms("InterPod"), worker_experimental(failover={"mode": "InterPod", "numShadows": -1})
        ),
        [
            "spec.components[1].experimental.failover.numShadows: Invalid value: -1: "
            "spec.components[1].experimental.failover.numShadows in body should be greater than "
            "or equal to 1"
        ],
    ),
    Row(
        "inter-pod failover rejects the frontend component",
        lambda o: experimental(frontend(o)).update(failover={"mode": "InterPod", "numShadows": 1}),
        [
            "spec.components[0].experimental.failover: Forbidden: gpuMemoryService is required "
            'when failover mode is "InterPod"',
            "spec.components[0].experimental.failover: Forbidden: GMS failover requires at least 1 "
            "GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
            "spec.components[0].experimental.failover: Forbidden: GMS failover is not supported "
            'for component type "frontend"',
        ],
    ),
    Row(
        "EPP config without a source is rejected by CEL",
        set_worker(type="epp", eppConfig={}),
        [
            "spec.components[1].eppConfig: Invalid value: exactly one of configMapRef or config "
            "must be specified"
        ],
    ),
    Row(
        "EPP config with both sources is rejected by CEL",
        set_worker(
            type="epp",
            eppConfig={
                "configMapRef": {"name": "epp", "key": ""},
                "config": {"plugins": [], "schedulingProfiles": []},
            },
        ),
        [
            "spec.components[1].eppConfig: Invalid value: exactly one of configMapRef or config "
            "must be specified"
        ],
    ),
    Row(
        "legacy EPP with a config map is admitted",
        set_worker(type="epp", replicas=1, eppConfig={"configMapRef": {"name": "epp", "key": ""}}),
    ),
    Row(
        "priority class requires Grove",
        set_spec(priorityClassName="high-priority"),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but Grove is disabled "
            "in the operator configuration"
        ],
        grove=False,
        versions=("1.3", "1.5", "1.6"),
        # 1.4+ stamps the provider on create, and the stored annotation decides first.
        per_version={
            v: [
                "spec.priorityClassName: Forbidden: requires the Grove pathway, but workload "
                'provider "component" is selected'
            ]
            for v in ("1.5", "1.6")
        },
    ),
    Row("priority class is allowed with Grove", set_spec(priorityClassName="high-priority")),
    Row(
        "minAvailable must be positive",
        set_worker(minAvailable=0),
        [
            "spec.components[1].minAvailable: Invalid value: 0: spec.components[1].minAvailable "
            "in body should be greater than or equal to 1"
        ],
    ),
    Row(
        "replicas zero can keep minAvailable for scale-up intent",
        set_worker(replicas=0, minAvailable=2),
    ),
    Row(
        "Grove resource name length accepts the boundary",
        lambda o: (o["metadata"].update(name=LONG_DGD), worker(o).update(name=BOUNDARY_NAME)),
    ),
    Row(
        "Grove resource name length rejects overflow",
        lambda o: (o["metadata"].update(name=LONG_DGD), worker(o).update(name=TOO_LONG_NAME)),
        [
            f'spec.components[1].name: Invalid value: "{TOO_LONG_NAME}": combined resource name '
            "length 46 exceeds the 45-character pod-name limit (PCS name + component name); "
            f'shorten DynamoGraphDeployment name "{LONG_DGD}" or component name "{TOO_LONG_NAME}"'
        ],
    ),
    Row(
        "Grove resource name length is skipped outside Grove",
        lambda o: (o["metadata"].update(name=LONG_DGD), worker(o).update(name=TOO_LONG_NAME)),
        grove=False,
    ),
    Row(
        "spec pack domain format is validated by the schema",
        set_spec(
            topologyConstraint={"clusterTopologyName": "grove-topology", "packDomain": "Bad_Domain"}
        ),
        [
            'spec.topologyConstraint.packDomain: Invalid value: "Bad_Domain": '
            "spec.topologyConstraint.packDomain in body should match " + DOMAIN_PATTERN
        ],
    ),
    Row(
        "component topology pack domain is required by the schema",
        chain(
            set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
            lambda o: frontend(o).update(topologyConstraint={"packDomain": ""}),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        [
            'spec.components[0].topologyConstraint.packDomain: Invalid value: "": '
            "spec.components[0].topologyConstraint.packDomain in body should match "
            + DOMAIN_PATTERN
        ],
    ),
    Row(
        "deployment topology without pack domain requires a component topology",
        set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
        [
            "spec.topologyConstraint.packDomain: Required value: is required when no component "
            "topologyConstraint is set"
        ],
    ),
    Row("deployment pack domain can be inherited", set_spec(topologyConstraint=SPEC_TOPOLOGY)),
    Row(
        "component errors come before topology errors, as the operator lists them",
        chain(set_worker(frontendSidecar="missing", topologyConstraint={"packDomain": "rack"})),
        [
            'spec.components[1].frontendSidecar: Invalid value: "missing": must match a '
            "podTemplate.spec.containers name",
            "spec.topologyConstraint: Required value: is required when any component topology "
            "constraint is set",
        ],
    ),
    Row(
        "valid Grove root provider override is admitted and defaulted",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {
                    "spec": {
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack"},
                            }
                        }
                    }
                },
            }
        ),
    ),
    Row(
        "provider override target must match its context",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "target": "PodCliqueTemplateSpec",
                "value": {
                    "spec": {"template": {"topologyConstraint": {"topologyName": "grove-topology"}}}
                },
            }
        ),
        [
            'spec.providerOverride.target: Invalid value: "PodCliqueTemplateSpec": must match the '
            'provider-context target "PodCliqueSet"'
        ],
    ),
    Row(
        "provider override rejects Dynamo-owned fields",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "target": "PodCliqueSet",
                "value": {
                    "spec": {
                        "replicas": 3,
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack"},
                            }
                        },
                    }
                },
            }
        ),
        [
            "spec.providerOverride.value.spec.replicas: Forbidden: is Dynamo-owned or not enabled "
            "for provider override"
        ],
    ),
    Row(
        "typed and provider-native Grove topology cannot be combined",
        set_spec(
            topologyConstraint=SPEC_TOPOLOGY,
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "target": "PodCliqueSet",
                "value": {
                    "spec": {
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack"},
                            }
                        }
                    }
                },
            },
        ),
        [
            "spec.providerOverride.value: Forbidden: cannot be combined with "
            "spec.topologyConstraint or components[].topologyConstraint; use either the typed "
            "topology API or provider-native Grove topology overrides"
        ],
    ),
    Row(
        "component workload provider rejects provider overrides",
        chain(
            annotate(provider="component", grove="false"),
            set_spec(
                providerOverride={
                    "apiVersion": "grove.io/v1alpha1",
                    "target": "PodCliqueSet",
                    "value": {"spec": {"template": {"topologyConstraint": {"topologyName": "t"}}}},
                }
            ),
        ),
        [
            'spec.providerOverride: Forbidden: requires workload provider "grove", but '
            '"component" is selected'
        ],
    ),
    Row("origin version accepts semver", annotate(origin="1.2.3")),
    Row(
        "origin version rejects non-semver",
        annotate(origin="not-semver"),
        [
            "metadata.annotations[nvidia.com/dynamo-operator-origin-version]: Invalid value: "
            '"not-semver": must be valid semver'
        ],
    ),
    Row("vLLM backend annotation accepts mp", annotate(vllm="mp")),
    Row("vLLM backend annotation accepts ray case-insensitively", annotate(vllm="RAY")),
    Row(
        "vLLM backend annotation rejects an unknown value",
        annotate(vllm="typo"),
        [
            'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "typo": '
            'must be "mp" or "ray"'
        ],
    ),
    Row("Grove update strategy accepts RollingRecreate", annotate(strategy="RollingRecreate")),
    Row("Grove update strategy accepts OnDelete", annotate(strategy="OnDelete")),
    *[
        Row(
            f"Grove update strategy rejects {value!r}",
            annotate(strategy=value),
            [
                f'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "{value}": '
                'supported values: "RollingRecreate", "OnDelete"'
            ],
            per_version={
                "1.6": [
                    f'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "{value}": '
                    'supported values: "Coherent", "RollingRecreate", "OnDelete"'
                ]
            },
        )
        for value in ("ondelete", " OnDelete ", "BlueGreen")
    ],
    Row("discovery mode accepts pod", annotate(discovery="pod")),
    Row("discovery mode accepts container", annotate(discovery="container")),
    Row(
        "discovery mode rejects an unknown value",
        annotate(discovery="endpoint"),
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Unsupported value: "endpoint": '
            'supported values: "pod", "container"'
        ],
    ),
    Row(
        "independent root errors aggregate in the operator's order",
        chain(
            lambda o: o["spec"].pop("components"),
            annotate(origin="not-semver", vllm="invalid", discovery="invalid"),
        ),
        [
            "metadata.annotations[nvidia.com/dynamo-operator-origin-version]: Invalid value: "
            '"not-semver": must be valid semver',
            'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "invalid": '
            'must be "mp" or "ray"',
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Unsupported value: "invalid": '
            'supported values: "pod", "container"',
            "spec.components: Required value: must have at least one component",
        ],
    ),
]


def drop_power(obj: dict[str, Any]) -> None:
    worker(obj)["podTemplate"]["metadata"]["annotations"].pop("dynamo.nvidia.com/gpu-power-limit")


def extra_component(obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "extra",
        "replicas": 1,
        "runtimeVersionOverride": "1.1.0",
        "podTemplate": {
            "spec": {
                "containers": [
                    {
                        "name": "main",
                        "image": IMAGE,
                        "env": [{"name": "TOKEN", "value": "do-not-leak-this-value"}],
                    }
                ]
            }
        },
    }


UPDATE_ROWS = [
    Row(
        "valid update is admitted",
        lambda o: o["metadata"].update(labels={"updated": "true"}),
        old=nothing,
    ),
    Row(
        "component names that collide case-insensitively are rejected on update",
        lambda o: frontend(o).update(name="WORKER"),
        ["spec.components: Invalid value: component names must be unique case-insensitively"],
        old=nothing,
    ),
    Row(
        "unchanged minAvailable update is admitted",
        set_worker(minAvailable=1),
        old=set_worker(minAvailable=1),
    ),
    Row(
        "changed minAvailable is rejected by CEL",
        set_worker(minAvailable=2),
        ["spec.components[1]: Invalid value: minAvailable is immutable after creation"],
        old=set_worker(minAvailable=1),
    ),
    Row(
        "type change is rejected by CEL",
        set_worker(type="epp"),
        ["spec.components[1]: Invalid value: type is immutable after it is set"],
        old=nothing,
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "removed minAvailable is restored by defaulting",
        nothing,
        old=set_worker(minAvailable=1),
        # 1.6 defaults no minAvailable.
        versions=("1.5",),
    ),
    Row(
        "image change to a custom tag requires a runtime version override",
        set_worker(
            runtimeVersionOverride=None,
            podTemplate={
                "spec": {
                    "containers": [{"name": "main", "image": "registry.example/runtime:custom"}]
                }
            },
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the "
            "specified main container image has no parseable semantic-version tag"
        ],
        old=set_worker(runtimeVersionOverride=None),
    ),
    Row(
        "unchanged legacy custom image is ratcheted",
        chain(
            set_worker(runtimeVersionOverride=None),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"][0].update(
                image="registry.example/runtime:custom"
            ),
            lambda o: o["metadata"].update(labels={"updated": "true"}),
        ),
        old=chain(
            set_worker(runtimeVersionOverride=None),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"][0].update(
                image="registry.example/runtime:custom"
            ),
        ),
        stored_provider=None,
    ),
    Row(
        "power annotation cannot be added to a DRA component",
        chain(power("300", "1", 2), claim("device", resourceClaimTemplateName="device-template")),
        [f"spec.components[1].podTemplate.spec.containers[0].resources.claims: {POWER_DRA}"],
        old=claim("device", resourceClaimTemplateName="device-template"),
    ),
    Row(
        "power annotation change is rejected",
        power("350", "1", 2),
        [f'{POWER}: Invalid value: "350": field is immutable'],
        old=power("300", "1", 2),
    ),
    Row(
        "power annotation addition is rejected",
        power("300", "1", 2),
        [f'{POWER}: Invalid value: "300": field is immutable'],
        old=chain(power("300", "1", 2), drop_power),
    ),
    Row(
        "power annotation removal is rejected",
        chain(power("300", "1", 2), drop_power),
        [f"{POWER}: Invalid value: null: field is immutable"],
        old=power("300", "1", 2),
    ),
    Row(
        "effective GPU change under a power annotation is rejected",
        power("300", "2", 2),
        [
            "spec.components[1].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]: "
            'Invalid value: "2": field is immutable'
        ],
        old=power("300", "1", 2),
    ),
    Row(
        "GPU request change is allowed when the limit is unchanged",
        chain(
            power("300", "1", 2),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"][0]["resources"].update(
                requests={"nvidia.com/gpu": "8"}
            ),
        ),
        old=power("300", "1", 2),
    ),
    Row(
        "node count change under a power annotation is rejected",
        power("300", "1", 3),
        ["spec.components[1].multinode.nodeCount: Invalid value: 3: field is immutable"],
        old=power("300", "1", 2),
    ),
    Row(
        "unrelated update of a power component is admitted",
        chain(
            power("300", "1", 2),
            set_worker(replicas=2),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"][0].update(
                image="registry.example/runtime:1.2.0"
            ),
        ),
        old=power("300", "1", 2),
    ),
    Row(
        "GPU change of an unannotated component is allowed",
        lambda o: worker(o)["podTemplate"]["spec"]["containers"][0].update(
            resources={"limits": {"nvidia.com/gpu": "2"}}
        ),
        old=nothing,
    ),
    Row(
        "GMS snapshot compatibility is revalidated on update",
        chain(gms("InterPod"), worker_experimental(checkpoint={"enabled": True})),
        [
            "spec.components[1].experimental.checkpoint: Forbidden: Snapshot with "
            "gpuMemoryService.mode=InterPod is unsupported"
        ],
        old=gms("InterPod"),
    ),
    Row(
        "first provider override can be added",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "target": "PodCliqueSet",
                "value": {
                    "spec": {
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack"},
                            }
                        }
                    }
                },
            }
        ),
        old=nothing,
    ),
    Row(
        "provider override requires a materialized workload provider",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "target": "PodCliqueSet",
                "value": {
                    "spec": {
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack"},
                            }
                        }
                    }
                },
            }
        ),
        [
            "spec.providerOverride: Forbidden: requires controller-owned annotation "
            '"nvidia.com/workload-provider" to be materialized; wait for controller adoption and '
            "retry"
        ],
        old=nothing,
        stored_provider=None,
    ),
    Row(
        "unsupported stored workload provider is rejected",
        chain(
            annotate(provider="unknown"), lambda o: o["metadata"].update(labels={"updated": "true"})
        ),
        [
            'metadata.annotations[nvidia.com/workload-provider]: Unsupported value: "unknown": '
            'supported values: "component", "grove"'
        ],
        old=annotate(provider="unknown"),
        stored_provider=None,
    ),
    Row(
        "a user cannot materialize a legacy workload provider",
        annotate(provider="component"),
        [
            "metadata.annotations[nvidia.com/workload-provider]: Forbidden: may only be materialized by the Dynamo operator"
        ],
        old=nothing,
        stored_provider=None,
    ),
    Row(
        "workload provider cannot change",
        annotate(provider="grove"),
        [
            'metadata.annotations[nvidia.com/workload-provider]: Invalid value: "grove": field is immutable'
        ],
        old=annotate(provider="component", grove="false"),
        stored_provider=None,
    ),
    Row(
        "a Grove graph keeps Grove semantics when the gate is disabled",
        chain(
            annotate(provider="grove"),
            set_spec(priorityClassName="high-priority"),
            lambda o: o["metadata"].update(labels={"updated": "true"}),
        ),
        old=chain(annotate(provider="grove"), set_spec(priorityClassName="high-priority")),
        grove=False,
        stored_provider=None,
    ),
    Row(
        "a component graph keeps component semantics when Grove is enabled",
        chain(
            annotate(provider="component"),
            set_spec(priorityClassName="high-priority"),
            lambda o: o["metadata"].update(labels={"updated": "true"}),
        ),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but workload provider "
            '"component" is selected'
        ],
        old=chain(
            annotate(provider="component", grove="false"),
            set_spec(priorityClassName="high-priority"),
        ),
        stored_provider=None,
    ),
    Row(
        "adding a component is forbidden and does not echo env values",
        lambda o: o["spec"]["components"].append(extra_component(o)),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified "
            "after creation: components added: [extra]"
        ],
        old=nothing,
    ),
    Row(
        "removing a component is forbidden",
        lambda o: o["spec"]["components"].pop(),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified "
            "after creation: components removed: [worker]"
        ],
        old=nothing,
    ),
    Row(
        "adding and removing reports both sides",
        lambda o: o["spec"].update(components=[worker(o), extra_component(o)]),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified "
            "after creation: components added: [extra], components removed: [frontend]"
        ],
        old=nothing,
    ),
    Row(
        "reordering components is allowed", lambda o: o["spec"]["components"].reverse(), old=nothing
    ),
    Row(
        "an unchanged legacy frontend multinode survives an unrelated update",
        chain(
            lambda o: frontend(o).update(multinode={"nodeCount": 2}),
            lambda o: o["metadata"].update(labels={"updated": "true"}),
        ),
        old=lambda o: frontend(o).update(multinode={"nodeCount": 2}),
        stored_provider=None,
    ),
    Row(
        "a legacy multinode cannot set an unsupported component type",
        lambda o: frontend(o).update(multinode={"nodeCount": 2}),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
        old=lambda o: (frontend(o).pop("type"), frontend(o).update(multinode={"nodeCount": 2})),
        stored_provider=None,
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "a legacy frontend multinode can be removed",
        nothing,
        old=lambda o: frontend(o).update(multinode={"nodeCount": 2}),
        stored_provider=None,
    ),
    Row(
        "a legacy frontend multinode cannot change its node count",
        lambda o: frontend(o).update(multinode={"nodeCount": 3}),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
        old=lambda o: frontend(o).update(multinode={"nodeCount": 2}),
        stored_provider=None,
        # CO4b, CK2 and X8 are rules of 1.6.
        versions=("1.6",),
    ),
    Row(
        "single-node to multinode is immutable",
        set_worker(multinode={"nodeCount": 2}),
        [
            'spec.components[1].multinode: Invalid value: {"nodeCount":2}: cannot change node '
            "topology between single-node and multi-node after creation"
        ],
        old=nothing,
    ),
    # 1.5 admits a nodeCount-only change; 1.6 makes nodeCount immutable (U4).
    Row(
        "node count-only change is admitted",
        set_worker(multinode={"nodeCount": 3}),
        old=set_worker(multinode={"nodeCount": 2}),
        per_version={
            "1.6": ["spec.components[1].multinode.nodeCount: Invalid value: 3: field is immutable"]
        },
    ),
    Row(
        "stateless errors are returned without the update rules",
        lambda o: o["spec"].pop("components"),
        ["spec.components: Required value: must have at least one component"],
        old=nothing,
    ),
    Row(
        "update errors list components before backendFramework",
        chain(set_spec(backendFramework="sglang"), set_worker(scalingAdapter={}, replicas=3)),
        [
            f"spec.components[1].replicas: {SCALE_FORBIDDEN}",
            'spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed '
            "after creation",
        ],
        old=set_worker(scalingAdapter={}, replicas=2),
    ),
    Row(
        "restart order errors come in the operator's order",
        restart("Sequential", "ghost", "ghost"),
        [
            'spec.restart.strategy.order: Invalid value: ["ghost","ghost"]: must be unique',
            'spec.restart.strategy.order: Invalid value: ["ghost","ghost"]: must have the same '
            "number of unique components as the deployment",
            'spec.restart.strategy.order[0]: Unsupported value: "ghost": supported values: '
            '"frontend", "worker"',
            'spec.restart.strategy.order[1]: Unsupported value: "ghost": supported values: '
            '"frontend", "worker"',
        ],
        old=nothing,
    ),
    Row(
        "adding a spec topology constraint is immutable",
        set_spec(topologyConstraint=SPEC_TOPOLOGY),
        [
            'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology",'
            f'"packDomain":"rack"}}: {IMMUTABLE_TOPOLOGY}'
        ],
        old=nothing,
    ),
    Row(
        "changing a spec topology constraint is immutable",
        set_spec(topologyConstraint=ZONE_TOPOLOGY),
        [
            'spec.topologyConstraint: Invalid value: {"clusterTopologyName":"grove-topology",'
            f'"packDomain":"zone"}}: {IMMUTABLE_TOPOLOGY}'
        ],
        old=set_spec(topologyConstraint=SPEC_TOPOLOGY),
    ),
    Row(
        "removing a spec topology constraint is immutable",
        nothing,
        [f"spec.topologyConstraint: Invalid value: null: {IMMUTABLE_TOPOLOGY}"],
        old=set_spec(topologyConstraint=SPEC_TOPOLOGY),
    ),
    Row(
        "unchanged topology constraints are allowed",
        chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        old=chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
    ),
    Row(
        "adding a component topology constraint is immutable",
        chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        [
            'spec.components[1].topologyConstraint: Invalid value: {"packDomain":"rack"}: '
            + IMMUTABLE_TOPOLOGY
        ],
        old=set_spec(topologyConstraint=ZONE_TOPOLOGY),
    ),
    Row(
        "changing a component topology constraint is immutable",
        chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "zone"}),
        ),
        [
            'spec.components[1].topologyConstraint: Invalid value: {"packDomain":"zone"}: '
            + IMMUTABLE_TOPOLOGY
        ],
        old=chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
    ),
    Row(
        "removing a component topology constraint is immutable",
        set_spec(topologyConstraint=ZONE_TOPOLOGY),
        [f"spec.components[1].topologyConstraint: Invalid value: null: {IMMUTABLE_TOPOLOGY}"],
        old=chain(
            set_spec(topologyConstraint=ZONE_TOPOLOGY),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
    ),
    Row(
        "adding a KV transfer policy is immutable",
        kv(**LABEL_KV),
        [
            'spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone",'
            f'"domain":"zone","enforcement":"required"}}: {IMMUTABLE_KV}'
        ],
        old=nothing,
    ),
    Row(
        "an explicit default enforcement leaves the KV transfer policy unchanged",
        kv(**LABEL_KV, enforcement="required"),
        old=kv(**LABEL_KV),
    ),
    Row(
        "removing a KV transfer policy is immutable",
        nothing,
        [f"spec.experimental.kvTransferPolicy: Invalid value: null: {IMMUTABLE_KV}"],
        old=kv(**LABEL_KV),
    ),
    Row(
        "GMS extra client containers must resolve on update",
        chain(
            gms("IntraPod"),
            lambda o: worker(o)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["missing-client"]
            ),
        ),
        [
            "spec.components[1].experimental.gpuMemoryService.extraClientContainers[0]: Invalid "
            'value: "missing-client": does not name a container in podTemplate.spec.containers'
        ],
        old=gms("IntraPod"),
    ),
    Row(
        "adding the inter-pod GMS layout is immutable",
        gms("InterPod"),
        [
            f'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": {GMS_TOGGLE}'
        ],
        old=nothing,
    ),
    Row(
        "removing the inter-pod GMS layout is immutable",
        nothing,
        [
            f"spec.components[1].experimental.gpuMemoryService.mode: Invalid value: null: {GMS_TOGGLE}"
        ],
        old=gms("InterPod"),
    ),
    Row(
        "adding inter-pod failover is immutable",
        chain(gms("InterPod"), worker_experimental(failover={"mode": "InterPod", "numShadows": 1})),
        [
            'spec.components[1].experimental.failover: Invalid value: {"mode":"InterPod","numShadows":1}: '
            "inter-pod GMS failover cannot be toggled after creation; delete and recreate the "
            "DynamoGraphDeployment"
        ],
        old=gms("InterPod"),
    ),
    Row(
        "removing inter-pod failover is immutable",
        nothing,
        [
            f"spec.components[1].experimental.gpuMemoryService.mode: Invalid value: null: {GMS_TOGGLE}",
            "spec.components[1].experimental.failover: Invalid value: null: inter-pod GMS failover "
            "cannot be toggled after creation; delete and recreate the DynamoGraphDeployment",
        ],
        old=chain(
            gms("InterPod"), worker_experimental(failover={"mode": "InterPod", "numShadows": 1})
        ),
    ),
    Row(
        "adding forceScalingGroup is immutable",
        worker_experimental(grove={"forceScalingGroup": True}),
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Invalid value: true: cannot "
            "be toggled after creation; delete and recreate the DynamoGraphDeployment to change it"
        ],
        old=nothing,
    ),
    Row(
        "removing forceScalingGroup is immutable",
        nothing,
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Invalid value: null: cannot "
            "be toggled after creation; delete and recreate the DynamoGraphDeployment to change it"
        ],
        old=worker_experimental(grove={"forceScalingGroup": True}),
    ),
    Row(
        "unchanged forceScalingGroup is admitted",
        worker_experimental(grove={"forceScalingGroup": True}),
        old=worker_experimental(grove={"forceScalingGroup": True}),
    ),
    Row(
        "adding an explicit false forceScalingGroup is admitted",
        worker_experimental(grove={"forceScalingGroup": False}),
        old=lambda o: worker(o).update(experimental={}),
    ),
    Row(
        "removing the grove block while keeping experimental is immutable",
        lambda o: worker(o).update(experimental={}),
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Invalid value: null: cannot "
            "be toggled after creation; delete and recreate the DynamoGraphDeployment to change it"
        ],
        old=worker_experimental(grove={"forceScalingGroup": True}),
    ),
    Row(
        "a scaling adapter blocks direct replica changes (no user known: fails closed)",
        set_worker(scalingAdapter={}, replicas=3),
        [f"spec.components[1].replicas: {SCALE_FORBIDDEN}"],
        old=set_worker(scalingAdapter={}, replicas=2),
    ),
    Row(
        "removing the scaling adapter cannot bypass replica ownership",
        set_worker(replicas=3),
        [f"spec.components[1].replicas: {SCALE_FORBIDDEN}"],
        old=set_worker(scalingAdapter={}, replicas=2),
    ),
    Row(
        "restart id cannot change during an active rolling update",
        restart(None, id_="new"),
        [
            'spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is InProgress'
        ],
        old=chain(restart(None, id_="old"), rolling("InProgress")),
    ),
    Row(
        "restart id can stay during an active rolling update",
        restart(None, id_="same"),
        old=chain(restart(None, id_="same"), rolling("InProgress")),
    ),
    Row(
        "restart id can change after a completed rolling update",
        restart(None, id_="new"),
        old=chain(restart(None, id_="old"), rolling("Completed")),
    ),
    Row(
        "restart id is required",
        set_spec(restart={"id": ""}),
        [
            'spec.restart.id: Invalid value: "": spec.restart.id in body should be at least 1 '
            "chars long"
        ],
        old=nothing,
    ),
    Row(
        "duplicate restart order is rejected",
        restart("Sequential", "frontend", "worker", "worker"),
        [
            'spec.restart.strategy.order: Invalid value: ["frontend","worker","worker"]: must be unique'
        ],
        old=nothing,
    ),
    Row(
        "an unknown restart order component is rejected",
        restart("Sequential", "frontend", "ghost"),
        [
            'spec.restart.strategy.order[1]: Unsupported value: "ghost": supported values: '
            '"frontend", "worker"'
        ],
        old=nothing,
    ),
    Row(
        "an incomplete restart order is rejected",
        restart("Sequential", "worker"),
        [
            'spec.restart.strategy.order: Invalid value: ["worker"]: must have the same number of '
            "unique components as the deployment"
        ],
        old=nothing,
    ),
    Row("an empty sequential order is valid", restart("Sequential"), old=nothing),
    Row(
        "a complete sequential order is valid",
        restart("Sequential", "frontend", "worker"),
        old=nothing,
    ),
    Row("parallel without order is valid", restart("Parallel"), old=nothing),
    Row(
        "parallel rejects an order",
        restart("Parallel", "frontend", "worker"),
        ["spec.restart.strategy.order: Forbidden: cannot be specified when strategy is parallel"],
        old=nothing,
    ),
    Row(
        "backendFramework change is rejected",
        set_spec(backendFramework="sglang"),
        [
            'spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation'
        ],
        old=nothing,
    ),
]

# ---- 1.6: the LPX admission table (search index 70778590138), v1beta1 rows -------------------
CONDUCTOR_ROLE = (
    "spec.components: Forbidden: LPX components must each declare a conductor role or form a "
    "shared draft and target pair"
)
CONDUCTOR_TEMPLATE = (
    "spec.components[0].roles[1].podTemplate: Required value: LPX conductor requires an explicit "
    "podTemplate"
)
LPX_GATE = "spec.components[0].type: Forbidden: LPX components require lpx.enabled=true"
COMPONENT_SELECTED = (
    'spec.components: Forbidden: requires the Grove pathway, but workload provider "component" '
    "is selected"
)
LONG_LPX_NAME = "abcdefghijklmnopqrstuvwxyzabcd"
ONLY_16 = ("1.6",)


def lpx_component() -> dict[str, Any]:
    """The LPX table's engine: an agent and an explicit conductor role, build test/build."""
    return {
        "name": "lpx",
        "type": "lpx",
        "replicas": 1,
        "lpx": {"buildId": "test/build"},
        "roles": [
            {
                "name": "agent",
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": "lpu-runtime"}]}},
            },
            {
                "name": "conductor",
                "podTemplate": {
                    "spec": {
                        "containers": [
                            {"name": "main", "image": "conductor-runtime", "command": ["/bin/nova"]}
                        ]
                    }
                },
            },
        ],
    }


def ordinary_worker() -> dict[str, Any]:
    return worker(baseline())


def lpx(*steps: Mutation) -> Mutation:
    """The LPX table's graph (one LPX component), then ``steps``."""

    def apply(obj: dict[str, Any]) -> None:
        obj["spec"]["components"] = [lpx_component()]
        for step in steps:
            step(obj)

    return apply


def engine(obj: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return obj["spec"]["components"][index]  # type: ignore[no-any-return]


def role_spec(obj: dict[str, Any], role: int, component: int = 0) -> dict[str, Any]:
    return engine(obj, component)["roles"][role]["podTemplate"]["spec"]  # type: ignore[no-any-return]


def on_engine(index: int = 0, **values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        target = engine(obj, index)
        for key, value in values.items():
            if value is None:
                target.pop(key, None)
            else:
                target[key] = copy.deepcopy(value)

    return apply


def spec_dec(draft_replicas: int | None) -> Mutation:
    """Split the engine into a conductor-less draft and a target (setBetaLPXSpecDec)."""

    def apply(obj: dict[str, Any]) -> None:
        draft, target = copy.deepcopy(engine(obj)), copy.deepcopy(engine(obj))
        draft["name"], target["name"] = "draft", "target"
        draft["lpx"]["buildId"], target["lpx"]["buildId"] = "test/draft", "test/target"
        draft["roles"] = draft["roles"][:1]
        if draft_replicas is None:
            draft.pop("replicas")
        else:
            draft["replicas"] = draft_replicas
        obj["spec"]["components"] = [draft, target]

    return apply


def add_copy(name: str, index: int = 0, **values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        extra = copy.deepcopy(engine(obj, index))
        extra["name"] = name
        extra.update(copy.deepcopy(values))
        for key in [k for k, v in values.items() if v is None]:
            extra.pop(key)
        obj["spec"]["components"].append(extra)

    return apply


def append_ordinary(**values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        component = ordinary_worker()
        component.update(copy.deepcopy(values))
        obj["spec"]["components"].append(component)

    return apply


def edit_role(role: int, component: int = 0, **spec_values: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        role_spec(obj, role, component).update(copy.deepcopy(spec_values))

    return apply


def drop_role_template(role: int, component: int = 0) -> Mutation:
    return lambda o: engine(o, component)["roles"][role].pop("podTemplate")


def copy_agent_template_to_conductor(o: dict[str, Any]) -> None:
    engine(o)["roles"][1]["podTemplate"] = copy.deepcopy(engine(o)["roles"][0]["podTemplate"])


def append_container(role: int, group: str, name: str, image: str | None) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        container: dict[str, Any] = {"name": name}
        if image is not None:
            container["image"] = image
        role_spec(obj, role).setdefault(group, []).append(container)

    return apply


REQUIRED_NODE_AFFINITY = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {
                    "matchExpressions": [
                        {
                            "key": "kubernetes.io/hostname",
                            "operator": "In",
                            "values": ["lpu-node-a"],
                        }
                    ]
                }
            ]
        }
    }
}
TOPOLOGY_OVERRIDE = {
    "apiVersion": "grove.io/v1alpha1",
    "value": {"topologyConstraint": {"pack": {"required": "rack"}}},
}
ROOT_TOPOLOGY_OVERRIDE = {
    "apiVersion": "grove.io/v1alpha1",
    "value": {"spec": {"template": {"topologyConstraint": {"pack": {"required": "rack"}}}}},
}


def lpx_row(name: str, change: Mutation, expected: list[str] | None = None, **extra: Any) -> Row:
    return Row(name, change, expected or [], versions=ONLY_16, **extra)


LPX_ROWS = [
    lpx_row(
        "singleton LPX preserves omitted replicas with minimum availability above one",
        lpx(
            on_engine(replicas=None, minAvailable=2),
            edit_role(
                0,
                volumes=[
                    {
                        "name": "model-storage",
                        "persistentVolumeClaim": {"claimName": "model-storage"},
                    }
                ],
                affinity=REQUIRED_NODE_AFFINITY,
            ),
        ),
    ),
    lpx_row(
        "LPX rejects explicit replicas below minimum availability",
        lpx(on_engine(minAvailable=2)),
        [
            "spec.components[0]: Invalid value: minAvailable must be less than or equal to "
            "replicas unless replicas is 0"
        ],
    ),
    lpx_row(
        "ordinary components reject omitted replicas with minimum availability above one",
        set_worker(replicas=None, minAvailable=2),
        [
            "spec.components[1]: Invalid value: minAvailable must be less than or equal to "
            "replicas unless replicas is 0"
        ],
    ),
    lpx_row(
        "LPX admits nine hybrid replicas with lowered conductor volumes",
        lpx(
            on_engine(replicas=9),
            edit_role(
                1,
                containers=[
                    {
                        "name": "main",
                        "image": "gpu-runtime",
                        "volumeMounts": [
                            {"name": "config", "mountPath": "/config"},
                            {"name": "infiniband", "mountPath": "/dev/infiniband"},
                        ],
                    }
                ],
            ),
        ),
    ),
    lpx_row(
        "LPX native template schema rejects duplicate main container names",
        lpx(
            copy_agent_template_to_conductor,
            edit_role(
                1,
                containers=[
                    {"name": "main", "image": "runtime"},
                    {"name": "main", "image": "runtime"},
                ],
            ),
        ),
        [
            # The operator's table has Go's %#v form (servers before 1.34); 1.34+ print JSON.
            "spec.components[0].roles[1].podTemplate.spec.containers[1]: Duplicate value: "
            '{"name":"main"}'
        ],
    ),
    lpx_row("LPX supports more than nine replicas", lpx(on_engine(replicas=10))),
    lpx_row(
        "shared LPX components admit distinct scheduling deadlines at both bounds",
        lpx(
            spec_dec(None),
            lambda o: engine(o, 0)["lpx"].update(scheduling={"attemptDeadlineSeconds": 1}),
            lambda o: engine(o, 1)["lpx"].update(scheduling={"attemptDeadlineSeconds": 9223372036}),
        ),
    ),
    lpx_row(
        "shared LPX components admit an omitted scheduling deadline beside a finite deadline",
        lpx(
            spec_dec(None),
            lambda o: engine(o, 1)["lpx"].update(scheduling={"attemptDeadlineSeconds": 120}),
        ),
    ),
    lpx_row(
        "LPX component scheduling deadline rejects zero",
        lpx(lambda o: engine(o)["lpx"].update(scheduling={"attemptDeadlineSeconds": 0})),
        [
            "spec.components[0].lpx.scheduling.attemptDeadlineSeconds: Invalid value: 0: "
            "spec.components[0].lpx.scheduling.attemptDeadlineSeconds in body should be greater "
            "than or equal to 1"
        ],
    ),
    lpx_row(
        "LPX component scheduling deadline rejects duration overflow",
        lpx(lambda o: engine(o)["lpx"].update(scheduling={"attemptDeadlineSeconds": 9223372037})),
        [
            "spec.components[0].lpx.scheduling.attemptDeadlineSeconds: Invalid value: 9223372037: "
            "spec.components[0].lpx.scheduling.attemptDeadlineSeconds in body should be less than "
            "or equal to 9223372036"
        ],
    ),
    lpx_row(
        "LPX autoscaling is rejected by the schema",
        lpx(on_engine(scalingAdapter={})),
        ["spec.components[0]: Invalid value: scalingAdapter is not supported when type is lpx"],
    ),
    lpx_row("LPX gate rejects CREATE when disabled", lpx(), [LPX_GATE], lpx=False),
    lpx_row(
        "LPX gate admits ordinary component updates and reordering when disabled",
        lpx(lambda o: o["spec"]["components"].insert(0, {**ordinary_worker(), "replicas": 2})),
        lpx=False,
        old=lpx(append_ordinary()),
    ),
    lpx_row(
        "LPX gate rejects component addition when disabled",
        lpx(add_copy("additional")),
        ["spec.components[1].type: Forbidden: LPX components require lpx.enabled=true"],
        lpx=False,
        old=lpx(),
    ),
    lpx_row(
        "LPX rejects the component pathway selected when Grove is disabled",
        lpx(),
        [COMPONENT_SELECTED],
        grove=False,
    ),
    lpx_row(
        "LPX rejects the deployment-wide KV transfer policy",
        lpx(kv(labelKey="topology.kubernetes.io/zone", domain="zone")),
        [
            "spec.experimental.kvTransferPolicy: Forbidden: is not supported when an LPX "
            "component is selected"
        ],
    ),
    lpx_row(
        "LPX rejects topology and checkpoint configuration",
        lpx(
            set_spec(
                topologyConstraint={"clusterTopologyName": "grove-topology", "packDomain": "rack"}
            ),
            on_engine(
                topologyConstraint={"packDomain": "rack"},
                experimental={"checkpoint": {"enabled": True}},
            ),
        ),
        [
            "spec.components[0].topologyConstraint: Forbidden: LPX does not support Grove "
            "topologyConstraint",
            "spec.components[0].experimental.checkpoint: Forbidden: checkpoint functionality is "
            "supported only for worker, prefill, and decode components",
            "spec.topologyConstraint: Forbidden: LPX does not support Grove topologyConstraint",
        ],
    ),
    lpx_row(
        "LPX admits an ordinary component checkpoint",
        lpx(append_ordinary(experimental={"checkpoint": {"enabled": True}})),
    ),
    lpx_row(
        "LPX permits template-owned shell commands",
        lpx(
            lambda o: role_spec(o, 0)["containers"][0].update(
                command=["/usr/bin/env"], args=["sh", "-c", "exec /opt/dynamo-lpu serve"]
            )
        ),
    ),
    lpx_row(
        "LPX gate rejects runtime command updates when disabled",
        lpx(
            lambda o: role_spec(o, 0)["containers"][0].update(
                command=["sh", "-c"], args=["exec /opt/dynamo-lpu serve"]
            )
        ),
        [LPX_GATE],
        lpx=False,
        old=lpx(),
    ),
    lpx_row(
        "LPX rejects an unknown Pod role",
        lpx(lambda o: engine(o)["roles"][1].update(name="unknown")),
        [
            'spec.components[0].roles[1].name: Unsupported value: "unknown": supported values: '
            '"conductor", "agent"',
            CONDUCTOR_ROLE,
        ],
    ),
    lpx_row(
        "LPX rejects duplicate Pod roles",
        lpx(lambda o: engine(o)["roles"].__setitem__(1, copy.deepcopy(engine(o)["roles"][0]))),
        ['spec.components[0].roles[1]: Duplicate value: {"name":"agent"}'],
    ),
    lpx_row(
        "LPX reserves materialized agent container names",
        lpx(
            append_container(0, "containers", "agent", "sidecar"),
            append_container(0, "initContainers", "agent", "setup"),
        ),
        [
            "spec.components[0].roles[0].podTemplate.spec.containers[1].name: Forbidden: LPX "
            'reserves "agent" for the materialized role container',
            "spec.components[0].roles[0].podTemplate.spec.initContainers[0].name: Forbidden: LPX "
            'reserves "agent" for the materialized role container',
        ],
    ),
    lpx_row(
        "LPX rejects a missing conductor role on CREATE despite a conductor-named sidecar",
        lpx(
            lambda o: engine(o).update(roles=engine(o)["roles"][:1]),
            append_container(0, "containers", "conductor", "sidecar"),
        ),
        [CONDUCTOR_ROLE],
    ),
    lpx_row(
        "LPX defers explicit conductor name checks until build mode is known",
        lpx(
            copy_agent_template_to_conductor,
            append_container(1, "containers", "conductor", "sidecar"),
        ),
    ),
    lpx_row(
        "LPX allows an agent sidecar named conductor with a separate conductor template",
        lpx(
            copy_agent_template_to_conductor,
            append_container(0, "containers", "conductor", "sidecar"),
        ),
    ),
    lpx_row(
        "LPX allows a draft init container named conductor",
        lpx(spec_dec(1), append_container(0, "initContainers", "conductor", "setup")),
    ),
    lpx_row(
        "physical LPU rejects Grove opt out",
        lpx(annotate(grove="false")),
        [COMPONENT_SELECTED],
    ),
    lpx_row(
        "LPX rejects a component-level PodTemplate",
        lpx(
            lambda o: engine(o).update(
                podTemplate=copy.deepcopy(engine(o)["roles"][0]["podTemplate"])
            )
        ),
        ["spec.components[0]: Invalid value: LPX Pod templates belong to roles"],
    ),
    lpx_row(
        "LPX rejects a worker without a Pod template",
        lpx(drop_role_template(0)),
        [
            "spec.components[0].roles[0].podTemplate: Required value: the LPX agent role requires "
            "a podTemplate"
        ],
    ),
    lpx_row(
        "LPX requires a build for an LPU engine",
        lpx(lambda o: engine(o)["lpx"].update(buildId="")),
        [
            'spec.components[0].lpx.buildId: Invalid value: "": spec.components[0].lpx.buildId in '
            "body should be at least 1 chars long"
        ],
    ),
    lpx_row(
        "LPX rejects a missing conductor template on CREATE",
        lpx(drop_role_template(1)),
        [CONDUCTOR_TEMPLATE],
    ),
    lpx_row(
        "LPX rejects removing the conductor template on UPDATE",
        lpx(drop_role_template(1)),
        [CONDUCTOR_TEMPLATE],
        old=lpx(),
    ),
    lpx_row(
        "LPX rejects retaining an absent conductor template on an unrelated UPDATE",
        lpx(drop_role_template(1), on_engine(replicas=3)),
        [CONDUCTOR_TEMPLATE],
        old=lpx(drop_role_template(1)),
        stored_provider=None,
    ),
    lpx_row(
        "LPX admits SpecDecode UPDATE with one conductor and Agent-only draft",
        lpx(spec_dec(2)),
        old=lpx(spec_dec(1)),
    ),
    lpx_row(
        "LPX rejects multinode configuration",
        lpx(on_engine(multinode={"nodeCount": 2})),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
    ),
    lpx_row(
        "LPX does not grandfather invalid multinode configuration",
        lpx(
            on_engine(multinode={"nodeCount": 2}),
            lambda o: o["metadata"].update(labels={"updated": "true"}),
        ),
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, "
            "prefill, or decode components"
        ],
        lpx=False,
        old=lpx(on_engine(multinode={"nodeCount": 2})),
        stored_provider=None,
    ),
    lpx_row(
        "LPX rejects a whitespace-only build reference",
        lpx(lambda o: engine(o)["lpx"].update(buildId="  ")),
        ["spec.components[0].lpx.buildId: Required value: LPX component requires a buildId"],
    ),
    lpx_row(
        "LPX requires main containers in both roles",
        lpx(
            lambda o: role_spec(o, 0)["containers"][0].update(name="sidecar"),
            lambda o: role_spec(o, 1)["containers"][0].update(name="sidecar"),
        ),
        [
            "spec.components[0].roles[0].podTemplate.spec.containers: Required value: LPX agent "
            'component requires a "main" runtime container',
            "spec.components[0].roles[1].podTemplate.spec.containers: Required value: LPX "
            'conductor component requires a "main" runtime container',
        ],
    ),
    lpx_row(
        "LPX rejects conductor placement on UPDATE",
        lpx(
            edit_role(
                1,
                nodeName="chosen-node",
                topologySpreadConstraints=[
                    {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}
                ],
            )
        ),
        [
            "spec.components[0].roles[1].podTemplate.spec.nodeName: Forbidden: LPX owns role "
            "addressing and placement",
            "spec.components[0].roles[1].podTemplate.spec.topologySpreadConstraints: Forbidden: "
            "LPX owns role placement",
        ],
        old=lpx(),
    ),
    lpx_row(
        "LPX rejects three model components with one conductor",
        lpx(spec_dec(None), add_copy("extra-draft")),
        [CONDUCTOR_ROLE],
    ),
    lpx_row(
        "LPX rejects zero draft replicas",
        lpx(spec_dec(0)),
        ["spec.components[0]: Invalid value: replicas must be positive when type is lpx"],
    ),
    lpx_row(
        "LPX admits maximum draft fanout with default minimum availability",
        lpx(spec_dec(8), on_engine(minAvailable=1)),
    ),
    lpx_row(
        "LPX rejects draft endpoint and minimum availability at authored indices",
        lpx(
            spec_dec(3),
            lambda o: o["spec"]["components"].reverse(),
            on_engine(1, minAvailable=2, modelRef={"name": "draft-model"}),
        ),
        [
            "spec.components[1].modelRef: Forbidden: the shared target owns the serving endpoint",
            "spec.components[1].minAvailable: Forbidden: draft minAvailable must be omitted or 1; "
            "the shared target owns minimum availability",
        ],
    ),
    lpx_row(
        "LPX admits singleton minimum availability", lpx(on_engine(replicas=3, minAvailable=2))
    ),
    lpx_row(
        "LPX roles reject provider overrides",
        lpx(
            lambda o: engine(o)["roles"][0].update(
                providerOverride=copy.deepcopy(TOPOLOGY_OVERRIDE)
            )
        ),
        [
            "spec.components[0].roles[0].providerOverride: Forbidden: LPX roles do not support "
            "provider overrides"
        ],
    ),
    lpx_row(
        "LPX rejects removing the conductor role on UPDATE",
        lpx(lambda o: engine(o).update(roles=engine(o)["roles"][:1])),
        [CONDUCTOR_ROLE],
        old=lpx(),
    ),
    lpx_row(
        "LPX rejects provider overrides on UPDATE",
        lpx(
            set_spec(providerOverride=ROOT_TOPOLOGY_OVERRIDE),
            on_engine(providerOverride=TOPOLOGY_OVERRIDE),
        ),
        [
            "spec.providerOverride: Forbidden: LPX does not support Grove topology overrides on "
            "the deployment",
            "spec.components[0].providerOverride: Forbidden: LPX component does not support Grove "
            "topology overrides",
        ],
        old=lpx(),
    ),
    lpx_row(
        "LPX admits an ordinary component provider override",
        lpx(
            lambda o: o["spec"]["components"].append(
                {**frontend(baseline()), "providerOverride": copy.deepcopy(TOPOLOGY_OVERRIDE)}
            )
        ),
    ),
    lpx_row(
        "selected v1beta1 LPX derives SpecDecode from two models",
        lpx(
            lambda o: role_spec(o, 0)["containers"][0].update(
                volumeMounts=[{"name": "model-storage", "mountPath": "/nfs"}]
            ),
            edit_role(
                0,
                volumes=[
                    {
                        "name": "model-storage",
                        "persistentVolumeClaim": {"claimName": "model-storage"},
                    }
                ],
            ),
            spec_dec(2),
        ),
    ),
    lpx_row(
        "LPX rejects controller-owned Agent placement",
        lpx(
            spec_dec(None),
            edit_role(
                0,
                schedulerName="custom",
                hostname="custom-host",
                subdomain="custom-subdomain",
                nodeName="lpu-node-a",
                nodeSelector={"kubernetes.io/hostname": "lpu-node-a"},
                affinity={
                    "podAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": [
                            {"topologyKey": "kubernetes.io/hostname"}
                        ]
                    }
                },
                topologySpreadConstraints=[
                    {
                        "maxSkew": 1,
                        "topologyKey": "kubernetes.io/hostname",
                        "whenUnsatisfiable": "DoNotSchedule",
                    }
                ],
                schedulingGates=[{"name": "custom"}],
                resourceClaims=[{"name": "device", "resourceClaimName": "device-claim"}],
            ),
        ),
        [
            f"spec.components[0].roles[0].podTemplate.spec.{path}: Forbidden: {message}"
            for path, message in (
                ("schedulerName", "LPX owns role scheduler selection"),
                ("hostname", "LPX owns role addressing and placement"),
                ("subdomain", "LPX owns role addressing and placement"),
                ("nodeName", "LPX owns role addressing and placement"),
                ("topologySpreadConstraints", "LPX owns role placement"),
                ("nodeSelector", "LPX exclusively owns Agent node selection"),
                ("affinity", "node-local LPX supports only required nodeAffinity"),
                ("schedulingGates", "Grove and LPX own Agent scheduling gates"),
                ("resourceClaims", "node-local LPX Agents cannot use ResourceClaims"),
            )
        ],
    ),
    lpx_row(
        "LPX rejects excessive draft fanout",
        lpx(spec_dec(9)),
        ["spec.components[0].replicas: Invalid value: 9: draft replicas must be between 1 and 8"],
    ),
    lpx_row(
        "lpx requires a agent role",
        lpx(on_engine(roles=None)),
        ['spec.components[0].roles: Required value: must contain the "agent" role', CONDUCTOR_ROLE],
    ),
    lpx_row("LPX admits independent conductors across components", lpx(add_copy("lpx-2"))),
    lpx_row(
        "LPX admits three independent engines with unrelated replica counts",
        lpx(
            on_engine(replicas=3), add_copy("second", replicas=None), add_copy("third", replicas=9)
        ),
    ),
    lpx_row(
        "LPX rejects ambiguous shared and independent engines",
        lpx(spec_dec(None), add_copy("independent", index=1)),
        [CONDUCTOR_ROLE],
    ),
    lpx_row(
        "shared LPX draft does not consume the target Grove name budget",
        lpx(spec_dec(2), on_engine(name=LONG_LPX_NAME)),
    ),
    lpx_row(
        "LPX admits long component names independently of generated PCSG names",
        lpx(on_engine(name=LONG_LPX_NAME)),
    ),
    lpx_row(
        "LPX rejects a missing conductor role independently of component name length",
        lpx(
            on_engine(name=LONG_LPX_NAME), lambda o: engine(o).update(roles=engine(o)["roles"][:1])
        ),
        [CONDUCTOR_ROLE],
    ),
    lpx_row(
        "ordinary graph rejects manual LPX scheduler selection",
        lambda o: worker(o)["podTemplate"]["spec"].update(schedulerName="lpx-scheduler"),
        [
            "spec.components[1].podTemplate.spec.schedulerName: Forbidden: LPX schedulerName is "
            "controller-owned; declare an LPX component instead"
        ],
    ),
    lpx_row(
        "mixed graph rejects manual LPX scheduler selection on an ordinary component",
        lpx(
            append_ordinary(),
            lambda o: engine(o, 1)["podTemplate"]["spec"].update(schedulerName="lpx-scheduler"),
        ),
        [
            "spec.components[1].podTemplate.spec.schedulerName: Forbidden: LPX schedulerName is "
            "controller-owned; declare an LPX component instead"
        ],
    ),
    lpx_row(
        "setting a previously unset component type to LPX is rejected by the webhook",
        lpx(),
        [
            'spec.components[0].type: Invalid value: "lpx": cannot change node topology between '
            "LPX and non-LPX after creation"
        ],
        old=lambda o: o["spec"].update(
            components=[{**{k: v for k, v in worker(o).items() if k != "type"}, "name": "lpx"}]
        ),
    ),
]

PARALLEL_RESTART = (
    "spec: Invalid value: spec.restart.strategy.type must be Parallel when the graph contains "
    "LPX components"
)


def with_lpx(obj: dict[str, Any]) -> None:
    obj["spec"]["components"].append(lpx_component())


def lpx_restart(strategy: str | None, typed: bool = True) -> Mutation:
    block: dict[str, Any] = {"id": "restart-1"}
    if strategy is not None:
        block["strategy"] = {"type": strategy} if typed else {}
    return set_spec(restart=block)


LPX_RESTART_ROWS = [
    lpx_row("LPX admits Parallel restart", chain(with_lpx, lpx_restart("Parallel")), old=with_lpx),
    lpx_row(
        "LPX rejects Sequential restart",
        chain(with_lpx, lpx_restart("Sequential")),
        [PARALLEL_RESTART],
        old=with_lpx,
    ),
    lpx_row(
        "LPX rejects omitted restart strategy",
        chain(with_lpx, lpx_restart(None)),
        [PARALLEL_RESTART],
        old=with_lpx,
    ),
    lpx_row(
        "LPX rejects omitted restart strategy type",
        chain(with_lpx, lpx_restart("Parallel", typed=False)),
        [PARALLEL_RESTART],
        old=with_lpx,
    ),
    lpx_row(
        "LPX rejects Parallel restart on CREATE",
        chain(with_lpx, lpx_restart("Parallel")),
        [
            "spec: Invalid value: spec.restart must be unset on create; set spec.restart.id after "
            "creation to request a restart"
        ],
    ),
    lpx_row("ordinary graph admits Sequential restart", lpx_restart("Sequential"), old=nothing),
    lpx_row("ordinary graph admits omitted restart strategy", lpx_restart(None), old=nothing),
    lpx_row(
        "ordinary graph admits omitted restart strategy type",
        lpx_restart("Parallel", typed=False),
        old=nothing,
    ),
]

# ---- 1.6: roles[] of multinode components ---


def multinode_roles(*roles: dict[str, Any], node_count: int = 3) -> Mutation:
    return set_worker(multinode={"nodeCount": node_count}, roles=list(roles))


def role_with_template(name: str, image: str = IMAGE, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}},
        **extra,
    }


ROLE_ROWS = [
    lpx_row(
        "explicit multinode roles are admitted",
        multinode_roles({"name": "leader"}, {"name": "worker", "replicas": 2}),
    ),
    lpx_row(
        "roles need a multinode or LPX component",
        set_worker(roles=[{"name": "leader"}]),
        [
            "spec.components[1].roles: Forbidden: roles are supported only for component shapes "
            "that define a role schema; this release supports multinode and LPX components"
        ],
    ),
    lpx_row(
        "multinode role names are leader and worker, both required",
        multinode_roles({"name": "leader"}, {"name": "agent"}),
        [
            'spec.components[1].roles[1].name: Unsupported value: "agent": supported values: '
            '"leader", "worker"',
            'spec.components[1].roles: Required value: must contain the "worker" role',
        ],
    ),
    lpx_row(
        "multinode role replicas follow nodeCount",
        multinode_roles({"name": "leader", "replicas": 2}, {"name": "worker", "replicas": 1}),
        [
            'spec.components[1].roles[0].replicas: Invalid value: 2: must equal 1 for multinode role "leader"',
            'spec.components[1].roles[1].replicas: Invalid value: 1: must equal 2 for multinode role "worker"',
        ],
    ),
    lpx_row(
        "role templates replace the component template",
        multinode_roles(role_with_template("leader"), role_with_template("worker")),
        [
            "spec.components[1].podTemplate: Forbidden: cannot be combined with roles[].podTemplate; "
            "choose one complete PodTemplate source mode"
        ],
    ),
    lpx_row(
        "role templates are all-or-nothing",
        chain(
            multinode_roles(role_with_template("leader"), {"name": "worker"}),
            set_worker(podTemplate=None),
        ),
        [
            "spec.components[1].roles[1].podTemplate: Required value: is required on every role "
            "when role-specific PodTemplates are used"
        ],
    ),
    lpx_row(
        "role templates need a main container with an image",
        chain(
            multinode_roles(
                role_with_template("leader"),
                {"name": "worker", "podTemplate": {"spec": {"containers": [{"name": "main"}]}}},
            ),
            set_worker(podTemplate=None),
        ),
        [
            "spec.components[1].roles[1].podTemplate.spec.containers[0].image: Required value: is required"
        ],
    ),
    lpx_row(
        "role templates refuse the Dynamo sidecar and role power limits",
        chain(
            multinode_roles(
                role_with_template("leader"),
                {
                    "name": "worker",
                    "podTemplate": {
                        "metadata": {"annotations": {"dynamo.nvidia.com/gpu-power-limit": "300"}},
                        "spec": {
                            "containers": [{"name": "main", "image": IMAGE}],
                            "initContainers": [{"name": "runtime", "image": IMAGE}],
                        },
                    },
                },
            ),
            set_worker(podTemplate=None),
        ),
        [
            "spec.components[1].roles[1].podTemplate.spec.initContainers[0].name: Forbidden: Dynamo "
            "sidecar mode is not supported in multinode or LPX role pod templates",
            "spec.components[1].roles[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: "
            "Forbidden: role-specific power limits are not supported by power-aware planning",
        ],
    ),
    lpx_row(
        "role templates read the runtime version from the first main image",
        chain(
            multinode_roles(
                role_with_template("leader", image="registry.example/runtime:custom"),
                role_with_template("worker"),
            ),
            set_worker(podTemplate=None, runtimeVersionOverride=None),
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the "
            "specified main container image has no parseable semantic-version tag"
        ],
    ),
    lpx_row(
        "1.6 moved multinode.leader and multinode.worker to roles",
        set_worker(multinode={"nodeCount": 2, "leader": {}}),
        [],
    ),
]

# ---- the Grove pathway decision: the stored workload provider decides first -----------
PATHWAY_ROWS = [
    Row(
        "an unsupported stored workload provider decides the pathway",
        set_spec(priorityClassName="high-priority"),
        [
            'metadata.annotations[nvidia.com/workload-provider]: Unsupported value: "future": '
            'supported values: "component", "grove"',
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but annotation "
            '"nvidia.com/workload-provider" has unsupported value "future"',
        ],
        old=nothing,
        stored_provider="future",
        versions=("1.5", "1.6"),
    ),
    Row(
        "a stored component provider decides before the Grove gate",
        set_spec(priorityClassName="high-priority"),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but workload provider "
            '"component" is selected'
        ],
        old=nothing,
        stored_provider="component",
        versions=("1.5", "1.6"),
    ),
    Row(
        "a legacy object without a stored provider falls back to the Grove gate",
        set_spec(priorityClassName="high-priority"),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but Grove is disabled "
            "in the operator configuration"
        ],
        old=nothing,
        grove=False,
        stored_provider=None,
        versions=("1.3", "1.5", "1.6"),
    ),
    Row(
        "a legacy object with enable-grove false names the annotation",
        chain(annotate(grove="False"), set_spec(priorityClassName="high-priority")),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway; remove or unset "
            'annotation "nvidia.com/enable-grove" (currently "False")'
        ],
        old=annotate(grove="False"),
        stored_provider=None,
        versions=("1.3", "1.5", "1.6"),
    ),
    Row(
        "on create the stamped provider decides even with enable-grove false",
        chain(annotate(grove="false"), set_spec(priorityClassName="high-priority")),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway, but workload provider "
            '"component" is selected'
        ],
        versions=("1.4", "1.5", "1.6"),
    ),
    Row(
        "1.3 names the enable-grove annotation on create",
        chain(annotate(grove="false"), set_spec(priorityClassName="high-priority")),
        [
            "spec.priorityClassName: Forbidden: requires the Grove pathway; remove or unset "
            'annotation "nvidia.com/enable-grove" (currently "false")'
        ],
        versions=("1.3",),
    ),
    Row(
        "a custom image tag without an override is admitted by 1.3 only",
        set_worker(
            runtimeVersionOverride=None,
            podTemplate={
                "spec": {
                    "containers": [{"name": "main", "image": "registry.example/runtime:my-tag"}]
                }
            },
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the "
            "specified main container image has no parseable semantic-version tag"
        ],
        versions=("1.3", "1.4", "1.5", "1.6"),
        per_version={"1.3": []},
    ),
    Row(
        "a deployment topology without packDomain asks each component only in 1.3",
        chain(
            set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
            set_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        [],
        versions=("1.3", "1.4", "1.5", "1.6"),
        per_version={
            "1.3": [
                "spec.components[0].topologyConstraint: Required value: is required because "
                "spec.topologyConstraint.packDomain is not set"
            ]
        },
    ),
    Row(
        "GMS with a checkpoint is refused by the 1.3 gate only",
        chain(gms("IntraPod"), worker_experimental(checkpoint={"enabled": True})),
        [],
        versions=("1.3", "1.4", "1.5", "1.6"),
        per_version={
            "1.3": [
                "spec.components[1].experimental.checkpoint: Forbidden: GMS + Snapshot is "
                "temporarily disabled; disable gpuMemoryService or enable the internal GMS + "
                "Snapshot gate"
            ]
        },
    ),
    Row(
        "the provider override value is decoded into the registered Grove type first",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {"spec": {"template": "rack"}},
            }
        ),
        [
            "spec.providerOverride.value: Invalid value: null: does not match the registered "
            "PodCliqueSet schema: json: cannot unmarshal string into Go struct field "
            "PodCliqueSetSpec.spec.template of type v1alpha1.PodCliqueSetTemplateSpec"
        ],
        versions=("1.5", "1.6"),
    ),
    Row(
        "a Grove pack written as a domain string does not decode into TopologyPackConstraint",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {"spec": {"template": {"topologyConstraint": {"pack": "rack"}}}},
            }
        ),
        [
            "spec.providerOverride.value: Invalid value: null: does not match the registered "
            "PodCliqueSet schema: json: cannot unmarshal string into Go struct field "
            "TopologyConstraint.spec.template.topologyConstraint.pack of type "
            "v1alpha1.TopologyPackConstraint"
        ],
        versions=("1.5", "1.6"),
    ),
    Row(
        "a component override's pack domain must be a string",
        set_worker(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {"topologyConstraint": {"pack": {"required": 3}}},
            }
        ),
        [
            "spec.components[1].providerOverride.value: Invalid value: null: does not match the "
            "registered PodCliqueTemplateSpec schema: json: cannot unmarshal number into Go struct "
            "field TopologyPackConstraint.topologyConstraint.pack.required of type "
            "v1alpha1.TopologyDomain"
        ],
        versions=("1.5", "1.6"),
    ),
    Row(
        "Grove's own pack form, topologyName and the deprecated packDomain decode",
        set_spec(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {
                    "spec": {
                        "template": {
                            "topologyConstraint": {
                                "topologyName": "grove-topology",
                                "pack": {"required": "rack", "preferred": "host"},
                            }
                        }
                    }
                },
            }
        ),
        [],
        versions=("1.5", "1.6"),
    ),
    Row(
        "1.6 lets a component override carry the native minAvailable",
        set_worker(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {"spec": {"minAvailable": 1}},
            }
        ),
        [],
        versions=("1.5", "1.6"),
        per_version={
            "1.5": [
                "spec.components[1].providerOverride.value.spec: Forbidden: is Dynamo-owned or not "
                "enabled for provider override",
                "spec.components[1].providerOverride.value.topologyConstraint: Invalid value: null: "
                "is required",
            ]
        },
    ),
    Row(
        "1.6 admits the Coherent Grove update strategy",
        annotate(strategy="Coherent"),
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "Coherent": '
            'supported values: "RollingRecreate", "OnDelete"'
        ],
        versions=("1.3", "1.5", "1.6"),
        per_version={"1.6": []},
    ),
]


# ---- 1.6: Dynamo sidecar mode (dynamo.ValidateDynamoSidecar, search index 70139814946) ------
def runtime_sidecar(
    component: Callable[[dict[str, Any]], dict[str, Any]] = worker, **extra: Any
) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        spec = component(obj)["podTemplate"]["spec"]
        spec["initContainers"] = [{"name": "runtime", "image": IMAGE, **extra}]

    return apply


SIDECAR_DETAIL = 'component "worker" with a runtime init container'
SIDECAR_ROWS = [
    Row(
        "1.6 reads the runtime version of a Dynamo-sidecar worker from the runtime image (API docs)",
        chain(
            set_worker(runtimeVersionOverride=None),
            runtime_sidecar(restartPolicy="Always"),
            lambda o: worker(o)["podTemplate"]["spec"]["containers"][0].update(
                image="vllm/vllm-openai:latest"
            ),
        ),
        [],
        per_version={
            "1.5": [
                "spec.components[1].runtimeVersionOverride: Required value: is required when the "
                "specified main container image has no parseable semantic-version tag"
            ]
        },
    ),
    Row(
        "1.6 asks a Dynamo-sidecar worker with an untagged runtime image for an override",
        chain(
            set_worker(runtimeVersionOverride=None),
            runtime_sidecar(restartPolicy="Always"),
            lambda o: worker(o)["podTemplate"]["spec"]["initContainers"][0].update(
                image="registry.example/dynamo-runtime:custom"
            ),
        ),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the "
            "specified main container image has no parseable semantic-version tag"
        ],
        per_version={"1.5": []},
    ),
    Row(
        "a worker with an Always runtime init container is admitted",
        runtime_sidecar(restartPolicy="Always"),
    ),
    Row(
        "1.6 keeps the Dynamo sidecar to worker-class components",
        runtime_sidecar(frontend, restartPolicy="Always"),
        [
            "spec.components[0].podTemplate.spec.initContainers[0].name: Forbidden: is supported "
            "only for worker, prefill, and decode components"
        ],
        per_version={"1.5": []},
    ),
    Row(
        "1.6 runs the Dynamo sidecar as a native sidecar only",
        runtime_sidecar(),
        [
            "spec.components[1].podTemplate.spec.initContainers[0].restartPolicy: Invalid value: "
            f'"": must be Always for {SIDECAR_DETAIL}'
        ],
        per_version={"1.5": []},
    ),
    Row(
        "1.6 has no multinode Dynamo sidecar yet",
        chain(runtime_sidecar(restartPolicy="Always"), set_worker(multinode={"nodeCount": 2})),
        [
            f"spec.components[1].multinode: Forbidden: is not currently supported for {SIDECAR_DETAIL}; "
            "support is planned for a future release"
        ],
        per_version={"1.5": []},
    ),
    Row(
        "1.6 has no GPU memory service beside the Dynamo sidecar yet",
        chain(gms("IntraPod"), runtime_sidecar(restartPolicy="Always")),
        [
            "spec.components[1].experimental.gpuMemoryService: Forbidden: is not currently "
            f"supported for {SIDECAR_DETAIL}; support is planned for a future release"
        ],
        per_version={"1.5": []},
    ),
]


# ---- 1.6: the rollingUpdate budget of provider overrides (70561057532, po/registry.go 71643200112)
def budget(maximum: Any, **value: Any) -> dict[str, Any]:
    return {
        "apiVersion": "grove.io/v1alpha1",
        "value": {"rollingUpdate": {"maxUnavailable": maximum}, **value},
    }


NOT_OWNED = "Forbidden: is Dynamo-owned or not enabled for provider override"
TOPOLOGY_REQUIRED_15 = (
    "spec.components[1].providerOverride.value.topologyConstraint: Invalid value: null: is required"
)
BUDGET_ROWS = [
    Row(
        "1.6 bounds a component's rollingUpdate budget by its replicas",
        set_worker(providerOverride=budget(3)),
        [
            "spec.components[1].providerOverride.value.rollingUpdate.maxUnavailable: Invalid value: 3: "
            "must not be greater than replicas (2); lower or remove the budget before scaling down"
        ],
        per_version={
            "1.5": [
                f"spec.components[1].providerOverride.value.rollingUpdate: {NOT_OWNED}",
                TOPOLOGY_REQUIRED_15,
            ]
        },
    ),
    Row(
        "1.6 admits a component budget within its replicas",
        set_worker(providerOverride=budget(2)),
        per_version={
            "1.5": [
                f"spec.components[1].providerOverride.value.rollingUpdate: {NOT_OWNED}",
                TOPOLOGY_REQUIRED_15,
            ]
        },
    ),
    Row(
        "1.6 refuses a budget under the OnDelete strategy",
        chain(annotate(strategy="OnDelete"), set_worker(providerOverride=budget(1))),
        [
            "spec.components[1].providerOverride.value.rollingUpdate: Forbidden: must not be set "
            "when the update strategy is OnDelete"
        ],
        per_version={
            "1.5": [
                f"spec.components[1].providerOverride.value.rollingUpdate: {NOT_OWNED}",
                TOPOLOGY_REQUIRED_15,
            ]
        },
    ),
    Row(
        "1.6 keeps a Coherent budget at or above the component's minAvailable",
        chain(
            annotate(strategy="Coherent"),
            set_worker(minAvailable=2, providerOverride=budget(1)),
        ),
        [
            "spec.components[1].providerOverride.value.rollingUpdate.maxUnavailable: Invalid value: 1: "
            "must not be less than minAvailable (2) under the Coherent update strategy"
        ],
        versions=("1.6",),
    ),
    Row(
        "1.6 leaves the budget to components, not the PodCliqueSet root",
        set_spec(
            providerOverride={
                **ROOT_TOPOLOGY_OVERRIDE,
                "value": {
                    **ROOT_TOPOLOGY_OVERRIDE["value"],
                    "rollingUpdate": {"maxUnavailable": 1},
                },
            }
        ),
        [
            f"spec.providerOverride.value.rollingUpdate: {NOT_OWNED}",
            "spec.providerOverride.value.rollingUpdate: Forbidden: member cliques use the owning "
            "component's rollingUpdate budget",
        ],
        per_version={"1.5": [f"spec.providerOverride.value.rollingUpdate: {NOT_OWNED}"]},
    ),
    Row(
        "1.6 leaves the budget to the component, not its multinode roles",
        multinode_roles(
            {"name": "leader"},
            {"name": "worker", "providerOverride": budget(1)},
            node_count=2,
        ),
        [
            "spec.components[1].roles[1].providerOverride.value.rollingUpdate: Forbidden: member "
            "cliques use the owning component's rollingUpdate budget"
        ],
        versions=("1.6",),
    ),
    Row(
        "1.6 names all three writable subtrees when a component value writes none",
        set_worker(providerOverride={"apiVersion": "grove.io/v1alpha1", "value": {}}),
        [
            "spec.components[1].providerOverride.value.topologyConstraint: Invalid value: null: "
            "topologyConstraint, minAvailable or rollingUpdate is required"
        ],
        per_version={"1.5": [TOPOLOGY_REQUIRED_15]},
    ),
    Row(
        "1.6 wants a positive native minimum",
        set_worker(
            providerOverride={
                "apiVersion": "grove.io/v1alpha1",
                "value": {"spec": {"minAvailable": 0}},
            }
        ),
        [
            "spec.components[1].providerOverride.value.spec.minAvailable: Invalid value: null: "
            "must be a positive 32-bit integer"
        ],
        per_version={
            "1.5": [
                f"spec.components[1].providerOverride.value.spec: {NOT_OWNED}",
                TOPOLOGY_REQUIRED_15,
            ]
        },
    ),
    Row(
        "1.6 wants a positive budget",
        set_worker(providerOverride=budget("25%")),
        [
            "spec.components[1].providerOverride.value.rollingUpdate.maxUnavailable: Invalid value: "
            "null: must be a positive 32-bit integer"
        ],
        per_version={
            "1.5": [
                f"spec.components[1].providerOverride.value.rollingUpdate: {NOT_OWNED}",
                TOPOLOGY_REQUIRED_15,
            ]
        },
    ),
]

# ---- 1.6: roles[] on update (validateComponentRolesUpdate, 70561057532) and nodeCount per release
ROLE_TOPOLOGY_OVERRIDE = {
    "apiVersion": "grove.io/v1alpha1",
    "value": {"topologyConstraint": {"pack": {"required": "rack"}}},
}
ROLE_SWITCH = (
    "spec.components[1].roles: Forbidden: cannot switch between implicit and explicit roles while "
    "changing the resolved role model; make the equivalent role structure explicit first"
)
ROLE_UPDATE_ROWS = [
    Row(
        "implicit roles may become the equivalent explicit pair",
        multinode_roles({"name": "leader"}, {"name": "worker", "replicas": 2}),
        old=set_worker(multinode={"nodeCount": 3}),
        versions=ONLY_16,
    ),
    Row(
        "explicit roles may go back to implicit ones",
        set_worker(multinode={"nodeCount": 3}),
        old=multinode_roles({"name": "leader"}, {"name": "worker", "replicas": 2}),
        versions=ONLY_16,
    ),
    Row(
        "implicit roles cannot become explicit ones with a role override",
        multinode_roles(
            {"name": "leader"}, {"name": "worker", "providerOverride": ROLE_TOPOLOGY_OVERRIDE}
        ),
        [ROLE_SWITCH],
        old=set_worker(multinode={"nodeCount": 3}),
        versions=ONLY_16,
    ),
    Row(
        "explicit roles with a role override cannot go back to implicit ones",
        set_worker(multinode={"nodeCount": 3}),
        [ROLE_SWITCH],
        old=multinode_roles(
            {"name": "leader"}, {"name": "worker", "providerOverride": ROLE_TOPOLOGY_OVERRIDE}
        ),
        versions=ONLY_16,
    ),
    Row(
        "explicit roles keep nodeCount immutable",
        multinode_roles({"name": "leader"}, {"name": "worker", "replicas": 3}, node_count=4),
        ["spec.components[1].multinode.nodeCount: Invalid value: 4: field is immutable"],
        old=multinode_roles({"name": "leader"}, {"name": "worker", "replicas": 2}),
        versions=ONLY_16,
    ),
    Row(
        "a role override may be edited in place",
        multinode_roles(
            {"name": "leader"},
            {
                "name": "worker",
                "providerOverride": {
                    **ROLE_TOPOLOGY_OVERRIDE,
                    "value": {"topologyConstraint": {"pack": {"required": "zone"}}},
                },
            },
        ),
        old=multinode_roles(
            {"name": "leader"}, {"name": "worker", "providerOverride": ROLE_TOPOLOGY_OVERRIDE}
        ),
        versions=ONLY_16,
    ),
    Row(
        "node count-only change is admitted before 1.6",
        set_worker(multinode={"nodeCount": 3}),
        old=set_worker(multinode={"nodeCount": 2}),
        versions=("1.3", "1.4"),
    ),
]

# Kinds of rows of the operator's table this file does not replay.
NOT_PORTED = (
    "v1alpha1 requests (replayed in test_operator_admission_alpha.py)",
    "ClusterTopologyBinding lookups (reported as info findings offline)",
    "the request's user (the operator's or the planner's service account)",
    "terminating objects (deletion in progress)",
    "checks of the stored result rather than errors (stamped provider, defaulted role replicas)",
)


def admission_result(row: Row, version: str = "1.5") -> list[str]:
    """What the API server would answer: the first failing stage's errors, in order."""
    obj = baseline()
    row.change(obj)
    old = None
    if row.old is not None:
        old = baseline()
        row.old(old)
        if row.stored_provider is not None:
            old["metadata"].setdefault("annotations", {})["nvidia.com/workload-provider"] = (
                row.stored_provider
            )
            # The stored object went through the mutating webhook: minAvailable defaulted on Grove
            # (until 1.6, which leaves the minimum to Grove).
            if row.stored_provider == "grove" and version_key(version) < (1, 6):
                for component in old["spec"].get("components") or []:
                    component.setdefault("minAvailable", 1)
    profile = Profile(
        grove=row.grove, checkpoint=row.checkpoint, lpx=row.lpx, operator_version=version
    )
    found = validate_object(obj, bundled_schemas(version), profile, old=old)
    errors = [f for f in found if f.severity == "error"]
    structural = [f for f in errors if f.layer in ("schema", "cel")]
    stage = structural or [f for f in errors if f.layer == "webhook"]
    # The operator's harness strips the CEL rule's value type ("object"/"array") from messages;
    # kube-apiserver 1.35+ omits it itself, and so does the validator.
    return [f"{f.path}: {f.message}" for f in stage]


CASES = [
    pytest.param(row, version, id=f"{version}: {row.name}")
    for row in (
        CREATE_ROWS
        + UPDATE_ROWS
        + LPX_ROWS
        + LPX_RESTART_ROWS
        + ROLE_ROWS
        + PATHWAY_ROWS
        + SIDECAR_ROWS
        + BUDGET_ROWS
        + ROLE_UPDATE_ROWS
    )
    for version in row.versions
]


@pytest.mark.parametrize(("row", "version"), CASES)
def test_operator_admission_row(row: Row, version: str) -> None:
    assert admission_result(row, version) == row.expected_in(version)


def test_no_row_leaks_an_env_value() -> None:
    row = next(r for r in UPDATE_ROWS if "env values" in r.name)
    assert not any("do-not-leak-this-value" in line for line in admission_result(row))
