"""``restart NAME`` against the test API server: plan, refusals, the guarded patch, --wait."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import pytest

from tests.apiserver.faults import matching
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.server import ApiServer, wait_until
from tests.cluster.conftest import NS, component, dgd, graph
from tests.conftest import BIN, assert_golden, assert_installed_checkout


def stored(server: ApiServer, name: str = "my-graph") -> dict[str, Any]:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return server.store.get(rt, NS, name)


def write(server: ApiServer, change: Any, name: str = "my-graph") -> None:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    server.store.patch(rt, NS, name, change)


def test_restart_prints_old_and_new_id_and_strategy(apiserver: ApiServer) -> None:
    apiserver.seed(graph(restart={"id": "before"}))
    result = dgd(apiserver, "restart", "my-graph", "--id", "fix-1")
    assert result.returncode == 0, result.stderr
    assert_golden("cluster/restart-sequential.txt", result.stdout)
    assert stored(apiserver)["spec"]["restart"] == {
        "id": "fix-1",
        "strategy": {"type": "Sequential"},
    }


def test_restart_is_a_get_and_one_merge_patch_of_spec_restart_only(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    before = stored(apiserver)
    apiserver.clear_log()
    result = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "p1")
    assert result.returncode == 0, result.stderr
    assert [r.verb for r in apiserver.request_log] == ["get", "patch"]
    assert apiserver.request_log[1].content_type.startswith("application/merge-patch+json")
    after = stored(apiserver)
    assert after["spec"].pop("restart") == {"id": "p1", "strategy": {"type": "Parallel"}}
    assert after["spec"] == before["spec"]
    assert after["metadata"]["labels"] == before["metadata"]["labels"]


def test_parallel_over_an_ordered_restart_drops_the_old_order(apiserver: ApiServer) -> None:
    order = ["prefill", "decode", "Frontend"]
    apiserver.seed(graph(restart={"id": "r1", "strategy": {"type": "Sequential", "order": order}}))
    assert dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "r2").returncode == 0
    assert stored(apiserver)["spec"]["restart"] == {"id": "r2", "strategy": {"type": "Parallel"}}


def test_dry_run_reads_but_does_not_patch(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.clear_log()
    result = dgd(
        apiserver,
        "restart",
        "my-graph",
        "--order",
        "prefill,decode,Frontend",
        "--id",
        "x",
        "--dry-run",
    )
    assert result.returncode == 0, result.stderr
    assert "strategy: Sequential (order: prefill, decode, Frontend)" in result.stdout
    assert "dry run: nothing patched" in result.stdout
    # the graph, then the GPU peak check's LIST of nodes (none offers GPUs: no pods LIST)
    assert [(r.verb, r.path.rsplit("/", 1)[-1]) for r in apiserver.request_log] == [
        ("get", "my-graph"),
        ("list", "nodes"),
    ]
    assert "restart" not in stored(apiserver)["spec"]


@pytest.mark.parametrize("phase", ["Pending", "InProgress"])
def test_refuses_during_a_rolling_update_with_the_operators_reason(
    apiserver: ApiServer, phase: str
) -> None:
    rolling = graph()
    rolling["status"]["rollingUpdate"] = {"phase": phase}
    apiserver.seed(rolling)
    apiserver.clear_log()
    result = dgd(apiserver, "restart", "my-graph", "--id", "new")
    assert result.returncode == 1
    assert (
        f'spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is {phase}'
        in result.stderr
    )
    assert [r.verb for r in apiserver.request_log] == ["get"]


def test_refuses_an_lpx_graph_without_parallel(apiserver: ApiServer) -> None:
    lpx = component("accel", "lpx")
    apiserver.seed(graph(components=[component("Frontend", "frontend"), lpx]))
    result = dgd(apiserver, "restart", "my-graph")
    assert result.returncode == 1
    assert (
        "spec.restart.strategy.type must be Parallel when the graph contains LPX components"
        in result.stderr
    )
    assert dgd(apiserver, "restart", "my-graph", "--parallel").returncode == 0


def test_refuses_an_incomplete_or_unknown_order(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "restart", "my-graph", "--order", "decode,nope")
    assert result.returncode == 1
    assert "must have the same number of unique components as the deployment" in result.stderr
    assert 'Unsupported value: "nope"' in result.stderr
    both = dgd(apiserver, "restart", "my-graph", "--parallel", "--order", "decode,prefill,Frontend")
    assert both.returncode == 1
    assert "cannot be specified when strategy is parallel" in both.stderr
    assert "restart" not in stored(apiserver)["spec"]


def test_warns_when_argo_cd_manages_the_graph(apiserver: ApiServer) -> None:
    apiserver.seed(graph(labels={"app.kubernetes.io/instance": "prod-app"}))
    result = dgd(apiserver, "restart", "my-graph", "--parallel")
    assert result.returncode == 0
    assert "managed by Argo CD (label app.kubernetes.io/instance)" in result.stderr
    assert "self-heal may revert" in result.stderr
    assert "kubectl dgd restart -f FILE" in result.stderr
    assert "argocd app actions run APP restart" in result.stderr


def test_no_argo_cd_warning_for_an_unmanaged_graph(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    assert "Argo CD" not in dgd(apiserver, "restart", "my-graph", "--parallel").stderr


def test_concurrent_writer_change_survives_and_restart_still_lands(apiserver: ApiServer) -> None:
    apiserver.seed(graph())

    def other_writer(_record: object) -> None:
        def change(obj: dict[str, Any]) -> dict[str, Any]:
            obj["metadata"].setdefault("labels", {})["owner"] = "someone-else"
            obj["spec"]["components"][0]["replicas"] = 5
            return obj

        write(apiserver, change)

    apiserver.faults.before(other_writer, matching("patch"), times=1)
    apiserver.clear_log()
    result = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "mine")
    assert result.returncode == 0, result.stderr
    assert [r.verb for r in apiserver.request_log] == ["get", "patch", "get", "patch"]
    after = stored(apiserver)
    assert after["spec"]["restart"]["id"] == "mine"
    assert after["metadata"]["labels"]["owner"] == "someone-else"
    assert after["spec"]["components"][0]["replicas"] == 5


def test_concurrent_restart_request_is_not_overwritten(apiserver: ApiServer) -> None:
    apiserver.seed(graph())

    def other_restart(_record: object) -> None:
        def change(obj: dict[str, Any]) -> dict[str, Any]:
            obj["spec"]["restart"] = {"id": "theirs"}
            return obj

        write(apiserver, change)

    apiserver.faults.before(other_restart, matching("patch"), times=1)
    result = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "mine")
    assert result.returncode == 4
    assert "another writer set spec.restart.id to 'theirs'" in result.stderr
    assert stored(apiserver)["spec"]["restart"] == {"id": "theirs"}


def test_wait_follows_a_sequential_restart_to_completion(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(graph())
    operator_sim.restart_ticks = 2
    operator_sim.start()
    result = dgd(apiserver, "restart", "my-graph", "--id", "w1", "--wait", "--timeout", "30s")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("restart w1 completed\n")
    # rollout status's lines, the restart's progress in the operator's order; the end is the
    # result on stdout
    wait = 'Waiting for dgd "my-graph" rollout to finish: restart w1 Restarting'
    progress = result.stderr.replace("\n  ", " ").splitlines()
    assert f"{wait} (in progress: Frontend; next: decode, prefill)..." in progress
    assert f"{wait} (done: Frontend; in progress: decode; next: prefill)..." in progress
    assert progress[-1] == f"{wait} (done: Frontend, decode; in progress: prefill)..."


def test_wait_follows_a_parallel_restart(apiserver: ApiServer, operator_sim: OperatorSim) -> None:
    apiserver.seed(graph())
    operator_sim.start()
    result = dgd(
        apiserver, "restart", "my-graph", "--parallel", "--id", "p", "--wait", "--timeout", "30s"
    )
    assert result.returncode == 0, result.stderr
    assert (
        'Waiting for dgd "my-graph" rollout to finish: restart p Restarting (in progress: '
        "Frontend, decode, prefill)...\n"
    ) in result.stderr


def test_wait_times_out_when_the_operator_does_not_answer(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    started = time.monotonic()
    result = dgd(apiserver, "restart", "my-graph", "--id", "t", "--wait", "--timeout", "1s")
    assert result.returncode == 1
    assert (
        "error: timed out waiting for restart t to complete; what blocks it: "
        f"kubectl dgd why my-graph -n {NS}; follow it: kubectl dgd rollout status my-graph "
        f"-n {NS}\n"
    ) in result.stderr
    assert time.monotonic() - started < 20


def test_wait_reports_a_superseded_restart(apiserver: ApiServer, operator_sim: OperatorSim) -> None:
    apiserver.seed(graph())
    operator_sim.settle()
    operator_sim.pause("my-graph")

    def new_image(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"] = (
            "nvcr.io/dynamo:1.5.1"
        )
        return obj

    write(apiserver, new_image)  # a worker change the operator has not seen yet
    env = {
        "KUBECONFIG": str(apiserver.kubeconfig),
        "HOME": str(apiserver.kubeconfig.parent),
        "NO_COLOR": "1",
    }
    assert_installed_checkout()
    proc = subprocess.Popen(
        [
            str(BIN / "kubectl-dgd"),
            "restart",
            "my-graph",
            "--id",
            "s1",
            "--wait",
            "--timeout",
            "30s",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert wait_until(
        lambda: (stored(apiserver)["spec"].get("restart") or {}).get("id") == "s1", timeout=20
    )
    operator_sim.resume("my-graph")
    operator_sim.start()
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, (out, err)
    assert "error: restart s1 was superseded by a rolling update" in err


def test_a_helm_installed_graph_is_not_taken_for_an_argo_cd_one(apiserver: ApiServer) -> None:
    labels = {"app.kubernetes.io/instance": "my-release", "app.kubernetes.io/managed-by": "Helm"}
    apiserver.seed(graph(labels=labels))
    result = dgd(apiserver, "restart", "my-graph", "--parallel")
    assert result.returncode == 0, result.stderr
    assert "Argo CD" not in result.stderr
