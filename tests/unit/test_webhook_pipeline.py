"""Webhook rules through the whole pipeline (bundled CRD schemas) and through the console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.pipeline import validate_object
from tests.conftest import run_cli
from tests.unit.dgd_factory import frontend, graph, main_of, stored, worker

DEFAULT = Profile()
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "webhook"


def lines(
    obj: dict[str, Any],
    profile: Profile = DEFAULT,
    old: dict[str, Any] | None = None,
    layer: str = "webhook",
) -> list[str]:
    found = validate_object(obj, bundled_schemas(), profile, old=old)
    return [f"{f.path}: {f.message}" for f in found if f.layer == layer and f.severity != "info"]


def test_valid_graph_has_no_errors_in_any_layer() -> None:
    found = validate_object(graph(), bundled_schemas(), Profile())
    assert [f for f in found if f.severity == "error"] == []


@pytest.mark.parametrize(
    ("mutation", "profile", "expected"),
    [
        (
            lambda o: frontend(o).pop("podTemplate"),
            Profile(),
            # The image and runtime-version checks are exclusive: a missing image gets only its error.
            [
                "spec.components[0].podTemplate.spec.containers: Required value: is required",
            ],
        ),
        (
            lambda o: o["spec"].update(priorityClassName="high"),
            Profile(grove=False, operator_version="1.3"),  # 1.4+: "component" is selected
            [
                "spec.priorityClassName: Forbidden: requires the Grove pathway, but Grove is disabled in the operator configuration",
            ],
        ),
        (
            lambda o: worker(o).update(minAvailable=1),
            Profile(grove=False),
            [
                "spec.components[1].minAvailable: Forbidden: is currently supported only for Grove-backed DynamoGraphDeployment components",
            ],
        ),
        (
            lambda o: o["spec"].update(
                providerOverride={
                    "apiVersion": "grove.io/v1alpha1",
                    "value": {
                        "spec": {
                            "replicas": 3,
                            "template": {"topologyConstraint": {"packDomain": "rack"}},
                        }
                    },
                }
            ),
            Profile(),
            [
                "spec.providerOverride.value.spec.replicas: Forbidden: is Dynamo-owned or not enabled for provider override",
            ],
        ),
        (
            lambda o: o["spec"].update(
                providerOverride={"apiVersion": "grove.io/v1alpha1", "value": {}}
            ),
            Profile(provider="component"),
            [
                'spec.providerOverride: Forbidden: requires workload provider "grove", but "component" is selected',
            ],
        ),
        (
            lambda o: o["spec"].update(
                providerOverride={
                    "apiVersion": "grove.io/v1alpha1",
                    "value": {"spec": {"template": {"topologyConstraint": {"packDomain": "rack"}}}},
                },
                topologyConstraint={"clusterTopologyName": "grove-topology", "packDomain": "rack"},
            ),
            Profile(),
            [
                "spec.providerOverride.value: Forbidden: cannot be combined with spec.topologyConstraint or components[].topologyConstraint; use either the typed topology API or provider-native Grove topology overrides",
            ],
        ),
        (
            lambda o: main_of(worker(o)).update(image="img:latest"),
            Profile(),
            [
                "spec.components[1].runtimeVersionOverride: Required value: is required when the specified main container image has no parseable semantic-version tag",
            ],
        ),
    ],
    ids=[
        "main image missing",
        "priority class off Grove",
        "minAvailable off Grove",
        "override path not registered",
        "override needs Grove",
        "typed and native topology",
        "runtime version override required",
    ],
)
def test_webhook_rules_through_the_pipeline(
    mutation: Any, profile: Profile, expected: list[str]
) -> None:
    obj = graph()
    mutation(obj)
    assert lines(obj, profile) == expected


def test_update_rules_through_the_pipeline() -> None:
    old = stored(graph())
    new = graph()
    new["spec"]["components"].reverse()
    new["spec"]["backendFramework"] = "trtllm"
    assert lines(new, old=old) == [
        'spec.backendFramework: Invalid value: "trtllm": is immutable and cannot be changed after creation',
        "spec.backendFramework: Changing spec.backendFramework may cause unexpected behavior",
    ]


def test_lint_runs_beside_the_webhook() -> None:
    obj = graph()
    main_of(worker(obj))["command"] = ["python3", "-m", "dynamo.trtllm"]
    found = validate_object(obj, bundled_schemas(), Profile())
    assert [(f.layer, f.code) for f in found if f.layer == "lint"] == [("lint", "backend-mismatch")]


def test_cli_text_lines_name_file_line_path_and_message() -> None:
    path = FIXTURES / "worker-main-image-missing.yaml"
    result = run_cli("validate", str(path))
    assert result.returncode == 1
    out = result.stdout.splitlines()
    assert any(
        line.startswith(
            f"{path}:19: spec.components[1].podTemplate.spec.containers[0].image: Required value: is required"
        )
        for line in out
    )
    # Exclusive with the image rule: the operator never adds the runtime-version error here.
    assert not any("runtimeVersionOverride" in line for line in out)


def test_cli_json_carries_layer_code_and_operator_message() -> None:
    path = FIXTURES / "worker-main-image-missing.yaml"
    result = run_cli("validate", "-o", "json", str(path))
    assert result.returncode == 1
    item = json.loads(result.stdout)["items"][0]
    assert item["valid"] is False
    assert {
        "severity": "error",
        "layer": "webhook",
        "path": "spec.components[1].podTemplate.spec.containers[0].image",
        "message": "Required value: is required",
        "line": 19,
        "code": "main-image-required",
    } in item["findings"]


def test_cli_update_mode_reports_rollout_restart_and_backend_rules() -> None:
    result = run_cli(
        "validate",
        "-o",
        "json",
        "--old",
        str(FIXTURES / "update-live.yaml"),
        str(FIXTURES / "update-new.yaml"),
    )
    assert result.returncode == 1, result.stderr
    found = {
        (f["path"], f["message"], f["severity"])
        for f in json.loads(result.stdout)["items"][0]["findings"]
        if f["layer"] == "webhook"
    }
    assert (
        "spec.restart.id",
        'Invalid value: "new": cannot be changed while a rolling update is InProgress',
        "error",
    ) in found
    assert (
        "spec.backendFramework",
        'Invalid value: "sglang": is immutable and cannot be changed after creation',
        "error",
    ) in found
    assert (
        "spec.backendFramework",
        "Changing spec.backendFramework may cause unexpected behavior",
        "warning",
    ) in found
    assert not any(path == "spec.components" for path, _, _ in found)  # reordering is allowed
