"""The installation files: the sidecar patch merges into a repo server as the CMP contract needs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "argocd-plugin"
KUBECTL = Path(sys.executable).parent / "kubectl"

STUB_BASE = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: argocd-repo-server}
  template:
    metadata:
      labels: {app.kubernetes.io/name: argocd-repo-server}
    spec:
      containers:
        - name: argocd-repo-server
          image: quay.io/argoproj/argocd:v3.1.8
      volumes:
        - name: var-files
          emptyDir: {}
        - name: plugins
          emptyDir: {}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: argocd-cm
data:
  url: https://argocd.example.com
"""


@pytest.fixture
def built(tmp_path: Path) -> list[dict]:  # type: ignore[type-arg]
    if not KUBECTL.exists():
        pytest.skip("kubectl is not installed in the virtualenv")
    shutil.copytree(PLUGIN, tmp_path / "argocd-plugin")
    kustomize = tmp_path / "argocd-plugin" / "kustomize"
    (kustomize / "base.yaml").write_text(STUB_BASE)
    text = (kustomize / "kustomization.yaml").read_text()
    lines = [
        "  - base.yaml" if line.strip().startswith("- https://") else line
        for line in text.splitlines()
    ]
    (kustomize / "kustomization.yaml").write_text("\n".join(lines) + "\n")
    out = subprocess.run(
        # Exactly the documented command: kustomize's default load restrictor applies.
        [str(KUBECTL), "kustomize", str(kustomize)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [d for d in yaml.safe_load_all(out) if d]


def test_sidecar_runs_cmp_server_as_999_with_the_required_mounts(built: list[dict]) -> None:  # type: ignore[type-arg]
    deployment = next(d for d in built if d["kind"] == "Deployment")
    assert deployment["metadata"]["namespace"] == "argocd"
    pod = deployment["spec"]["template"]["spec"]
    sidecar = next(c for c in pod["containers"] if c["name"] == "dgd-cmp")
    assert sidecar["command"] == ["/var/run/argocd/argocd-cmp-server"]
    assert sidecar["image"] == "ghcr.io/example/dgd-argocd:0.1.0"
    assert sidecar["securityContext"]["runAsUser"] == 999
    assert sidecar["securityContext"]["runAsNonRoot"] is True
    mounts = {m["mountPath"]: m["name"] for m in sidecar["volumeMounts"]}
    assert mounts == {
        "/var/run/argocd": "var-files",
        "/home/argocd/cmp-server/plugins": "plugins",
        "/tmp": "dgd-cmp-tmp",
    }
    volumes = {v["name"] for v in pod["volumes"]}
    assert volumes == {"var-files", "plugins", "dgd-cmp-tmp"}
    assert any(c["name"] == "argocd-repo-server" for c in pod["containers"])


def test_argocd_cm_gets_the_customizations_and_keeps_its_data(built: list[dict]) -> None:  # type: ignore[type-arg]
    cm = next(d for d in built if d["kind"] == "ConfigMap")
    assert cm["data"]["url"] == "https://argocd.example.com"
    assert set(cm["data"]) >= {
        "resource.customizations.health.nvidia.com_DynamoGraphDeployment",
        "resource.customizations.actions.nvidia.com_DynamoGraphDeployment",
        "resource.customizations.ignoreDifferences.nvidia.com_DynamoGraphDeployment",
    }


def test_image_bakes_plugin_yaml_runs_as_999_and_starts_the_cmp_server() -> None:
    dockerfile = (PLUGIN / "Dockerfile").read_text()
    assert "COPY argocd-plugin/plugin.yaml /home/argocd/cmp-server/config/plugin.yaml" in dockerfile
    assert "USER 999:999" in dockerfile
    assert 'ENTRYPOINT ["/var/run/argocd/argocd-cmp-server"]' in dockerfile
    assert "FROM python:3.11-slim" in dockerfile


def test_example_applications_name_the_plugin() -> None:
    for path in sorted((ROOT / "manifests" / "argocd").glob("*.yaml")):
        for app in yaml.safe_load_all(path.read_text()):
            assert app["kind"] == "Application", path
            assert app["spec"]["source"]["plugin"]["name"] == "dgd", path
