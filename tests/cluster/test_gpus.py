"""``kubectl dgd gpus`` end to end: three GPU nodes, two graphs placed by the simulated
scheduler, "used by" narrowed by -n/-A, and a node LIST the account may not make."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.apiserver.children import gpu_node
from tests.apiserver.faults import RequestRecord
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import PODS
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph
from tests.conftest import assert_golden

CHILDREN_CREATED = datetime(2026, 11, 1, 11, 0, tzinfo=UTC)


def _two_graphs(apiserver: ApiServer) -> OperatorSim:
    """gpu-a and gpu-b with 8 H100s, gpu-c with 4 A100s; my-graph (decode 2x1, prefill 1x2)
    in dynamo and big (worker 2x4) in team-b; plus a cordoned CPU-only node."""
    apiserver.store.clock = lambda: CHILDREN_CREATED
    apiserver.seed(gpu_node("gpu-a", 8))
    apiserver.seed(gpu_node("gpu-b", 8))
    apiserver.seed(gpu_node("gpu-c", 4, product="NVIDIA-A100-SXM4-40GB"))
    cpu = gpu_node("cpu-a", 0)
    del cpu["status"]["allocatable"]["nvidia.com/gpu"]
    apiserver.seed(cpu)
    apiserver.seed(graph())
    big = [component("Frontend", "frontend"), component("worker", "worker", replicas=2, gpus=4)]
    apiserver.seed(graph("big", namespace="team-b", components=big))
    sim = OperatorSim(apiserver.store, children=True)
    sim.settle()
    return sim


@pytest.mark.parametrize("columns", ["80", "200"])
def test_gpus_lists_nodes_with_requested_free_and_graphs(
    apiserver: ApiServer, columns: str
) -> None:
    _two_graphs(apiserver)
    result = dgd(apiserver, "gpus", "-A", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"gpus/two_graphs_all_{columns}.txt", result.stdout)
    assert result.stderr == ""


@pytest.mark.parametrize("columns", ["80", "200"])
def test_gpus_in_one_namespace_names_its_graphs_and_sums_the_rest(
    apiserver: ApiServer, columns: str
) -> None:
    _two_graphs(apiserver)
    result = dgd(apiserver, "gpus", "-n", "dynamo", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"gpus/two_graphs_dynamo_{columns}.txt", result.stdout)
    assert "team-b" not in result.stdout


def test_gpus_json_has_every_figure_and_the_scope(apiserver: ApiServer) -> None:
    _two_graphs(apiserver)
    result = dgd(apiserver, "gpus", "-n", "team-b", "-o", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["namespace"] == "team-b"
    assert [n["name"] for n in data["nodes"]] == ["gpu-a", "gpu-b", "gpu-c"]  # no CPU node
    a, b, c = data["nodes"]
    assert (a["allocatable"], a["requested"], a["free"], a["pods"]) == (8, 8, 0, 4)
    assert a["usedBy"] == [{"namespace": "team-b", "name": "big", "gpus": 4, "pods": 1}]
    assert a["otherGpus"] == 4  # my-graph's decode (2x1) and prefill (1x2), another namespace
    assert (b["requested"], b["free"], b["product"]) == (4, 4, "NVIDIA-H100-80GB-HBM3")
    assert (c["product"], c["free"], c["usedBy"]) == ("NVIDIA-A100-SXM4-40GB", 4, [])
    assert data["total"] == {
        "nodes": 3,
        "allocatable": 20,
        "requested": 12,
        "free": 8,
        "mostFreeOnOneNode": 4,
    }


def test_pending_gpu_pods_are_counted_as_waiting_not_requested(apiserver: ApiServer) -> None:
    _two_graphs(apiserver)
    hungry = [component("huge", "worker", replicas=2, gpus=8)]
    apiserver.seed(graph("hungry", components=hungry))
    OperatorSim(apiserver.store, children=True).settle()
    result = dgd(apiserver, "gpus", "-o", "json")
    data = json.loads(result.stdout)
    assert data["total"]["requested"] == 12
    assert data["waiting"] == [
        {
            "namespace": "dynamo",
            "name": "hungry",
            "gpus": 16,
            "pods": 2,
            "resource": "nvidia.com/gpu",
        }
    ]
    text = dgd(apiserver, "gpus").stdout
    assert "waiting: 2 pods of hungry want 16 GPUs and no node has them" in text


def test_no_headers_drops_header_and_summary(apiserver: ApiServer) -> None:
    _two_graphs(apiserver)
    result = dgd(apiserver, "gpus", "--no-headers")
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["gpu-a", "gpu-b", "gpu-c"]


def test_two_lists_whatever_the_pods_and_terminated_pods_left_out_by_the_server(
    apiserver: ApiServer,
) -> None:
    _two_graphs(apiserver)
    apiserver.clear_log()
    assert dgd(apiserver, "gpus").returncode == 0
    assert [(r.verb, r.path) for r in apiserver.request_log] == [
        ("list", "/api/v1/nodes"),
        ("list", "/api/v1/pods"),
    ]
    assert apiserver.request_log[1].query["fieldSelector"] == [
        "status.phase!=Succeeded,status.phase!=Failed"
    ]


def test_forbidden_node_list_is_one_line_and_exit_4(apiserver: ApiServer) -> None:
    _two_graphs(apiserver)
    apiserver.faults.forbid("list", "nodes")
    result = dgd(apiserver, "gpus")
    assert result.returncode == 4
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "forbidden (403): not allowed to list nodes" in lines[0]
    assert "Traceback" not in result.stderr


def test_no_gpu_nodes_says_so_on_stderr(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "gpus")
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == "No nodes with nvidia.com/gpu found.\n"


def _refuse_field_selector(handler: Any) -> None:
    body = json.dumps(
        {
            "kind": "Status",
            "apiVersion": "v1",
            "status": "Failure",
            "message": 'field label not supported: "status.phase"',
            "reason": "BadRequest",
            "code": 400,
        }
    ).encode()
    handler.send_response(400)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def test_a_server_refusing_the_phase_selector_gets_a_plain_list_filtered_here(
    apiserver: ApiServer,
) -> None:
    _two_graphs(apiserver)
    pods, _ = apiserver.store.list(PODS, "team-b")
    done = next(p for p in pods if p["spec"].get("nodeName") == "gpu-b")
    apiserver.store.write_status(PODS, "team-b", done["metadata"]["name"], {"phase": "Succeeded"})

    def with_selector(record: RequestRecord) -> bool:
        return record.resource == "pods" and "fieldSelector" in record.query

    apiserver.faults.respond(_refuse_field_selector, with_selector)
    apiserver.clear_log()
    result = dgd(apiserver, "gpus", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert [bool(r.query.get("fieldSelector")) for r in apiserver.request_log] == [
        False,  # nodes
        True,  # pods, refused
        False,  # pods again, filtered here
    ]
    b = json.loads(result.stdout)["nodes"][1]
    assert (b["name"], b["requested"], b["free"]) == ("gpu-b", 0, 8)  # the Succeeded pod left


def test_what_nodes_and_pods_say_is_shown_never_obeyed(apiserver: ApiServer) -> None:
    from tests.cluster.test_terminal_injection import HOSTILE, RAW

    apiserver.seed(gpu_node("gpu-a", 8, product=HOSTILE))
    apiserver.seed(graph())
    OperatorSim(apiserver.store, children=True).settle()
    for args in (("gpus",), ("gpus", "-o", "wide", "-A")):
        # wide enough that PRODUCT is not the column that gives way to USED BY
        result = dgd(apiserver, *args, env={"COLUMNS": "250"})
        assert result.returncode == 0, result.stderr
        assert not RAW.search(result.stdout), args
        assert "\\x1b" in result.stdout, args


def _mig_cluster(apiserver: ApiServer) -> None:
    """gpu-a with 8 H100s (80 GB each, as GPU feature discovery labels them) and mig-a, an A100
    partitioned into MIG slices in the GPU operator's mixed strategy (nvidia.com/gpu 0); my-graph
    on gpu-a and a worker asking for 3g.40gb slices on mig-a, one of whose pods does not fit."""
    apiserver.store.clock = lambda: CHILDREN_CREATED
    whole = gpu_node("gpu-a", 8)
    whole["metadata"]["labels"]["nvidia.com/gpu.memory"] = "81559"
    apiserver.seed(whole)
    mig = gpu_node("mig-a", 0, product="NVIDIA-A100-SXM4-80GB")
    mig["metadata"]["labels"].update(
        {"nvidia.com/mig-1g.10gb.memory": "9856", "nvidia.com/mig-3g.40gb.memory": "40192"}
    )
    for status in ("capacity", "allocatable"):
        mig["status"][status].update({"nvidia.com/mig-1g.10gb": "4", "nvidia.com/mig-3g.40gb": "1"})
    apiserver.seed(mig)
    apiserver.seed(graph())
    sliced = component("worker", "worker", replicas=2)
    sliced["podTemplate"]["spec"]["containers"][0]["resources"] = {
        "limits": {"nvidia.com/mig-3g.40gb": "1"}
    }
    apiserver.seed(graph("sliced", components=[sliced]))
    OperatorSim(apiserver.store, children=True).settle()


@pytest.mark.parametrize("columns", ["80", "200"])
def test_gpus_lists_mig_slices_per_profile_with_memory(apiserver: ApiServer, columns: str) -> None:
    _mig_cluster(apiserver)
    result = dgd(apiserver, "gpus", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"gpus/mig_{columns}.txt", result.stdout)
    assert "sliced (1)" in result.stdout  # USED BY whole, even at 80 columns
    data = json.loads(dgd(apiserver, "gpus", "-o", "json").stdout)
    rows = {(n["name"], n["resource"]): n for n in data["nodes"]}
    assert sorted(rows) == [
        ("gpu-a", "nvidia.com/gpu"),
        ("mig-a", "nvidia.com/mig-1g.10gb"),
        ("mig-a", "nvidia.com/mig-3g.40gb"),
    ]
    assert rows[("mig-a", "nvidia.com/mig-3g.40gb")]["requested"] == 1
    assert rows[("gpu-a", "nvidia.com/gpu")]["requested"] == 4  # MIG pods are not whole GPUs
    assert data["total"]["allocatable"] == 8
    assert data["mig"]["3g.40gb"] == {
        "nodes": 1,
        "allocatable": 1,
        "requested": 1,
        "free": 0,
        "mostFreeOnOneNode": 0,
    }
    assert [(w["name"], w["pods"], w["resource"]) for w in data["waiting"]] == [
        ("sliced", 1, "nvidia.com/mig-3g.40gb")
    ]


def test_readme_shows_the_mig_cluster_as_recorded() -> None:
    root = Path(__file__).resolve().parents[2]
    golden = (root / "tests" / "golden" / "gpus" / "mig_200.txt").read_text()
    assert f"$ kubectl dgd gpus\n{golden}```" in (root / "README.md").read_text()
