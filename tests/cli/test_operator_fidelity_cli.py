"""Operator-fidelity verdicts through the console script, release by release (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

GRAPH = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
  annotations:
    nvidia.com/workload-provider: grove
spec:
  providerOverride:
    apiVersion: grove.io/v1alpha1
    value:
      spec:
        template:
          topologyConstraint:
            {topology}
  components:
    - name: frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.0
"""
PACK_STRING = (
    "spec.providerOverride.value: Invalid value: null: does not match the registered PodCliqueSet "
    "schema: json: cannot unmarshal string into Go struct field "
    "TopologyConstraint.spec.template.topologyConstraint.pack of type "
    "v1alpha1.TopologyPackConstraint"
)


@pytest.mark.parametrize("version", ["1.5", "1.6"])
def test_a_pack_domain_string_in_a_provider_override_is_refused_as_the_operator_decodes_it(
    tmp_path: Path, version: str
) -> None:
    (tmp_path / "g.yaml").write_text(GRAPH.format(topology="pack: rack"))
    result = run_cli("validate", "--operator-version", version, "g.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert f"g.yaml:10: {PACK_STRING} (error, webhook/provider-override-schema)" in result.stdout


def test_grove_pack_form_is_admitted_through_the_console_script(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(GRAPH.format(topology="pack: {required: rack}"))
    result = run_cli("validate", "g.yaml", cwd=tmp_path, subprocess=True)
    assert result.returncode == 0, result.stdout


WORKER = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
  annotations:
    nvidia.com/workload-provider: grove
spec:
  components:
    - name: worker
      type: worker
      replicas: 3
{minimum}      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.0
"""
LEGACY = "      minAvailable: 2\n"
NATIVE = (
    "      providerOverride:\n"
    "        apiVersion: grove.io/v1alpha1\n"
    "        value: {spec: {minAvailable: 2}}\n"
)


def write(tmp_path: Path, name: str, minimum: str) -> str:
    (tmp_path / name).write_text(WORKER.format(minimum=minimum))
    return name


def test_1_6_admits_the_documented_migration_and_1_5_refuses_the_removal(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", LEGACY), write(tmp_path, "new.yaml", NATIVE)
    now = run_cli("validate", new, "--old", old, cwd=tmp_path, subprocess=True)
    assert now.returncode == 0, now.stdout
    before = run_cli("validate", new, "--old", old, "--operator-version", "1.5", cwd=tmp_path)
    assert before.returncode == 1
    assert "minAvailable is immutable after creation (error, cel/cel-rule)" in before.stdout


def test_1_6_refuses_a_removal_that_changes_the_effective_minimum(tmp_path: Path) -> None:
    old, new = write(tmp_path, "old.yaml", LEGACY), write(tmp_path, "new.yaml", "")
    result = run_cli("validate", new, "--old", old, cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "spec.components[0].minAvailable: Invalid value: 1: the effective minimum availability is "
        "immutable after creation (was 2); move the same value between minAvailable and "
        "providerOverride (error, webhook/min-available-effective-immutable)"
    ) in result.stdout


def test_1_6_refuses_both_forms_and_warns_of_the_deprecated_one(tmp_path: Path) -> None:
    graph = write(tmp_path, "g.yaml", LEGACY + NATIVE)
    result = run_cli("validate", graph, cwd=tmp_path)
    assert result.returncode == 1
    assert "(error, webhook/min-available-mixed-forms)" in result.stdout
    assert "(warning, webhook/min-available-deprecated)" in result.stdout
    legacy_only = run_cli("validate", write(tmp_path, "l.yaml", LEGACY), cwd=tmp_path)
    assert legacy_only.returncode == 0
    assert (
        "l.yaml:12: spec.components[0].minAvailable: spec.components[0].minAvailable is "
        "deprecated; set the minimum in the component providerOverride (value.spec.minAvailable, "
        "or value.minAvailable for a scaling group) instead (warning, webhook/min-available-deprecated)"
    ) in legacy_only.stdout


def test_coherent_warns_when_the_minimum_could_take_the_component_offline(tmp_path: Path) -> None:
    text = WORKER.format(minimum=NATIVE).replace("replicas: 3", "replicas: 2")
    text = text.replace(
        "    nvidia.com/workload-provider: grove\n",
        "    nvidia.com/workload-provider: grove\n    nvidia.com/grove-update-strategy: Coherent\n",
    )
    (tmp_path / "g.yaml").write_text(text)
    result = run_cli("validate", "g.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert (
        "spec.components[0]: spec.components[0]: under the Coherent update strategy a minimum of 2 "
        "equal to replicas could take the entire component offline during an update "
        "(warning, webhook/coherent-offline-risk)"
    ) in result.stdout


SIDECAR = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
  components:
    - name: worker
      type: worker
{field}      podTemplate:
        spec:
          containers:
            - name: main
              image: vllm/vllm-openai:latest
          initContainers:
            - name: runtime
              image: nvcr.io/nvidia/ai-dynamo/runtime:1.6.0
              restartPolicy: Always
"""
RUNTIME_REQUIRED = "spec.components[0].runtimeVersionOverride: Required value: is required"


def test_1_6_reads_a_dynamo_sidecar_runtime_version_from_the_runtime_image(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(SIDECAR.format(field=""))
    now = run_cli("validate", "g.yaml", cwd=tmp_path, subprocess=True)
    assert now.returncode == 0, now.stdout
    assert RUNTIME_REQUIRED not in now.stdout
    before = run_cli("validate", "g.yaml", "--operator-version", "1.5", cwd=tmp_path)
    assert before.returncode == 1 and RUNTIME_REQUIRED in before.stdout


def test_dynamo_sidecar_is_not_a_field_of_the_released_1_6_api(tmp_path: Path) -> None:
    """A dynamoSidecar field naming the init container existed only in an intermediate 1.6
    revision (search index 68534172193, 68657137267); the 1.6 sources after it (70139814946,
    70474665178, 71138535752) and its API docs (70243226474) select sidecar mode by the init
    container's reserved name ``runtime`` and have no such field, so it stays unknown."""
    (tmp_path / "g.yaml").write_text(SIDECAR.format(field="      dynamoSidecar: runtime\n"))
    result = run_cli("validate", "g.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert (
        'g.yaml:9: spec.components[0].dynamoSidecar: unknown field "spec.components[0].dynamoSidecar" '
        "(warning, schema/unknown-field)"
    ) in result.stdout
    assert RUNTIME_REQUIRED not in result.stdout
