"""Every create-time webhook rule (docs/operator-semantics.md#create-rules): the exact path and message, and its negative."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.defaults import mutate
from kubectl_dgd.core.validate.webhook import check_create
from tests.unit.dgd_factory import (
    IMAGE,
    component,
    frontend,
    graph,
    main_container,
    main_of,
    worker,
)

Mutation = Callable[[dict[str, Any]], None]
GROVE = Profile()
NO_GROVE = Profile(grove=False)
COMPONENT = Profile(provider="component")
# Rules and wordings of older operator releases are pinned to them.
V13 = Profile(operator_version="1.3")
NO_GROVE_13 = Profile(grove=False, operator_version="1.3")
V15 = Profile(operator_version="1.5")
# Before 1.6 every EPP component needs an eppConfig (CO7).
LEGACY_EPP_CONFIG = {"configMapRef": {"name": "epp-config"}}
LONG_DGD = "test-graph-" + "x" * 50
BOUNDARY = "w" + "x" * 36


def errors(obj: dict[str, Any], profile: Profile = GROVE) -> list[str]:
    """Webhook error lines after the mutating defaults, as the API server would list them."""
    mutate(obj, profile, None)
    return [f"{f.path}: {f.message}" for f in check_create(obj, profile) if f.severity == "error"]


def annotate(**values: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        obj["metadata"]["annotations"] = dict(values)

    return apply


def on_worker(**fields: Any) -> Mutation:
    return lambda obj: worker(obj).update(fields)


def on_main(**fields: Any) -> Mutation:
    return lambda obj: main_of(worker(obj)).update(fields)


def gms(mode: str = "IntraPod", gpus: int = 1) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        w = worker(obj)
        w.setdefault("experimental", {})["gpuMemoryService"] = {"mode": mode}
        main_of(w)["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}

    return apply


def chain(*steps: Mutation) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        for step in steps:
            step(obj)

    return apply


def set_spec(**fields: Any) -> Mutation:
    return lambda obj: obj["spec"].update(fields)


def failover(mode: str, **extra: Any) -> Mutation:
    return lambda obj: (
        worker(obj).setdefault("experimental", {}).__setitem__("failover", {"mode": mode, **extra})
    )


def epp(**fields: Any) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        w = worker(obj)
        w["type"] = "epp"
        w["replicas"] = 1
        w.update(fields)

    return apply


def rename_long(component_name: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        obj["metadata"]["name"] = LONG_DGD
        worker(obj)["name"] = component_name

    return apply


GROVE_DISABLED = "requires the Grove pathway, but Grove is disabled in the operator configuration"
ENABLE_GROVE_FALSE = 'requires the Grove pathway; remove or unset annotation "nvidia.com/enable-grove" (currently "false")'
COMPONENT_SELECTED = 'requires the Grove pathway, but workload provider "component" is selected'
GROVE_ONLY = "is currently supported only for Grove-backed DynamoGraphDeployment components"

CASES: list[tuple[str, Mutation, Profile, list[str]]] = [
    ("valid graph", lambda obj: None, GROVE, []),
    ("valid graph on the component path", lambda obj: None, NO_GROVE, []),
    # metadata annotations
    (
        "origin version accepts semver",
        annotate(**{"nvidia.com/dynamo-operator-origin-version": "1.2.3"}),
        GROVE,
        [],
    ),
    (
        "origin version rejects non-semver",
        annotate(**{"nvidia.com/dynamo-operator-origin-version": "not-semver"}),
        GROVE,
        [
            'metadata.annotations[nvidia.com/dynamo-operator-origin-version]: Invalid value: "not-semver": must be valid semver'
        ],
    ),
    (
        "vLLM backend annotation accepts ray case-insensitively",
        annotate(**{"nvidia.com/vllm-distributed-executor-backend": "RAY"}),
        GROVE,
        [],
    ),
    (
        "vLLM backend annotation rejects unknown value",
        annotate(**{"nvidia.com/vllm-distributed-executor-backend": "typo"}),
        GROVE,
        [
            'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "typo": must be "mp" or "ray"'
        ],
    ),
    (
        "Grove update strategy accepts OnDelete",
        annotate(**{"nvidia.com/grove-update-strategy": "OnDelete"}),
        GROVE,
        [],
    ),
    (
        "Grove update strategy rejects lowercase",
        annotate(**{"nvidia.com/grove-update-strategy": "ondelete"}),
        V15,
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "ondelete": supported values: "RollingRecreate", "OnDelete"'
        ],
    ),
    (
        "Grove update strategy rejects whitespace",
        annotate(**{"nvidia.com/grove-update-strategy": " OnDelete "}),
        V15,
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: " OnDelete ": supported values: "RollingRecreate", "OnDelete"'
        ],
    ),
    (
        "discovery mode accepts container",
        annotate(**{"nvidia.com/dynamo-kube-discovery-mode": "container"}),
        GROVE,
        [],
    ),
    (
        "discovery mode rejects unknown value",
        annotate(**{"nvidia.com/dynamo-kube-discovery-mode": "endpoint"}),
        GROVE,
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Unsupported value: "endpoint": supported values: "pod", "container"'
        ],
    ),
    (
        "intra-pod failover requires container discovery",
        chain(gms(), failover("IntraPod")),
        GROVE,
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Invalid value: "": must be "container" when intra-pod failover is configured'
        ],
    ),
    (
        "intra-pod failover with container discovery is valid",
        chain(
            gms(),
            failover("IntraPod"),
            annotate(**{"nvidia.com/dynamo-kube-discovery-mode": "container"}),
        ),
        GROVE,
        [],
    ),
    # root
    (
        "no components",
        set_spec(components=[]),
        GROVE,
        ["spec.components: Required value: must have at least one component"],
    ),
    ("priority class is allowed with Grove", set_spec(priorityClassName="high"), GROVE, []),
    (
        "priority class with Grove disabled",
        set_spec(priorityClassName="high"),
        NO_GROVE_13,
        [f"spec.priorityClassName: Forbidden: {GROVE_DISABLED}"],
    ),
    (
        "priority class with enable-grove false",
        chain(set_spec(priorityClassName="high"), annotate(**{"nvidia.com/enable-grove": "False"})),
        V13,
        [
            'spec.priorityClassName: Forbidden: requires the Grove pathway; remove or unset annotation "nvidia.com/enable-grove" (currently "False")'
        ],
    ),
    (
        "priority class with component provider selected",
        set_spec(priorityClassName="high"),
        COMPONENT,
        [f"spec.priorityClassName: Forbidden: {COMPONENT_SELECTED}"],
    ),
    # Grove name budget
    ("Grove name length accepts the boundary", rename_long(BOUNDARY), GROVE, []),
    (
        "Grove name length rejects overflow",
        rename_long(BOUNDARY + "x"),
        GROVE,
        [
            f'spec.components[1].name: Invalid value: "{BOUNDARY}x": combined resource name length 46 exceeds the '
            f'45-character pod-name limit (PCS name + component name); shorten DynamoGraphDeployment name "{LONG_DGD}" '
            f'or component name "{BOUNDARY}x"'
        ],
    ),
    ("Grove name length is skipped outside Grove", rename_long(BOUNDARY + "x"), NO_GROVE, []),
    # topology
    (
        "component topology requires deployment topology",
        on_worker(topologyConstraint={"packDomain": "rack"}),
        GROVE,
        [
            "spec.topologyConstraint: Required value: is required when any component topology constraint is set"
        ],
    ),
    (
        "deployment topology needs a pack domain when no component has one",
        set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
        GROVE,
        [
            "spec.topologyConstraint.packDomain: Required value: is required when no component topologyConstraint is set"
        ],
    ),
    (
        "deployment topology without pack domain requires every component topology",
        chain(
            set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
            on_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        V13,
        [
            "spec.components[0].topologyConstraint: Required value: is required because spec.topologyConstraint.packDomain is not set"
        ],
    ),
    (
        "deployment pack domain can be inherited",
        set_spec(
            topologyConstraint={"clusterTopologyName": "grove-topology", "packDomain": "rack"}
        ),
        GROVE,
        [],
    ),
    # kv transfer policy
    (
        "KV transfer cluster topology name must be a DNS-1123 subdomain",
        set_spec(
            experimental={"kvTransferPolicy": {"clusterTopologyName": "Bad_Name", "domain": "zone"}}
        ),
        GROVE,
        [
            "spec.experimental.kvTransferPolicy.clusterTopologyName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ],
    ),
    (
        "KV transfer cluster topology name requires Grove",
        chain(
            annotate(**{"nvidia.com/enable-grove": "false"}),
            set_spec(
                experimental={
                    "kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}
                }
            ),
        ),
        V13,
        [
            f"spec.experimental.kvTransferPolicy.clusterTopologyName: Forbidden: {ENABLE_GROVE_FALSE}"
        ],
    ),
    (
        "KV transfer label key policy is valid off Grove",
        set_spec(
            experimental={
                "kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}
            }
        ),
        NO_GROVE,
        [],
    ),
    # per component Grove-only fields
    ("minAvailable is allowed on Grove", on_worker(minAvailable=1), GROVE, []),
    (
        "minAvailable requires Grove",
        on_worker(minAvailable=1),
        NO_GROVE,
        [f"spec.components[1].minAvailable: Forbidden: {GROVE_ONLY}"],
    ),
    (
        "forceScalingGroup requires Grove",
        on_worker(experimental={"grove": {"forceScalingGroup": True}}),
        NO_GROVE,
        [f"spec.components[1].experimental.grove.forceScalingGroup: Forbidden: {GROVE_ONLY}"],
    ),
    (
        "forceScalingGroup false is fine off Grove",
        on_worker(experimental={"grove": {"forceScalingGroup": False}}),
        NO_GROVE,
        [],
    ),
    ("sharedMemorySize zero disables shm", on_worker(sharedMemorySize="0"), GROVE, []),
    (
        "sharedMemorySize must be non-negative",
        on_worker(sharedMemorySize="-1Gi"),
        GROVE,
        ['spec.components[1].sharedMemorySize: Invalid value: "-1Gi": must be non-negative'],
    ),
    # multinode
    ("multinode worker is valid", on_worker(multinode={"nodeCount": 2}), GROVE, []),
    (
        "multinode is only for worker types",
        lambda obj: frontend(obj).update(multinode={"nodeCount": 2}),
        GROVE,
        [
            "spec.components[0].multinode: Forbidden: multinode is supported only for worker, prefill, or decode components"
        ],
    ),
    # main image and runtime version
    (
        "main container missing",
        lambda obj: frontend(obj).pop("podTemplate"),
        GROVE,
        [
            "spec.components[0].podTemplate.spec.containers: Required value: is required",
        ],
    ),
    (
        "main container without image",
        lambda obj: main_of(frontend(obj)).pop("image"),
        GROVE,
        [
            "spec.components[0].podTemplate.spec.containers[0].image: Required value: is required",
        ],
    ),
    (
        "main image without a semver tag needs an override",
        on_main(image="nvcr.io/x/vllm-runtime:latest"),
        GROVE,
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the specified main container image has no parseable semantic-version tag"
        ],
    ),
    (
        "runtimeVersionOverride satisfies an unparseable tag",
        chain(on_main(image="img:sha-abc"), on_worker(runtimeVersionOverride="1.4.0")),
        GROVE,
        [],
    ),
    ("v-prefixed semver tag parses", on_main(image="img:v1.4.0-rc1"), GROVE, []),
    # frontend sidecar
    (
        "frontendSidecar naming a container is valid",
        chain(on_worker(frontendSidecar="main")),
        GROVE,
        [],
    ),
    (
        "frontendSidecar must not be empty",
        on_worker(frontendSidecar=""),
        GROVE,
        # The operator's type is Invalid (shared_v1beta1.go in 1.3 to 1.6), not Required.
        ['spec.components[1].frontendSidecar: Invalid value: "": must not be empty'],
    ),
    (
        "frontendSidecar must name a container",
        on_worker(frontendSidecar="missing"),
        GROVE,
        [
            'spec.components[1].frontendSidecar: Invalid value: "missing": must match a podTemplate.spec.containers name'
        ],
    ),
    # EPP
    ("native Rust EPP without eppConfig is valid", epp(), GROVE, []),
    (
        "native Rust EPP forbids eppConfig",
        epp(eppConfig={"configMapRef": {"name": "epp"}}),
        GROVE,
        [
            "spec.components[1].eppConfig: Forbidden: must be omitted for native Rust EPP images with runtime version 1.5.0 or later"
        ],
    ),
    (
        "legacy Go EPP requires eppConfig",
        epp(runtimeVersionOverride="1.4.0"),
        GROVE,
        [
            "spec.components[1].eppConfig: Required value: is required for legacy Go EPP images with runtime version earlier than 1.5.0"
        ],
    ),
    (
        "legacy Go EPP with eppConfig is valid",
        epp(runtimeVersionOverride="1.4.0", eppConfig={"configMapRef": {"name": "epp"}}),
        GROVE,
        [],
    ),
    (
        "EPP configMapRef needs a name",
        epp(runtimeVersionOverride="1.4.0", eppConfig={"configMapRef": {"name": ""}}),
        GROVE,
        ["spec.components[1].eppConfig.configMapRef.name: Required value: is required"],
    ),
    (
        "EPP must have exactly one replica",
        epp(replicas=2, eppConfig=LEGACY_EPP_CONFIG),
        V15,
        [
            "spec.components[1].replicas: Invalid value: 2: EPP component must have exactly 1 replica"
        ],
    ),
    # 1.3-1.5 had an EPP-only multinode rule; 1.6 replaced it with the worker-types rule (CO4a/b).
    (
        "EPP cannot be multinode",
        epp(multinode={"nodeCount": 2}, eppConfig=LEGACY_EPP_CONFIG),
        V15,
        ["spec.components[1].multinode: Forbidden: EPP component cannot be multinode"],
    ),
    (
        "EPP cannot be multinode (1.6)",
        epp(multinode={"nodeCount": 2}),
        GROVE,
        [
            "spec.components[1].multinode: Forbidden: multinode is supported only for worker, prefill, or decode components",
        ],
    ),
    # GMS
    ("intra-pod GMS on a worker with a GPU is valid", gms(), GROVE, []),
    (
        "GMS rejects frontend component",
        lambda obj: frontend(obj).update(experimental={"gpuMemoryService": {"mode": "IntraPod"}}),
        GROVE,
        [
            "spec.components[0].experimental.gpuMemoryService: Forbidden: GPU memory service is only supported for worker, prefill, or decode components"
        ],
    ),
    (
        "GMS requires GPU resources on the main container",
        gms(gpus=0),
        GROVE,
        [
            "spec.components[1].experimental.gpuMemoryService: Forbidden: GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1"
        ],
    ),
    (
        "GMS extra client containers must exist",
        chain(
            gms(),
            lambda obj: worker(obj)["experimental"]["gpuMemoryService"].update(
                extraClientContainers=["metrics"]
            ),
        ),
        GROVE,
        [
            'spec.components[1].experimental.gpuMemoryService.extraClientContainers[0]: Invalid value: "metrics": does not name a container in podTemplate.spec.containers'
        ],
    ),
    ("inter-pod GMS with vLLM on Grove is valid", gms("InterPod"), GROVE, []),
    (
        "inter-pod GMS requires Grove",
        gms("InterPod"),
        NO_GROVE_13,
        [f"spec.components[1].experimental.gpuMemoryService.mode: Forbidden: {GROVE_DISABLED}"],
    ),
    (
        "inter-pod GMS requires vLLM backend",
        chain(gms("InterPod"), set_spec(backendFramework="sglang")),
        GROVE,
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": the inter-pod GMS layout is currently supported only for vLLM (detected backend: sglang)'
        ],
    ),
    (
        "inter-pod GMS reads spec.backendFramework, not the command",
        chain(gms("InterPod"), lambda obj: obj["spec"].pop("backendFramework")),
        GROVE,
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": the inter-pod GMS layout is currently supported only for vLLM (detected backend: <unset>)'
        ],
    ),
    # failover
    (
        "intra-pod failover requires GMS",
        chain(
            failover("IntraPod"), annotate(**{"nvidia.com/dynamo-kube-discovery-mode": "container"})
        ),
        GROVE,
        [
            'spec.components[1].experimental.failover: Forbidden: gpuMemoryService is required when failover mode is "IntraPod"'
        ],
    ),
    (
        "failover mode must match GMS mode",
        chain(gms(), failover("InterPod", numShadows=1)),
        GROVE,
        [
            'spec.components[1].experimental.failover.mode: Invalid value: "InterPod": must match gpuMemoryService.mode "IntraPod"'
        ],
    ),
    (
        "inter-pod failover requires GMS and a GPU",
        failover("InterPod", numShadows=1),
        GROVE,
        [
            'spec.components[1].experimental.failover: Forbidden: gpuMemoryService is required when failover mode is "InterPod"',
            "spec.components[1].experimental.failover: Forbidden: GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
        ],
    ),
    (
        "inter-pod failover rejects frontend component",
        lambda obj: frontend(obj).update(
            experimental={"failover": {"mode": "InterPod", "numShadows": 1}}
        ),
        GROVE,
        [
            'spec.components[0].experimental.failover: Forbidden: gpuMemoryService is required when failover mode is "InterPod"',
            "spec.components[0].experimental.failover: Forbidden: GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
            'spec.components[0].experimental.failover: Forbidden: GMS failover is not supported for component type "frontend"',
        ],
    ),
    (
        "inter-pod failover with inter-pod GMS is valid",
        chain(gms("InterPod"), failover("InterPod", numShadows=1)),
        GROVE,
        [],
    ),
    # checkpoint
    (
        "checkpoint on a worker is valid",
        on_worker(experimental={"checkpoint": {"enabled": True}}),
        GROVE,
        [],
    ),
    (
        "checkpoint requires the operator gate",
        on_worker(experimental={"checkpoint": {"enabled": True}}),
        Profile(checkpoint=False),
        [
            "spec.components[1].experimental.checkpoint: Forbidden: checkpoint functionality is disabled in the operator configuration"
        ],
    ),
    (
        "checkpoint is for worker types only",
        lambda obj: frontend(obj).update(experimental={"checkpoint": {"enabled": True}}),
        GROVE,
        [
            "spec.components[0].experimental.checkpoint: Forbidden: checkpoint functionality is supported only for worker, prefill, and decode components"
        ],
    ),
    (
        "checkpoint GMS client containers require GMS",
        on_worker(
            experimental={
                "checkpoint": {"enabled": False, "job": {"gmsClientContainers": ["main"]}}
            }
        ),
        GROVE,
        [
            "spec.components[1].experimental.checkpoint.job.gmsClientContainers: Forbidden: requires gpuMemoryService to be set"
        ],
    ),
    (
        "checkpoint with inter-pod GMS is unsupported",
        chain(
            gms("InterPod"),
            lambda obj: worker(obj)["experimental"].update(checkpoint={"enabled": True}),
        ),
        GROVE,
        [
            "spec.components[1].experimental.checkpoint: Forbidden: Snapshot with gpuMemoryService.mode=InterPod is unsupported"
        ],
    ),
    (
        "checkpoint with intra-pod GMS needs the internal gate",
        chain(gms(), lambda obj: worker(obj)["experimental"].update(checkpoint={"enabled": True})),
        V13,
        [
            "spec.components[1].experimental.checkpoint: Forbidden: GMS + Snapshot is temporarily disabled; disable gpuMemoryService or enable the internal GMS + Snapshot gate"
        ],
    ),
    # GPU power annotation
    (
        "power annotation with a decimal value is valid",
        on_worker(
            podTemplate={
                "metadata": {"annotations": {"dynamo.nvidia.com/gpu-power-limit": "300"}},
                "spec": {"containers": [main_container(gpus=1)]},
            }
        ),
        GROVE,
        [],
    ),
    (
        "power annotation must be a decimal integer",
        lambda obj: worker(obj)["podTemplate"].update(
            metadata={"annotations": {"dynamo.nvidia.com/gpu-power-limit": "300W"}}
        ),
        GROVE,
        [
            'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "300W": must be a decimal integer'
        ],
    ),
    (
        "power annotation must be positive",
        lambda obj: worker(obj)["podTemplate"].update(
            metadata={"annotations": {"dynamo.nvidia.com/gpu-power-limit": "-300"}}
        ),
        GROVE,
        [
            'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "-300": must be greater than zero'
        ],
    ),
    (
        "power annotation cannot be combined with GMS DRA",
        chain(
            gms(),
            lambda obj: worker(obj)["podTemplate"].update(
                metadata={"annotations": {"dynamo.nvidia.com/gpu-power-limit": "300"}}
            ),
        ),
        GROVE,
        [
            'spec.components[1].experimental.gpuMemoryService: Forbidden: cannot be combined with annotation "dynamo.nvidia.com/gpu-power-limit": power-aware planning does not support DRA-backed device allocation'
        ],
    ),
    # elastic EP
    (
        "elastic EP with Ray needs an explicit command",
        on_main(args=["--enable-elastic-ep", "--data-parallel-backend", "ray"]),
        GROVE,
        [
            "spec.components[1].podTemplate.spec.containers[0].command: Required value: elastic expert parallelism (--enable-elastic-ep with --data-parallel-backend ray) requires an explicit container command; the operator starts the single-pod Ray head by wrapping that command and cannot start it from the image ENTRYPOINT"
        ],
    ),
    (
        "elastic EP with a command is valid",
        on_main(
            command=["python3", "-m", "dynamo.vllm"], args=["--enable-elastic-ep", "-dpb", "ray"]
        ),
        GROVE,
        [],
    ),
    (
        "elastic EP without Ray is valid",
        on_main(args=["--enable-elastic-ep", "--data-parallel-backend", "mp"]),
        GROVE,
        [],
    ),
    # The newest operator (the default profile) against the older-release cases above.
    (
        "1.6 lists Coherent among the Grove update strategies",
        annotate(**{"nvidia.com/grove-update-strategy": "ondelete"}),
        GROVE,
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "ondelete": supported values: "Coherent", "RollingRecreate", "OnDelete"'
        ],
    ),
    (
        "1.6 admits the Coherent update strategy",
        annotate(**{"nvidia.com/grove-update-strategy": "Coherent"}),
        GROVE,
        [],
    ),
    (
        "1.5 rejects the Coherent update strategy",
        annotate(**{"nvidia.com/grove-update-strategy": "Coherent"}),
        V15,
        [
            'metadata.annotations[nvidia.com/grove-update-strategy]: Unsupported value: "Coherent": supported values: "RollingRecreate", "OnDelete"'
        ],
    ),
    (
        "1.6 priority class with Grove disabled: the stamped provider decides",
        set_spec(priorityClassName="high"),
        NO_GROVE,
        [f"spec.priorityClassName: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "1.6 priority class with enable-grove false: the stamped provider decides",
        chain(set_spec(priorityClassName="high"), annotate(**{"nvidia.com/enable-grove": "False"})),
        GROVE,
        [f"spec.priorityClassName: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "1.6 no longer asks each component for a topology when spec packDomain is empty",
        chain(
            set_spec(topologyConstraint={"clusterTopologyName": "grove-topology"}),
            on_worker(topologyConstraint={"packDomain": "rack"}),
        ),
        GROVE,
        [],
    ),
    (
        "1.6 KV transfer cluster topology name off Grove",
        chain(
            annotate(**{"nvidia.com/enable-grove": "false"}),
            set_spec(
                experimental={
                    "kvTransferPolicy": {"clusterTopologyName": "grove-topology", "domain": "zone"}
                }
            ),
        ),
        GROVE,
        [
            f"spec.experimental.kvTransferPolicy.clusterTopologyName: Forbidden: {COMPONENT_SELECTED}"
        ],
    ),
    (
        "1.6 inter-pod GMS off Grove",
        gms("InterPod"),
        NO_GROVE,
        [f"spec.components[1].experimental.gpuMemoryService.mode: Forbidden: {COMPONENT_SELECTED}"],
    ),
    (
        "1.6 admits checkpoint with intra-pod GMS (the GMS + Snapshot gate is gone)",
        chain(gms(), lambda obj: worker(obj)["experimental"].update(checkpoint={"enabled": True})),
        GROVE,
        [],
    ),
    (
        "1.3 admits a custom tag without runtimeVersionOverride",
        on_main(image="nvcr.io/x/vllm-runtime:my-tag"),
        V13,
        [],
    ),
    (
        "1.3 admits a component without a main image",
        lambda obj: frontend(obj).pop("podTemplate"),
        V13,
        [],
    ),
]


@pytest.mark.parametrize(
    ("mutation", "profile", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_create_rule(mutation: Mutation, profile: Profile, expected: list[str]) -> None:
    obj = graph()
    mutation(obj)
    assert errors(obj, profile) == expected


def test_every_error_message_is_type_then_detail_without_the_path() -> None:
    obj = graph()
    frontend(obj).pop("podTemplate")
    mutate(obj, GROVE, None)
    for finding in check_create(obj, GROVE):
        assert finding.layer == "webhook"
        assert not finding.message.startswith(finding.path)
        assert finding.message.split(":")[0] in {
            "Required value",
            "Forbidden",
            "Invalid value",
            "Unsupported value",
        }


def test_independent_root_errors_aggregate_in_operator_order() -> None:
    obj = graph()
    obj["spec"]["components"] = []
    obj["metadata"]["annotations"] = {
        "nvidia.com/dynamo-operator-origin-version": "not-semver",
        "nvidia.com/vllm-distributed-executor-backend": "invalid",
        "nvidia.com/dynamo-kube-discovery-mode": "invalid",
    }
    assert errors(obj) == [
        'metadata.annotations[nvidia.com/dynamo-operator-origin-version]: Invalid value: "not-semver": must be valid semver',
        'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "invalid": must be "mp" or "ray"',
        'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Unsupported value: "invalid": supported values: "pod", "container"',
        "spec.components: Required value: must have at least one component",
    ]


def test_multinode_grove_name_budget_counts_the_longest_clique() -> None:
    obj = graph(name="g")
    worker(obj)["multinode"] = {"nodeCount": 2}
    worker(obj)["name"] = "w" * 21
    assert errors(obj) == [
        f'spec.components[1].name: Invalid value: "{"w" * 21}": combined resource name length 47 exceeds the '
        f'45-character pod-name limit (PCS name + PCSG name + longest PodClique name "{"w" * 21}-ldr"); '
        f'shorten DynamoGraphDeployment name "g" or component name "{"w" * 21}"'
    ]


def test_cluster_state_checks_are_info_findings() -> None:
    obj = graph()
    obj["spec"]["topologyConstraint"] = {
        "clusterTopologyName": "grove-topology",
        "packDomain": "rack",
    }
    worker(obj)["type"] = "epp"
    mutate(obj, GROVE, None)
    infos = {(f.path, f.code) for f in check_create(obj, GROVE) if f.severity == "info"}
    assert infos == {
        ("spec.topologyConstraint.clusterTopologyName", "topology-binding-not-checked"),
        ("spec.components[1].type", "epp-inference-pool-not-checked"),
    }


def test_binding_lookup_is_skipped_after_the_first_generation() -> None:
    obj = graph()
    obj["metadata"]["generation"] = 2
    obj["spec"]["topologyConstraint"] = {
        "clusterTopologyName": "grove-topology",
        "packDomain": "rack",
    }
    assert [f for f in check_create(obj, GROVE) if f.severity == "info"] == []


def test_webhook_never_raises_on_odd_shapes() -> None:
    odd: list[Any] = [
        {},
        {"spec": None},
        {"spec": {"components": "x"}},
        {"spec": {"components": [None, 3, {"podTemplate": 7}]}},
    ]
    for obj in odd:
        check_create(obj, GROVE)


def test_component_image_fixture_is_valid() -> None:
    assert component("x", "worker")["podTemplate"]["spec"]["containers"][0]["image"] == IMAGE
