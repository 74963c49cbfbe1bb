"""kubectl's spellings of the shared flags, through the console script against the test API
server: ``-v N`` / ``-v=N`` / ``--v=N`` / ``-vN`` verbosity and ``--dry-run=none|client|server``."""

from __future__ import annotations

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

GET_LOGGED = "/dynamographdeployments/my-graph 200"


@pytest.mark.parametrize(
    "flags",
    [("-v",), ("-v", "6"), ("-v=6",), ("--v=8",), ("--v", "4"), ("-v9",)],
    ids=["plain", "space", "equals", "double-dash", "double-dash-space", "attached"],
)
def test_every_kubectl_verbosity_spelling_shows_the_requests(
    apiserver: ApiServer, flags: tuple[str, ...]
) -> None:
    apiserver.seed(graph())
    # the level goes before NAME too: `-v 6 my-graph` must not take 6 as the graph
    result = dgd(apiserver, "status", *flags, "my-graph")
    assert result.returncode == 0, result.stderr
    assert GET_LOGGED in result.stderr


@pytest.mark.parametrize("flags", [("-v=0",), ("-v", "0")])
def test_verbosity_zero_is_kubectls_default_quiet(
    apiserver: ApiServer, flags: tuple[str, ...]
) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "status", "my-graph", *flags)
    assert result.returncode == 0, result.stderr
    assert GET_LOGGED not in result.stderr


@pytest.mark.parametrize("flag", ["--dry-run", "--dry-run=client"])
def test_restart_client_dry_run_only_reads(apiserver: ApiServer, flag: str) -> None:
    apiserver.seed(graph())
    apiserver.clear_log()
    # `--dry-run` alone before NAME: kubectl's no-value form; NAME is not taken as its value
    result = dgd(apiserver, "restart", flag, "my-graph", "--parallel", "--id", "x")
    assert result.returncode == 0, result.stderr
    assert "dry run: nothing patched" in result.stdout
    # reads only: the graph, then the GPU peak check's LIST of nodes (no node has GPUs here)
    assert [r.verb for r in apiserver.request_log] == ["get", "list"]


def test_restart_server_dry_run_lets_admission_judge_and_stores_nothing(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    apiserver.clear_log()
    result = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "x", "--dry-run=server")
    assert result.returncode == 0, result.stderr
    assert "server dry run: admission accepted the patch; nothing stored" in result.stdout
    assert [r.verb for r in apiserver.request_log] == ["get", "patch"]
    assert apiserver.request_log[-1].query.get("dryRun") == ["All"]
    rt = apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    assert "restart" not in apiserver.store.get(rt, NS, "my-graph")["spec"]


def test_restart_dry_run_none_patches(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "x", "--dry-run=none")
    assert result.returncode == 0, result.stderr
    assert "restart requested" in result.stdout
