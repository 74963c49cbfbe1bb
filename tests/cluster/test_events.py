"""``kubectl dgd events NAME`` end to end: the Events of the graph and of every child and pod."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.apiserver.resources import DGD, PODS
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph
from tests.cluster.test_tree import _cluster
from tests.conftest import assert_golden


def _event(
    server: ApiServer,
    kind: str,
    obj: dict[str, Any],
    reason: str,
    message: str,
    at: str,
    count: int = 1,
) -> None:
    meta = obj["metadata"]
    server.seed(
        {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {
                "name": f"{meta['name']}.{reason}.{at[11:13]}{count}",
                "namespace": "dynamo",
            },
            "involvedObject": {
                "kind": kind,
                "name": meta["name"],
                "uid": meta["uid"],
                "namespace": "dynamo",
            },
            "reason": reason,
            "message": message,
            "type": "Warning" if reason.startswith(("Failed", "BackOff")) else "Normal",
            "firstTimestamp": at,
            "lastTimestamp": at,
            "count": count,
        }
    )


def _setup(apiserver: ApiServer) -> None:
    _cluster(apiserver, gpus=1).settle()  # prefill's pod is Pending: FailedScheduling
    graph_obj = apiserver.store.get(DGD, "dynamo", "my-graph")
    _event(
        apiserver,
        "DynamoGraphDeployment",
        graph_obj,
        "Reconciled",
        "graph reconciled",
        "2026-11-01T10:30:00Z",
    )
    # another graph's Events stay out
    other = apiserver.seed(graph("other-graph"))[0]
    _event(apiserver, "DynamoGraphDeployment", other, "Reconciled", "other", "2026-11-01T10:31:00Z")


def test_events_of_the_graph_and_its_pods_newest_last(apiserver: ApiServer) -> None:
    _setup(apiserver)
    result = dgd(apiserver, "events", "my-graph", "-o", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    objects = [e["object"] for e in data["events"]]
    assert objects[0] == "DynamoGraphDeployment/my-graph"  # 10:30, older than the pods' 11:00
    assert "DynamoGraphDeployment/other-graph" not in objects
    failed = [e for e in data["events"] if e["reason"] == "FailedScheduling"]
    assert len(failed) == 1 and failed[0]["object"].startswith("Pod/my-graph-prefill-")
    assert failed[0]["message"] == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    stamps = [e["lastTimestamp"] for e in data["events"]]
    assert stamps == sorted(stamps)


def test_repeats_are_one_row_with_their_count(apiserver: ApiServer) -> None:
    _setup(apiserver)
    pods, _ = apiserver.store.list(PODS, "dynamo")
    pod = pods[0]
    for hour, count in (("08", 3), ("09", 2)):
        _event(
            apiserver,
            "Pod",
            pod,
            "BackOff",
            "Back-off restarting",
            f"2026-11-01T{hour}:00:00Z",
            count,
        )
    data = json.loads(dgd(apiserver, "events", "my-graph", "-o", "json").stdout)
    backoff = [e for e in data["events"] if e["reason"] == "BackOff"]
    assert [(e["count"], e["firstTimestamp"], e["lastTimestamp"]) for e in backoff] == [
        (5, "2026-11-01T08:00:00Z", "2026-11-01T09:00:00Z")
    ]


@pytest.mark.parametrize("columns", ["80", "200"])
def test_events_text(apiserver: ApiServer, columns: str) -> None:
    _setup(apiserver)
    result = dgd(apiserver, "events", "my-graph", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].split() == [
        "LAST",
        "SEEN",
        "TYPE",
        "REASON",
        "OBJECT",
        "MESSAGE",
    ]
    assert_golden(f"events/graph_{columns}.txt", result.stdout)


def test_requests_are_bounded(apiserver: ApiServer) -> None:
    _setup(apiserver)
    apiserver.clear_log()
    assert dgd(apiserver, "events", "my-graph").returncode == 0
    # GET, discovery, the tree's LISTs of the 4 kinds served (no Grove, no LWS), the Events LIST
    assert len(apiserver.request_log) == 7


def test_forbidden_events_list_is_an_error_not_an_empty_list(apiserver: ApiServer) -> None:
    _setup(apiserver)
    apiserver.faults.forbid("list", "events")
    result = dgd(apiserver, "events", "my-graph")
    assert result.returncode == 4
    assert "No events found" not in result.stdout
    assert result.stderr.startswith("error: forbidden (403): not allowed to list events")


def _replaced_crashing_pod(apiserver: ApiServer) -> str:
    """prefill crash-loops (the kubelet's BackOff Events), then its pod is deleted and the
    ReplicaSet makes another (same name, new uid): the old pod is in no tree any more."""
    sim = _cluster(apiserver)
    sim.children.faults["prefill"] = "CrashLoopBackOff"
    sim.settle()
    (pod,) = [
        p
        for p in apiserver.store.list(PODS, "dynamo")[0]
        if p["metadata"]["name"].startswith("my-graph-prefill")
    ]
    apiserver.store.delete(PODS, "dynamo", pod["metadata"]["name"])
    sim.children.faults.pop("prefill")
    sim.settle()
    again = apiserver.store.get(PODS, "dynamo", pod["metadata"]["name"])
    assert again["metadata"]["uid"] != pod["metadata"]["uid"]
    return str(pod["metadata"]["name"])


def test_a_replaced_pods_events_stay_and_types_and_for_narrow_them(apiserver: ApiServer) -> None:
    pod = _replaced_crashing_pod(apiserver)
    warnings = dgd(apiserver, "events", "my-graph", "--types=Warning", env={"COLUMNS": "200"})
    assert warnings.returncode == 0, warnings.stderr
    assert_golden("events/replaced_pod_warnings_200.txt", warnings.stdout)
    assert f"Pod/{pod}" in warnings.stdout and "BackOff" in warnings.stdout
    assert " Normal " not in warnings.stdout
    rows = json.loads(dgd(apiserver, "events", "my-graph", "--for", "decode", "-o", "json").stdout)
    assert rows["events"] and {r["component"] for r in rows["events"]} == {"decode"}
    status = dgd(apiserver, "status", "my-graph", "--types", "warning", env={"COLUMNS": "200"})
    assert status.returncode == 0, status.stderr
    assert "BackOff" in status.stdout and "Scheduled" not in status.stdout
    typo = dgd(apiserver, "events", "my-graph", "--for", "decod")
    assert typo.returncode == 3
    assert "its components: Frontend, decode, prefill" in typo.stderr


def test_readme_shows_a_replaced_pods_events_as_recorded() -> None:
    root = Path(__file__).resolve().parents[2]
    golden = (root / "tests" / "golden" / "events" / "replaced_pod_warnings_200.txt").read_text()
    assert (
        f"$ kubectl dgd events my-graph --types=Warning\n{golden}```"
        in (root / "README.md").read_text()
    )
