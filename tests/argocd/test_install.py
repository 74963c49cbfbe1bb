"""The installation files: the sidecar patch merges into a repo server as the CMP contract needs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    # One base for both stages, a build argument so it can be pinned by digest (README).
    assert "ARG PYTHON_BASE=python:3.11-slim\n" in dockerfile
    froms = [line for line in dockerfile.splitlines() if line.startswith("FROM ")]
    assert froms == ["FROM ${PYTHON_BASE} AS build", "FROM ${PYTHON_BASE}"]


def test_example_applications_name_the_plugin() -> None:
    for path in sorted((ROOT / "manifests" / "argocd").glob("*.yaml")):
        for app in yaml.safe_load_all(path.read_text()):
            assert app["kind"] == "Application", path
            assert app["spec"]["source"]["plugin"]["name"] == "dgd", path


_LOADED_DISTRIBUTIONS = """
import atexit, importlib.metadata as md, sys
def report():
    dists = md.packages_distributions()
    names = {d for m in list(sys.modules) for d in dists.get(m.split(".")[0], [])}
    from kubectl_dgd.core.validate import cel_env
    if cel_env._LOADED:  # the CEL extension is loaded by path, outside sys.modules
        names.add("common-expression-language")
    print(",".join(sorted(names)), file=sys.stderr)
atexit.register(report)
sys.argv = ["dgd-argocd", "generate"]
from kubectl_dgd.argocd.entry import main
main()
"""


def _requirements() -> set[str]:
    lines = (PLUGIN / "requirements.txt").read_text().splitlines()
    names = {re.split(r"[<>=!~ ]", line.strip())[0] for line in lines}
    return {n.lower() for n in names if n and not n.startswith("#")}


@pytest.mark.parametrize(
    ("app", "env"), [("plain", {}), ("invalid", {}), ("mixed", {"PARAM_CHILDREN": "preview"})]
)
def test_the_image_requirements_cover_everything_generate_loads(
    app: str, env: dict[str, str]
) -> None:
    repo = ROOT / "tests" / "fixtures" / "argocd" / "repo"
    proc = subprocess.run(
        [sys.executable, "-c", _LOADED_DISTRIBUTIONS],
        cwd=repo / "apps" / app,
        env={
            "PATH": os.environ["PATH"],
            "ARGOCD_APP_SOURCE_PATH": f"apps/{app}",
            "ARGOCD_APP_NAME": "a",
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == (1 if app == "invalid" else 0), proc.stderr
    loaded = set(proc.stderr.strip().splitlines()[-1].lower().split(","))
    loaded -= {"kubectl-dgd", "setuptools"}  # ours; setuptools only through its import hook
    assert "common-expression-language" in loaded
    assert loaded <= _requirements(), loaded - _requirements()
    assert not loaded & {"kubernetes", "deepdiff", "pydantic", "rich", "typer"}


def test_the_image_installs_only_the_plugin_requirements() -> None:
    dockerfile = (PLUGIN / "Dockerfile").read_text()
    assert "--no-deps" in dockerfile and "-r requirements.txt" in dockerfile
    declared = {
        re.split(r"[<>=!~ ]", d)[0].lower() for d in _pyproject()["project"]["dependencies"]
    }
    assert _requirements() <= declared


def _pyproject() -> dict[str, Any]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_dockerignore_keeps_the_build_context_to_what_the_image_copies() -> None:
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignore[ignore.index("*") if "*" in ignore else -1] == "*"
    for needed in (
        "!pyproject.toml",
        "!kubectl_dgd/",
        "!argocd-plugin/plugin.yaml",
        "!argocd-plugin/requirements.txt",
    ):
        assert needed in ignore


# Argo CD's release install manifests, when a snapshot of its repository is at hand (a bare git
# directory; set DGD_ARGOCD_GIT, or the default below). They are not copied into this repository.
ARGOCD_GIT = Path(os.environ.get("DGD_ARGOCD_GIT", "/work/.mirror/argoproj+argo-cd/repo"))
RELEASES = ("v3.5.1", "v3.3.14")  # the current release and the oldest one still maintained


@pytest.mark.parametrize("release", RELEASES)
def test_the_install_builds_on_a_real_argocd_release(tmp_path: Path, release: str) -> None:
    if not KUBECTL.exists() or not (ARGOCD_GIT / "HEAD").exists():
        pytest.skip("needs kubectl and a git snapshot of argoproj/argo-cd (DGD_ARGOCD_GIT)")
    install = subprocess.run(
        ["git", "--git-dir", str(ARGOCD_GIT), "show", f"{release}:manifests/install.yaml"],
        capture_output=True,
        text=True,
        check=False,
    )
    if install.returncode != 0:
        pytest.skip(f"{release} is not in the snapshot")
    shutil.copytree(PLUGIN, tmp_path / "argocd-plugin")
    kustomize = tmp_path / "argocd-plugin" / "kustomize"
    (kustomize / "base.yaml").write_text(install.stdout)
    text = (kustomize / "kustomization.yaml").read_text()
    assert f"argo-cd/{RELEASES[0]}/manifests/install.yaml" in text  # the base we ship
    (kustomize / "kustomization.yaml").write_text(re.sub(r"  - https://\S+", "  - base.yaml", text))
    out = subprocess.run(
        [str(KUBECTL), "kustomize", str(kustomize)], capture_output=True, text=True, check=True
    ).stdout
    docs = [d for d in yaml.safe_load_all(out) if d]
    repo_server = next(
        d
        for d in docs
        if d["kind"] == "Deployment" and d["metadata"]["name"] == "argocd-repo-server"
    )
    pod = repo_server["spec"]["template"]
    names = [c["name"] for c in pod["spec"]["containers"]]
    assert names[0] == "argocd-repo-server" and "dgd-cmp" in names
    assert (
        pod["metadata"]["annotations"]["kubectl.kubernetes.io/default-container"]
        == "argocd-repo-server"
    )
    volumes = {v["name"] for v in pod["spec"]["volumes"]}
    assert {"var-files", "plugins", "dgd-cmp-tmp"} <= volumes
    init = {c["name"]: c for c in pod["spec"].get("initContainers", [])}
    assert "/var/run/argocd" in {m["mountPath"] for m in init["copyutil"]["volumeMounts"]}
    cm = next(d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "argocd-cm")
    assert "resource.customizations.health.nvidia.com_DynamoGraphDeployment" in cm["data"]
    big = [
        d
        for d in docs
        if d["kind"] == "CustomResourceDefinition" and len(json.dumps(d)) > 256 * 1024
    ]
    if big:  # why the README says --server-side: client-side apply cannot store these
        assert "--server-side" in (PLUGIN / "README.md").read_text()


def _build_module() -> Any:
    import importlib.util

    path = PLUGIN / "resource-customizations" / "build_argocd_cm.py"
    spec = importlib.util.spec_from_file_location("build_argocd_cm", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_helm_values_carry_the_same_sidecar_and_customizations() -> None:
    # helm is not in the package registries here, so the values are checked structurally
    # against the chart's contract: extraContainers (rendered through tpl, after the repo
    # server's own container), volumes, and configs.cm merged into argocd-cm.
    text = (PLUGIN / "helm" / "values.yaml").read_text()
    assert text == _build_module().build_helm_values(), "run build_argocd_cm.py"
    assert "{{" not in text  # the chart runs extraContainers through tpl
    values = yaml.safe_load(text)
    ops = yaml.safe_load((PLUGIN / "kustomize" / "repo-server-patch.yaml").read_text())
    patch_container = next(op["value"] for op in ops if op["path"].endswith("/containers/-"))
    (container,) = values["repoServer"]["extraContainers"]
    assert {k: v for k, v in container.items() if k != "image"} == {
        k: v for k, v in patch_container.items() if k != "image"
    }
    assert [v["name"] for v in values["repoServer"]["volumes"]] == ["dgd-cmp-tmp"]
    cm = yaml.safe_load((PLUGIN / "resource-customizations" / "argocd-cm.yaml").read_text())
    assert values["configs"]["cm"] == cm["data"]


def test_openshift_argocd_resource_carries_the_same_sidecar_and_customizations() -> None:
    # The Argo CD operator (OpenShift GitOps) writes argocd-cm from the ArgoCD resource's typed
    # fields; the same scripts and rules must land under the same keys.
    text = (PLUGIN / "openshift" / "argocd.yaml").read_text()
    assert text == _build_module().build_openshift(), "run build_argocd_cm.py"
    argocd = yaml.safe_load(text)
    assert (argocd["apiVersion"], argocd["kind"]) == ("argoproj.io/v1beta1", "ArgoCD")
    spec = argocd["spec"]
    cm = yaml.safe_load((PLUGIN / "resource-customizations" / "argocd-cm.yaml").read_text())["data"]
    key = "nvidia.com_DynamoGraphDeployment"
    ((health,), (actions,), (ignore,)) = (
        spec["resourceHealthChecks"],
        spec["resourceActions"],
        spec["resourceIgnoreDifferences"]["resourceIdentifiers"],
    )
    assert health["check"] == cm[f"resource.customizations.health.{key}"]
    assert actions["action"] == cm[f"resource.customizations.actions.{key}"]
    assert ignore["customization"] == yaml.safe_load(
        cm[f"resource.customizations.ignoreDifferences.{key}"]
    )
    assert {(x["group"], x["kind"]) for x in (health, actions, ignore)} == {
        ("nvidia.com", "DynamoGraphDeployment")
    }
    ops = yaml.safe_load((PLUGIN / "kustomize" / "repo-server-patch.yaml").read_text())
    patch_container = next(op["value"] for op in ops if op["path"].endswith("/containers/-"))
    (container,) = spec["repo"]["sidecarContainers"]
    assert container["command"] == patch_container["command"]
    assert container["volumeMounts"] == patch_container["volumeMounts"]
    assert "runAsUser" not in container["securityContext"]  # the SCC assigns the UID
    assert container["securityContext"]["runAsNonRoot"] is True
