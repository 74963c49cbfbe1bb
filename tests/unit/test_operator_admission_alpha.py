"""The v1alpha1 rows of the operator's envtest admission table, replayed through our pipeline.

Restated in our own structure from ``dynamographdeployment_validation_envtest_test.go`` (the
rows whose request is a v1alpha1 object): a baseline graph with one ``worker`` service (image
``registry.example/runtime:1.1.0``, ``runtimeVersionOverride: 1.1.0``, one replica, backend
vllm, in namespace ``default``), one change, and what the API server answered. As in
``test_operator_admission_table.py`` the compared list is the first failing stage: schema + CEL
errors when there are any, else the webhook's (and, where the row checks them, the warnings).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.pipeline import validate_object
from tests.unit.test_operator_admission_table import lpx_component

IMAGE = "registry.example/runtime:1.1.0"
CUSTOM = "registry.example/runtime:custom"
RUNTIME = (
    "Required value: is required when the specified main container image has no parseable "
    "semantic-version tag"
)
IMMUTABLE = "field is immutable"
POWER = "dynamo.nvidia.com/gpu-power-limit"

Change = Callable[[dict[str, Any]], object]


def baseline() -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "test-graph", "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "services": {
                "worker": {
                    "componentType": "worker",
                    "runtimeVersionOverride": "1.1.0",
                    "replicas": 1,
                    "extraPodSpec": {"mainContainer": {"image": IMAGE}},
                }
            },
        },
    }


def worker(obj: dict[str, Any]) -> dict[str, Any]:
    service: dict[str, Any] = obj["spec"]["services"]["worker"]
    return service


def services(obj: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = obj["spec"]["services"]
    return result


def custom_image(obj: dict[str, Any], image: str = CUSTOM) -> None:
    worker(obj).pop("runtimeVersionOverride")  # "" in Go: omitted from the request (omitempty)
    worker(obj)["extraPodSpec"]["mainContainer"]["image"] = image


def renamed(*names: str) -> Change:
    def change(obj: dict[str, Any]) -> None:
        service = worker(obj)
        obj["spec"]["services"] = {name: copy.deepcopy(service) for name in names}

    return change


def labelled(change: Change | None = None) -> Change:
    def apply(obj: dict[str, Any]) -> None:
        if change is not None:
            change(obj)
        obj["metadata"]["labels"] = {"updated": "true"}

    return apply


def power(watts: str, gpus: str, nodes: int) -> Change:
    def change(obj: dict[str, Any]) -> None:
        service = worker(obj)
        service["extraPodMetadata"] = {"annotations": {POWER: watts}}
        service["resources"] = {"limits": {"gpu": gpus}}
        service["multinode"] = {"nodeCount": nodes}

    return change


def both(*changes: Change) -> Change:
    def apply(obj: dict[str, Any]) -> None:
        for change in changes:
            change(obj)

    return apply


def frontend(**extra: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        services(obj)["frontend"] = {
            "componentType": "frontend",
            "runtimeVersionOverride": "1.1.0",
            "extraPodSpec": {"mainContainer": {"image": IMAGE}},
            **extra,
        }

    return change


def set_worker(**fields: Any) -> Change:
    return lambda obj: worker(obj).update(copy.deepcopy(fields))


@dataclass
class Row:
    name: str
    change: Change | None
    expected: list[str]
    old: Change | None = None
    warnings: list[str] | None = None
    # The operator's table runs with LPX enabled unless a row turns it off.
    lpx_disabled: bool = False


def nothing(obj: dict[str, Any]) -> None:
    return None


# ConfigMapKeySelector.key has no omitempty, so the Go fixture sends it empty.
EPP_BOTH = {
    "configMapRef": {"name": "epp", "key": ""},
    "config": {"plugins": [], "schedulingProfiles": []},
}

ROWS = [
    Row(
        "alpha service main image is required when extra pod spec is absent on create",
        lambda obj: worker(obj).pop("extraPodSpec"),
        ["spec.services[worker].extraPodSpec.mainContainer.image: Required value: is required"],
    ),
    Row(
        "alpha component custom image uses source-version path",
        custom_image,
        [f"spec.services[worker].runtimeVersionOverride: {RUNTIME}"],
    ),
    Row(
        "unchanged legacy alpha service runtime version is ratcheted on update",
        labelled(custom_image),
        [],
        old=custom_image,
    ),
    Row(
        "changing a legacy alpha custom image requires runtime version override",
        lambda obj: custom_image(obj, "registry.example/runtime:other-custom"),
        [f"spec.services[worker].runtimeVersionOverride: {RUNTIME}"],
        old=custom_image,
    ),
    Row("v1alpha1 converted empty service map key is accepted", renamed(""), []),
    Row(
        "v1alpha1 converted service names may collide case-insensitively",
        renamed("worker", "WORKER"),
        [],
    ),
    Row(
        "v1alpha1 case-insensitive service names remain updateable",
        labelled(renamed("worker", "WORKER")),
        [],
        old=renamed("worker", "WORKER"),
    ),
    Row(
        "v1alpha1 empty service name remains updateable", labelled(renamed("")), [], old=renamed("")
    ),
    Row(
        "v1alpha1 converted compilation cache mount with an empty PVC name is rejected",
        set_worker(volumeMounts=[{"useAsCompilationCache": True}]),
        ["spec.services.worker.volumeMounts[0].name: Required value"],
    ),
    Row(
        "v1alpha1 converted sidecar without image reaches the webhook",
        set_worker(
            extraPodSpec={"mainContainer": {"image": IMAGE}, "containers": [{"name": "metrics"}]}
        ),
        [],
    ),
    Row(
        "v1alpha1 frontend sidecar without image reaches the webhook",
        set_worker(
            frontendSidecar={"image": ""},  # image has no omitempty: an empty struct sends it
            extraPodSpec={"mainContainer": {"image": IMAGE}, "containers": [{"name": "metrics"}]},
        ),
        [],
    ),
    Row(
        "v1alpha1 converted init container without image reaches the webhook",
        set_worker(
            extraPodSpec={"mainContainer": {"image": IMAGE}, "initContainers": [{"name": "prep"}]}
        ),
        [],
    ),
    Row(
        "v1alpha1 converted extraPodMetadata annotation does not receive v1beta1 CEL validation",
        set_worker(
            extraPodMetadata={
                "annotations": {"nvidia.com/vllm-distributed-executor-backend": "typo"}
            }
        ),
        [],
    ),
    Row(
        "v1alpha1 invalid service annotation remains rejected by the webhook",
        set_worker(annotations={"nvidia.com/vllm-distributed-executor-backend": "invalid"}),
        [
            "spec.services[worker].annotations[nvidia.com/vllm-distributed-executor-backend]: "
            'Invalid value: "invalid": must be "mp" or "ray"'
        ],
    ),
    Row("valid v1alpha1 deployment reaches the webhook", None, []),
    Row(
        "v1alpha1 power annotation change is rejected after conversion by the webhook",
        power("350", "1", 2),
        [
            f'spec.components[0].podTemplate.metadata.annotations[{POWER}]: Invalid value: "350": '
            f"{IMMUTABLE}"
        ],
        old=power("300", "1", 2),
    ),
    Row(
        "v1alpha1 power annotation with GMS DRA is rejected after conversion",
        both(
            power("300", "1", 2), set_worker(gpuMemoryService={"enabled": True, "mode": "intraPod"})
        ),
        [
            "spec.components[0].experimental.gpuMemoryService: Forbidden: cannot be combined with "
            f'annotation "{POWER}": power-aware planning does not support DRA-backed device allocation'
        ],
    ),
    Row(
        "v1alpha1 effective GPU change is rejected after conversion by the webhook",
        power("300", "2", 2),
        [
            "spec.components[0].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]: "
            f'Invalid value: "2": {IMMUTABLE}'
        ],
        old=power("300", "1", 2),
    ),
    Row(
        "v1alpha1 power node count change is rejected after conversion by the webhook",
        power("300", "1", 3),
        [f"spec.components[0].multinode.nodeCount: Invalid value: 3: {IMMUTABLE}"],
        old=power("300", "1", 2),
    ),
    Row(
        "v1alpha1 unrelated power service update reaches webhook",
        both(
            power("300", "1", 2),
            set_worker(replicas=2),
            lambda obj: worker(obj)["extraPodSpec"]["mainContainer"].update(
                image="registry.example/runtime:1.2.0"
            ),
        ),
        [],
        old=power("300", "1", 2),
    ),
    Row(
        "alpha PVC empty name requirement is preserved structurally",
        lambda obj: obj["spec"].update(pvcs=[{"name": "", "create": False}]),
        ["spec.pvcs[0].name: Required value: is required"],
    ),
    Row(
        "alpha ingress requires host",
        frontend(ingress={"enabled": True, "ingressControllerClassName": "nginx"}),
        [
            "spec.services[frontend].ingress.host: Required value: is required when ingress is enabled"
        ],
    ),
    Row(
        "alpha volume mounts require mount point unless used as compilation cache",
        set_worker(volumeMounts=[{"name": "cache"}]),
        [
            "spec.services[worker].volumeMounts[0].mountPoint: Required value: is required when "
            "useAsCompilationCache is false"
        ],
    ),
    Row(
        "alpha EPP config sources are mutually exclusive",
        set_worker(componentType="epp", eppConfig=EPP_BOTH),
        [
            "spec.services[worker].eppConfig: Forbidden: exactly one of configMapRef or config is required"
        ],
    ),
    Row(
        "alpha intra-pod failover shadow maximum is preserved structurally",
        set_worker(failover={"enabled": True, "mode": "intraPod", "numShadows": 2}),
        [
            'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]: Invalid value: "": must be '
            '"container" when intra-pod failover is configured',
            "spec.components[0].experimental.failover: Forbidden: gpuMemoryService is required when "
            'failover mode is "IntraPod"',
            'spec.services[worker].failover.numShadows: Invalid value: 2: is invalid for mode="intraPod": '
            'intraPod uses a fixed 1 primary + 1 shadow sidecar; use failover.mode="interPod" to '
            "configure numShadows",
        ],
    ),
    Row(
        "alpha frontend sidecar rejects generated container name conflict",
        frontend(
            frontendSidecar={"image": "custom/frontend:latest"},
            extraPodSpec={
                "mainContainer": {"image": IMAGE},
                "containers": [{"name": "sidecar-frontend", "image": "custom/frontend:latest"}],
            },
        ),
        [
            "spec.services[frontend].frontendSidecar: Forbidden: cannot inject frontend sidecar: a "
            'container named "sidecar-frontend" already exists in extraPodSpec.containers'
        ],
    ),
    Row(
        "alpha GMS client container names are validated by the source schema",
        set_worker(gpuMemoryService={"enabled": False, "extraClientContainers": ["Bad_Name"]}),
        [
            'spec.services.worker.gpuMemoryService.extraClientContainers[0]: Invalid value: "Bad_Name": '
            "spec.services.worker.gpuMemoryService.extraClientContainers[0] in body should match "
            "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"
        ],
    ),
    Row("nil alpha service entry is pruned", lambda obj: services(obj).update(ghost=None), []),
    Row(
        "valid preserved alpha-only fields are accepted",
        both(
            lambda obj: obj["spec"].update(pvcs=[{"name": "cache", "create": False}]),
            set_worker(
                ingress={"enabled": True, "host": "worker.example.com"},
                annotations={"nvidia.com/vllm-distributed-executor-backend": "ray"},
                volumeMounts=[{"name": "cache", "useAsCompilationCache": True}],
                sharedMemory={"disabled": True},
                gpuMemoryService={
                    "enabled": False,
                    "mode": "intraPod",
                    "extraClientContainers": ["metrics"],
                },
            ),
        ),
        [],
    ),
    Row(
        "alpha PVC name requirement is preserved structurally",
        lambda obj: obj["spec"].update(pvcs=[{}]),
        ["spec.pvcs[0].name: Required value"],
    ),
    Row(
        "alpha PVC create value constraints are preserved structurally",
        lambda obj: obj["spec"].update(pvcs=[{"name": "cache", "create": True}]),
        [
            "spec.pvcs[0]: Invalid value: When create is true, size, storageClass, and "
            "volumeAccessMode are required"
        ],
    ),
    Row(
        "alpha compatibility warnings are preserved",
        set_worker(dynamoNamespace="legacy-namespace", autoscaling={"enabled": True}),
        [],
        warnings=[
            'spec.services[worker].dynamoNamespace is deprecated and ignored. Value "legacy-namespace" '
            'will be replaced with "default-test-graph". Remove this field from your configuration',
            "spec.services[worker].autoscaling is deprecated and ignored. Use "
            "DynamoGraphDeploymentScalingAdapter with HPA, KEDA, or Planner for autoscaling instead. "
            "See docs/kubernetes/autoscaling.md",
        ],
    ),
    Row(
        "GMS accepts GPU from alpha dedicated resources",
        set_worker(
            resources={"limits": {"gpu": "1"}},
            gpuMemoryService={"enabled": True, "mode": "intraPod"},
        ),
        [],
    ),
    Row(
        "GMS accepts GPU from alpha extraPodSpec main container resources",
        set_worker(
            extraPodSpec={
                "mainContainer": {"image": IMAGE, "resources": {"limits": {"nvidia.com/gpu": "1"}}}
            },
            gpuMemoryService={"enabled": True, "mode": "intraPod"},
        ),
        [],
    ),
    Row(
        "GMS accepts alpha GPUType resource after conversion",
        set_worker(
            resources={"limits": {"gpu": "1", "gpuType": "example.com/gpu"}},
            gpuMemoryService={"enabled": True, "mode": "intraPod"},
        ),
        [],
    ),
    Row(
        "v1alpha1 enabled shared memory without a positive size is rejected by source CEL",
        set_worker(sharedMemory={}),
        [
            "spec.services[worker].sharedMemory: Invalid value: size is required when disabled is false"
        ],
    ),
    Row(
        "v1alpha1 valid shared memory reaches the webhook",
        set_worker(sharedMemory={"size": "1Gi"}),
        [],
    ),
    Row(
        "v1alpha1 EPP config without a source reaches the webhook without v1beta1 CEL",
        set_worker(componentType="epp", eppConfig={}),
        [
            "spec.services[worker].eppConfig: Forbidden: exactly one of configMapRef or config is required"
        ],
    ),
]


# ---- 1.6: v1alpha1 can express LPX natively (componentType lpx, lpx, roles; 70778590138) -------
def lpx_service(**extra: Any) -> dict[str, Any]:
    return {
        "componentType": "lpx",
        "replicas": 1,
        "lpx": {"buildId": "test/build"},
        "roles": lpx_component()["roles"],  # the v1beta1 table's agent and conductor
        **extra,
    }


def lpx_graph(**extra: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        obj["spec"]["services"] = {"lpx": lpx_service(**copy.deepcopy(extra))}

    return change


def on_lpx(**fields: Any) -> Change:
    def change(obj: dict[str, Any]) -> None:
        lpx_graph()(obj)
        service = obj["spec"]["services"]["lpx"]
        for key, value in fields.items():
            if value is None:
                service.pop(key, None)
            else:
                service[key] = copy.deepcopy(value)

    return change


ALPHA_LPX_GATE = (
    "spec.services[lpx].componentType: Forbidden: LPX components require lpx.enabled=true"
)
INGRESS = {"enabled": True, "host": "lpx.example.com"}
LPX_ROWS = [
    Row("v1alpha1 LPX service is admitted", lpx_graph(), []),
    Row(
        "v1alpha1 LPX preserves omitted replicas with minimum availability above one on CREATE",
        on_lpx(replicas=None, minAvailable=2),
        [],
    ),
    Row(
        "v1alpha1 LPX preserves omitted replicas with minimum availability above one on UPDATE",
        on_lpx(replicas=None, minAvailable=2),
        [],
        old=on_lpx(replicas=3, minAvailable=2),
    ),
    Row(
        "v1alpha1 LPX rejects explicit replicas below minimum availability",
        on_lpx(minAvailable=2),
        [
            "spec.services[lpx]: Invalid value: minAvailable must be less than or equal to "
            "replicas unless replicas is 0"
        ],
    ),
    Row(
        "v1alpha1 LPX gate rejects CREATE when disabled",
        lpx_graph(),
        [ALPHA_LPX_GATE],
        lpx_disabled=True,
    ),
    Row(
        "v1alpha1 LPX gate rejects build updates when disabled",
        on_lpx(lpx={"buildId": "test/replacement"}),
        [ALPHA_LPX_GATE],
        old=lpx_graph(),
        lpx_disabled=True,
    ),
    Row(
        "v1alpha1 LPX gate rejects ingress updates when disabled",
        on_lpx(ingress=INGRESS),
        [ALPHA_LPX_GATE],
        old=lpx_graph(),
        lpx_disabled=True,
    ),
    Row(
        "v1alpha1 LPX gate admits unrelated updates with unchanged ingress when disabled",
        lambda obj: (
            on_lpx(ingress=INGRESS)(obj),
            obj["metadata"].update(labels={"updated": "true"}),
            obj["spec"].update(labels={"updated": "true"}),
        ),
        [],
        old=on_lpx(ingress=INGRESS),
        lpx_disabled=True,
    ),
    # The 1.6 v1alpha1 CEL rules of LPX services (66854651310); they stop the request first.
    Row(
        "v1alpha1 LPX service needs its lpx block",
        on_lpx(lpx=None),
        ["spec.services[lpx]: Invalid value: lpx is required when componentType is lpx"],
    ),
    Row(
        "v1alpha1 lpx block belongs to LPX services only",
        set_worker(lpx={"buildId": "test/build"}),
        ["spec.services[worker]: Invalid value: lpx may only be set when componentType is lpx"],
    ),
    Row(
        "v1alpha1 LPX replicas must be positive",
        on_lpx(replicas=0),
        ["spec.services[lpx]: Invalid value: replicas must be positive when componentType is lpx"],
    ),
    Row(
        "v1alpha1 componentType cannot become lpx on update",
        lambda obj: worker(obj).update(componentType="lpx", lpx={"buildId": "test/build"}),
        ["spec.services[worker]: Invalid value: componentType is immutable after it is set"],
        old=nothing,
    ),
    # The LPX errors of the converted object keep their v1beta1 paths (operator-versions 2.2).
    Row(
        "v1alpha1 LPX agent template reports the converted path",
        lambda obj: (
            lpx_graph()(obj),
            obj["spec"]["services"]["lpx"]["roles"][0].pop("podTemplate"),
        ),
        [
            "spec.components[0].roles[0].podTemplate: Required value: the LPX agent role requires a podTemplate"
        ],
    ),
]


def admission(row: Row) -> tuple[list[str], list[str]]:
    obj = baseline()
    if row.change is not None:
        row.change(obj)
    old = None
    if row.old is not None:
        old = baseline()
        row.old(old)
    found = validate_object(obj, bundled_schemas(), Profile(lpx=not row.lpx_disabled), old=old)
    errors = [f for f in found if f.severity == "error"]
    stage = [f for f in errors if f.layer in ("schema", "cel")] or [
        f for f in errors if f.layer == "webhook"
    ]
    lines = [f"{f.path}: {f.message}" for f in stage]
    warned = [
        f.message
        for f in found
        if f.severity == "warning" and f.code != "deprecated-version" and f.layer == "webhook"
    ]
    return lines, warned


@pytest.mark.parametrize("row", ROWS + LPX_ROWS, ids=lambda r: r.name)
def test_operator_v1alpha1_admission_row(row: Row) -> None:
    errors, warned = admission(row)
    assert errors == row.expected
    if row.warnings is not None:
        assert warned == row.warnings


def test_releases_before_1_6_treat_an_alpha_lpx_service_as_an_ordinary_one() -> None:
    """Alpha has no componentType enum, so ``lpx`` reaches a 1.5 webhook that knows no LPX: the
    ordinary image/runtime-version rule applies (1.6 skips it for LPX components)."""
    obj = baseline()
    custom_image(obj)
    worker(obj)["componentType"] = "lpx"
    found = validate_object(obj, bundled_schemas("1.5"), Profile(lpx=True, operator_version="1.5"))
    errors = [f"{f.path}: {f.message}" for f in found if f.severity == "error"]
    assert errors == [f"spec.services[worker].runtimeVersionOverride: {RUNTIME}"]
