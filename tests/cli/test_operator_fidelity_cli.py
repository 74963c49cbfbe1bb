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
