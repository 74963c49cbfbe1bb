"""``-o jsonpath=`` / ``custom-columns=`` on the offline ``status -f`` and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

SAVED = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g1
  namespace: dynamo
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      replicas: 1
      podTemplate:  # an image: render renders only what admission accepts
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
"""


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(SAVED)
    return path


def test_status_file_templates_run_over_the_object_as_kubectl_get(saved: Path) -> None:
    # as `kubectl get -f g.yaml -o jsonpath=...`: the object, not the status view
    result = run_cli("status", "-f", str(saved), "-o", "jsonpath={.metadata.name}/{.kind}")
    assert (result.returncode, result.stdout) == (0, "g1/DynamoGraphDeployment")
    view = run_cli("status", "-f", str(saved), "-o", "json")
    assert '"name": "g1"' in view.stdout and '"metadata"' not in view.stdout  # -o json: the view


def test_status_file_custom_columns(saved: Path) -> None:
    spec = "custom-columns=NAME:.metadata.name,NONE:.nothing"
    result = run_cli("status", "-f", str(saved), "-o", spec)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "NAME   NONE\ng1     <none>\n"


def test_render_takes_a_jsonpath(saved: Path) -> None:
    template = "{range .items[*]}{.kind}/{.metadata.name}{'\\n'}{end}"
    result = run_cli("render", "-f", str(saved), "-o", f"jsonpath={template}", subprocess=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all("/" in line for line in lines)
    assert any(line.startswith("Deployment/") or "/g1" in line for line in lines), lines


def test_output_completion_offers_templates_once_typed() -> None:
    result = run_cli("status", "-o", "js", script="kubectl_complete-dgd")
    candidates = [line.split("\t")[0] for line in result.stdout.splitlines()[:-1]]
    assert candidates == ["json", "jsonpath=", "jsonpath-file=", "jsonpath-as-json="]
