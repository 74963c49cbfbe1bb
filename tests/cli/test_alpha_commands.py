"""status -f, restart -f and the Argo CD plugin on v1alpha1 graphs, and unserved versions."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml  # type: ignore[import-untyped]

from tests.argocd.harness import repo_copy, run_plugin
from tests.conftest import run_cli

ALPHA = Path(__file__).resolve().parents[1] / "fixtures" / "alpha"
CLOCK = {"DGD_NOW": "2026-11-30T10:00:00Z"}
SAVED_ALPHA = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: saved
  namespace: dynamo
  uid: 0b6f1c2e-1111-2222-3333-444455556666
spec:
  services:
    Frontend:
      componentType: frontend
      extraPodSpec:
        mainContainer:
          image: img:1.0.0
    Worker:
      componentType: worker
      subComponentType: decode
      replicas: 2
      extraPodSpec:
        mainContainer:
          image: img:1.0.0
status:
  state: successful
  conditions:
  - type: Ready
    status: "True"
    reason: AllReady
    message: all ready
    lastTransitionTime: "2026-11-30T09:00:00Z"
  services:
    Frontend:
      componentKind: Deployment
      componentName: saved-frontend
      replicas: 1
      readyReplicas: 1
      updatedReplicas: 1
    Worker:
      componentKind: Deployment
      componentName: saved-worker-1a2b3c4d
      replicas: 2
      readyReplicas: 2
      updatedReplicas: 2
"""


def test_status_of_a_saved_v1alpha1_object_reads_its_services(tmp_path: Path) -> None:
    path = tmp_path / "saved.yaml"
    path.write_text(SAVED_ALPHA)
    result = run_cli("status", "-f", str(path), "-o", "json", env=CLOCK)
    assert result.returncode == 0, result.stderr
    assert '"Worker"' in result.stdout and '"Frontend"' in result.stdout
    assert '"decode"' in result.stdout  # the converted component type


def test_restart_of_a_v1alpha1_file_plans_with_its_service_names(tmp_path: Path) -> None:
    path = tmp_path / "graph.yaml"
    shutil.copy(ALPHA / "vllm-disagg.yaml", path)
    before = path.read_text()
    result = run_cli(
        "restart", "-f", str(path), "--order", "VllmPrefillWorker,VllmDecodeWorker,Frontend"
    )
    assert result.returncode == 0, result.stderr
    after = path.read_text()
    assert after.startswith(before)  # only spec.restart added, at the end of spec
    restart = yaml.safe_load(after)["spec"]["restart"]
    assert restart["strategy"] == {
        "type": "Sequential",
        "order": ["VllmPrefillWorker", "VllmDecodeWorker", "Frontend"],
    }
    refused = run_cli("restart", "-f", str(path), "--order", "Frontend")
    assert refused.returncode == 1
    assert "must have the same number of unique components as the deployment" in refused.stderr


def test_restart_edits_a_file_ending_in_a_block_scalar_without_a_newline(tmp_path: Path) -> None:
    path = tmp_path / "graph.yaml"
    path.write_text(
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
        "spec:\n  components:\n    - name: w\n      type: worker\n      podTemplate:\n"
        "        spec:\n          containers:\n            - name: main\n"
        "              image: img:1.0.0\n              args:\n                - |\n"
        "                  first line\n                  second line"
    )
    before = yaml.safe_load(path.read_text())
    result = run_cli("restart", "-f", str(path), "--id", "r1")
    assert result.returncode == 0, result.stderr
    after = yaml.safe_load(path.read_text())
    assert after["spec"].pop("restart")["id"] == "r1"
    assert after == before  # the scalar keeps its value: no final newline gained
    assert "                - |-\n" in path.read_text()


def test_argocd_passes_v1alpha1_graphs_with_the_operator_findings(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "alpha"
    app.mkdir()
    shutil.copy(ALPHA / "vllm-disagg.yaml", app / "graph.yaml")
    run = run_plugin(repo, "apps/alpha", parameters=[{"name": "children", "string": "preview"}])
    assert run.returncode == 0, run.stderr
    assert [(o["apiVersion"], o["kind"]) for o in run.objects] == [
        ("nvidia.com/v1alpha1", "DynamoGraphDeployment"),  # applied as written
        ("v1", "ConfigMap"),
    ]
    children = run.objects[1]["data"]["children.yaml"]
    assert "name: vllmprefillworker" in children  # rendered from the conversion

    shutil.copy(ALPHA / "image-tags-rejected.yaml", app / "graph.yaml")
    run = run_plugin(repo, "apps/alpha")
    assert (run.returncode, run.stdout) == (1, "")
    assert (
        "graph.yaml:9: spec.services[Frontend].runtimeVersionOverride: Required value: is "
        "required when the specified main container image has no parseable semantic-version tag"
    ) in run.stderr


def test_argocd_refuses_an_unserved_version(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "typo"
    app.mkdir()
    (app / "graph.yaml").write_text(
        "apiVersion: nvidia.com/v1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\nspec: {}\n"
    )
    run = run_plugin(repo, "apps/typo")
    assert (run.returncode, run.stdout) == (1, "")
    assert (
        'graph.yaml:1: apiVersion: no matches for kind "DynamoGraphDeployment" in version '
        '"nvidia.com/v1": the served versions are nvidia.com/v1beta1, nvidia.com/v1alpha1'
    ) in run.stderr
