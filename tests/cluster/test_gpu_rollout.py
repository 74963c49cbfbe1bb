"""A rolling update blocked on GPUs, end to end: ``diff -f`` warns beforehand that the peak
does not fit; after the apply, ``status``, ``tree`` and ``status --events`` show the new pod
Pending with the scheduler's message."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.apiserver.children import gpu_node
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import DGD
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

CHILDREN_CREATED = datetime(2026, 11, 1, 11, 0, tzinfo=UTC)
INSUFFICIENT = "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."


def _settled(apiserver: ApiServer) -> OperatorSim:
    """Three nodes of 2 GPUs; decode 2x1 fills gpu-a, prefill 1x2 fills gpu-b, gpu-c is free."""
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b", "gpu-c"):
        apiserver.seed(gpu_node(name, 2))
    apiserver.seed(graph())
    sim = OperatorSim(apiserver.store, children=True)
    sim.settle()
    return sim


def _prefill_tp4(obj: dict[str, Any]) -> dict[str, Any]:
    """prefill now wants 4 GPUs per pod (tensor parallelism 4): every worker rolls."""
    main = obj["spec"]["components"][2]["podTemplate"]["spec"]["containers"][0]
    main["resources"]["limits"]["nvidia.com/gpu"] = "4"
    return obj


def _new_file(apiserver: ApiServer, tmp_path: Path) -> Path:
    live = apiserver.store.get(DGD, NS, "my-graph")
    new = _prefill_tp4(copy.deepcopy(live))
    new.pop("status")
    for key in ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"):
        new["metadata"].pop(key, None)
    path = tmp_path / "new.yaml"
    path.write_text(json.dumps(new))
    return path


def test_diff_warns_that_the_peak_does_not_fit(apiserver: ApiServer, tmp_path: Path) -> None:
    _settled(apiserver)
    path = _new_file(apiserver, tmp_path)
    apiserver.clear_log()
    result = dgd(apiserver, "diff", "-f", str(path))
    assert result.returncode == 1, result.stderr
    assert "managed rolling update" in result.stdout
    assert result.stderr.splitlines() == [
        "warning: prefill: the managed rolling update needs 4 more nvidia.com/gpu at its peak "
        "(1 new pod of 4 GPUs); the cluster has 2 free (at most 2 on one node): new pods will "
        "stay Pending and the managed rolling update will stall"
    ]  # decode's new pod (1 GPU) fits on gpu-c
    lists = [r.path for r in apiserver.request_log if r.verb == "list"]
    assert lists == ["/api/v1/nodes", "/api/v1/pods"]


def test_needs_that_fit_only_one_after_another_wait_in_turn(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    _settled(apiserver)
    live = apiserver.store.get(DGD, NS, "my-graph")
    new = copy.deepcopy(live)
    new.pop("status")
    new["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "nvcr.io/dynamo:1.5.1"
    )
    path = tmp_path / "new.yaml"
    path.write_text(json.dumps(new))
    # every worker rolls: decode +1 pod of 1 GPU (2 replicas, surge 1), prefill +1 pod of 2;
    # gpu-c's 2 free GPUs hold either, not both
    result = dgd(apiserver, "diff", "-f", str(path))
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        "warning: decode: the managed rolling update needs 1 more nvidia.com/gpu at its peak "
        "(1 new pod of 1 GPU); the cluster has 2 free (at most 2 on one node), not enough "
        "beside the other components' new pods: they wait in turn"
    ]
    apiserver.seed(gpu_node("gpu-d", 2))
    result = dgd(apiserver, "diff", "-f", str(path))
    assert (result.returncode, result.stderr) == (1, "")


def test_forbidden_nodes_skip_the_check_with_one_line(apiserver: ApiServer, tmp_path: Path) -> None:
    _settled(apiserver)
    path = _new_file(apiserver, tmp_path)
    apiserver.faults.forbid("list", "nodes")
    result = dgd(apiserver, "diff", "-f", str(path))
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("warning: GPU peak check skipped: forbidden (403): not allowed to list")


def test_after_the_apply_the_new_pod_is_pending_on_gpus(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    sim = _settled(apiserver)
    apiserver.store.patch(DGD, NS, "my-graph", _prefill_tp4)
    sim.settle()
    status = dgd(apiserver, "status", "my-graph")
    assert status.returncode == 0, status.stderr
    assert "Managed rolling update InProgress" in status.stdout
    assert "Updated: decode. Pending: prefill." in status.stdout  # decode's new pods fit
    tree = json.loads(dgd(apiserver, "tree", "my-graph", "-o", "json").stdout)
    pods = _pods(tree)
    pending = [p for p in pods if p["status"] == "Pending"]
    assert [p["reason"] for p in pending] == [INSUFFICIENT]
    assert pending[0]["gpus"] == 4 and "prefill" in pending[0]["name"]
    text = dgd(apiserver, "tree", "my-graph").stdout
    assert INSUFFICIENT in text
    events = dgd(apiserver, "status", "my-graph", "--events")
    assert events.returncode == 0, events.stderr
    lines = events.stdout.splitlines()
    at = [i for i, line in enumerate(lines) if "FailedScheduling" in line]
    # the row names the pod; a message too long for the width goes on the lines below it
    assert at and pending[0]["name"] in lines[at[0]]
    assert INSUFFICIENT in " ".join(lines[at[0] : at[0] + 3]), lines
    # and `why` names it: the rollout is held by the new prefill pod that no node can take
    why = dgd(apiserver, "why", "my-graph", "-o", "json")
    assert why.returncode == 1, why.stderr
    findings = json.loads(why.stdout)["findings"]
    reasons = {f["reason"]: f for f in findings}
    assert "RolloutBlocked" in reasons, findings
    gpu = reasons["InsufficientGPU"]
    assert gpu["component"] == "prefill" and f"Pod/{pending[0]['name']}" in gpu["objects"]
    assert "needs 4 GPUs on one node" in gpu["message"]


def _pods(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = [node] if node["kind"] == "Pod" else []
    for child in node["children"]:
        found += _pods(child)
    return found


def test_restart_wait_warns_when_restarted_pods_cannot_be_placed(apiserver: ApiServer) -> None:
    """Two full nodes: a restart surges one new pod per component beside the old ones."""
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b"):
        apiserver.seed(gpu_node(name, 2))
    apiserver.seed(graph())
    OperatorSim(apiserver.store, children=True).settle()
    result = dgd(apiserver, "restart", "my-graph", "--id", "r1", "--wait", "--timeout", "1s")
    assert result.returncode == 1  # nobody completes the restart here
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: decode: the restart needs 1 more nvidia.com/gpu at its peak (1 new pod of "
        "1 GPU); the cluster has 0 free (at most 0 on one node): new pods will stay Pending "
        "and the restart will stall",
        "warning: prefill: the restart needs 2 more nvidia.com/gpu at its peak (1 new pod of "
        "2 GPUs); the cluster has 0 free (at most 0 on one node): new pods will stay Pending "
        "and the restart will stall",
    ]
    # --dry-run says it too, before anything is written: the plan and the same warnings
    apiserver.clear_log()
    planned = dgd(apiserver, "restart", "my-graph", "--id", "r3", "--dry-run")
    assert planned.returncode == 0, planned.stderr
    assert [line for line in planned.stderr.splitlines() if line.startswith("warning:")] == (
        warnings
    )
    assert [r.verb for r in apiserver.request_log] == ["get", "list", "list"]  # nodes, pods
    plain = dgd(apiserver, "restart", "my-graph", "--id", "r2")
    assert (plain.returncode, plain.stderr) == (0, "")  # without --wait: two requests, no check
