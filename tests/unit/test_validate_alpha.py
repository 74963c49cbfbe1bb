"""A v1alpha1 graph is validated as the operator validates a v1alpha1 request."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.adapters.yamlload import load_text
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.pipeline import validate_object
from kubectl_dgd.usecases.validate import validate_documents

RUNTIME = (
    "Required value: is required when the specified main container image has no parseable "
    "semantic-version tag"
)


def alpha(services: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {**spec, "services": services},
    }


def image(tag: str) -> dict[str, Any]:
    return {
        "extraPodSpec": {"mainContainer": {"image": f"nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}"}}
    }


def errors(obj: dict[str, Any], profile: Profile | None = None) -> list[tuple[str, str]]:
    found = validate_object(obj, bundled_schemas(), profile or Profile())
    return [(f.path, f.message) for f in found if f.severity == "error"]


def warnings(obj: dict[str, Any]) -> list[tuple[str, str]]:
    found = validate_object(obj, bundled_schemas(), Profile())
    return [(f.path, f.message) for f in found if f.severity == "warning"]


@pytest.mark.parametrize("tag", ["my-tag", "0.7.0.post1", "latest"])
def test_unparseable_main_image_tag_needs_the_override_at_the_alpha_path(tag: str) -> None:
    obj = alpha({"Frontend": {"componentType": "frontend", **image(tag)}})
    assert errors(obj) == [("spec.services[Frontend].runtimeVersionOverride", RUNTIME)]
    obj["spec"]["services"]["Frontend"]["runtimeVersionOverride"] = "0.7.0"
    assert errors(obj) == []


def test_a_service_without_a_main_image_gets_the_image_error_alone() -> None:
    obj = alpha({"Planner": {"componentType": "planner"}, "W": {"envs": [{"name": "A"}]}})
    assert errors(obj) == [
        ("spec.services[Planner].extraPodSpec.mainContainer.image", "Required value: is required"),
        ("spec.services[W].extraPodSpec.mainContainer.image", "Required value: is required"),
    ]


def test_the_kubebuilder_sample_with_an_empty_spec_is_rejected() -> None:
    obj = alpha({})
    del obj["spec"]["services"]
    assert errors(obj) == [("spec.components", "Required value: must have at least one component")]
    obj["spec"] = None
    assert errors(obj) == [("spec.components", "Required value: must have at least one component")]


def test_converted_rules_report_v1beta1_paths_in_sorted_service_order() -> None:
    long_name = "VllmPrefillWorker" + "x" * 30
    obj = alpha(
        {"Zeta": {**image("1.0.0")}, long_name: {**image("1.0.0")}, "Alpha": {**image("1.0.0")}}
    )
    found = errors(obj)
    assert len(found) == 1
    path, message = found[0]
    assert path == "spec.components[1].name"  # Alpha, VllmPrefill..., Zeta
    assert message.startswith(f'Invalid value: "{long_name}": combined resource name length')


def test_alpha_only_rules_and_their_messages() -> None:
    services = {
        "a": {
            **image("1.0.0"),
            "annotations": {"nvidia.com/vllm-distributed-executor-backend": "mpi"},
            "volumeMounts": [{"name": "m"}, {"name": "c", "useAsCompilationCache": True}],
            "ingress": {"enabled": True},
        },
        "b": {
            **image("1.0.0"),
            "componentType": "epp",
            "eppConfig": {},
            "frontendSidecar": {"image": "fe:1.0.0"},
        },
        "c": {
            "componentType": "worker",
            "resources": {"limits": {"gpu": "1"}},
            "gpuMemoryService": {"enabled": True},
            "failover": {"enabled": True, "mode": "intraPod", "numShadows": 2},
            **image("1.0.0"),
        },
    }
    services["b"]["extraPodSpec"]["containers"] = [{"name": "sidecar-frontend", "image": "x:1"}]
    found = errors(alpha(services, pvcs=[{"name": ""}]))
    alpha_rules = [(p, m) for p, m in found if p.startswith(("spec.services", "spec.pvcs"))]
    assert alpha_rules == [
        ("spec.pvcs[0].name", "Required value: is required"),
        (
            "spec.services[a].annotations[nvidia.com/vllm-distributed-executor-backend]",
            'Invalid value: "mpi": must be "mp" or "ray"',
        ),
        (
            "spec.services[a].volumeMounts[0].mountPoint",
            "Required value: is required when useAsCompilationCache is false",
        ),
        ("spec.services[a].ingress.host", "Required value: is required when ingress is enabled"),
        (
            "spec.services[b].eppConfig",
            "Forbidden: exactly one of configMapRef or config is required",
        ),
        (
            "spec.services[b].frontendSidecar",
            'Forbidden: cannot inject frontend sidecar: a container named "sidecar-frontend" '
            "already exists in extraPodSpec.containers",
        ),
        (
            "spec.services[c].failover.numShadows",
            'Invalid value: 2: is invalid for mode="intraPod": intraPod uses a fixed 1 primary + 1 '
            'shadow sidecar; use failover.mode="interPod" to configure numShadows',
        ),
    ]


def test_deprecation_warnings_name_the_namespace_the_operator_uses() -> None:
    services = {
        "F": {**image("1.0.0"), "dynamoNamespace": "old"},
        "G": {**image("1.0.0"), "dynamoNamespace": "old", "globalDynamoNamespace": True},
        "H": {**image("1.0.0"), "autoscaling": {"enabled": True, "minReplicas": 1}},
        "I": {**image("1.0.0"), "dynamoNamespace": ""},
    }
    obj = alpha(services)
    obj["metadata"]["name"] = "my.graph"
    assert warnings(obj) == [
        (
            "apiVersion",
            "nvidia.com/v1alpha1 DynamoGraphDeployment is deprecated; use nvidia.com/v1beta1 "
            "DynamoGraphDeployment",
        ),
        (
            "",
            'spec.services[F].dynamoNamespace is deprecated and ignored. Value "old" will be '
            'replaced with "ns-my-graph". Remove this field from your configuration',
        ),
        (
            "",
            'spec.services[G].dynamoNamespace is deprecated and ignored. Value "old" will be '
            'replaced with "dynamo". Remove this field from your configuration',
        ),
        (
            "",
            "spec.services[H].autoscaling is deprecated and ignored. Use "
            "DynamoGraphDeploymentScalingAdapter with HPA, KEDA, or Planner for autoscaling "
            "instead. See docs/kubernetes/autoscaling.md",
        ),
    ]


def test_v1beta1_cel_rules_do_not_run_on_a_v1alpha1_request() -> None:
    # Case-insensitive duplicate names and two EPPs are v1beta1 CEL rules only.
    obj = alpha({"worker": image("1.0.0"), "Worker": image("1.0.0")})
    assert errors(obj) == []


def test_unserved_versions_are_errors_naming_the_served_ones() -> None:
    for version in ("nvidia.com/v1", "nvidia.com/v2", "v1"):
        obj = alpha({"a": image("1.0.0")})
        obj["apiVersion"] = version
        assert errors(obj) == [
            (
                "apiVersion",
                f'no matches for kind "DynamoGraphDeployment" in version "{version}": the served '
                "versions are nvidia.com/v1beta1, nvidia.com/v1alpha1",
            )
        ]


def test_update_of_an_alpha_graph_runs_the_update_rules_on_the_conversions() -> None:
    old = alpha({"a": image("1.0.0"), "b": image("1.0.0")})
    new = alpha({"a": image("1.0.0")})
    found = validate_object(new, bundled_schemas(), Profile(), old=old)
    assert [(f.path, f.message) for f in found if f.severity == "error"] == [
        (
            "spec.components",
            "Forbidden: component topology is immutable and cannot be modified after creation: "
            "components removed: [b]",
        )
    ]


def line_of(findings: list[Finding], path: str) -> int | None:
    return next(f.line for f in findings if f.path == path)


def test_findings_point_at_the_line_of_the_alpha_field() -> None:
    long_name = "W" + "x" * 50
    text = textwrap.dedent(
        f"""\
        apiVersion: nvidia.com/v1alpha1
        kind: DynamoGraphDeployment
        metadata:
          name: g
        spec:
          services:
            Worker:
              componentType: worker
              replicas: 2
              minAvailable: 3
              extraPodSpec:
                mainContainer:
                  image: img:1.0.0
            Frontend:
              componentType: frontend
              extraPodSpec:
                mainContainer:
                  image: img:my-tag
            {long_name}:
              sharedMemory:
                size: "-1"
              extraPodSpec:
                mainContainer:
                  image: img:1.0.0
        """
    )
    report = validate_documents(load_text(text, "f.yaml"), bundled_schemas(), Profile())
    by_path = {f.path: f.line for f in report.items[0].findings}
    # alpha-path rule: the service's line (the override is absent)
    assert by_path["spec.services[Frontend].runtimeVersionOverride"] == 14
    # v1beta1-path rules on the conversion: the line of the alpha field they came from
    assert by_path["spec.components[2].name"] == 19  # sorted: Frontend, Worker, Wxxx...
    assert by_path["spec.components[2].sharedMemorySize"] == 20
    # the v1alpha1 CEL rule on the service itself
    assert by_path["spec.services[Worker]"] == 7


def test_the_lpx_gate_names_the_alpha_component_type() -> None:
    obj = alpha({"agent": {"componentType": "lpx", "lpx": {"buildId": "b1"}}})
    found = [(f.path, f.message) for f in validate_object(obj, bundled_schemas(), Profile())]
    assert (
        "spec.services[agent].componentType",
        "Forbidden: LPX components require lpx.enabled=true",
    ) in found
