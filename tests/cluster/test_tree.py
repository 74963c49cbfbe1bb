"""``kubectl dgd tree NAME`` end to end against the test API server and its simulated operator."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest

from tests.apiserver.children import gpu_node
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import GROVE_GROUP, LWS_GROUP, SECRETS
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph
from tests.conftest import assert_golden

CHILDREN_CREATED = datetime(2026, 11, 1, 11, 0, tzinfo=UTC)  # an hour before NOW


def _cluster(
    apiserver: ApiServer, *, gpus: int = 8, grove: bool = False, **kwargs: object
) -> OperatorSim:
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b", "gpu-c"):
        apiserver.seed(gpu_node(name, gpus))
    annotations = {"nvidia.com/workload-provider": "grove"} if grove else None
    if grove:
        apiserver.install_addon(GROVE_GROUP)
    apiserver.seed(graph(annotations=annotations, **kwargs))  # type: ignore[arg-type]
    return OperatorSim(apiserver.store, children=True)


@pytest.mark.parametrize("columns", ["80", "200"])
def test_healthy_component_path_tree(apiserver: ApiServer, columns: str) -> None:
    _cluster(apiserver).settle()
    result = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"tree/component_{columns}.txt", result.stdout)
    assert "pod/my-graph-frontend-" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("columns", ["80", "200"])
def test_healthy_grove_path_tree(apiserver: ApiServer, columns: str) -> None:
    _cluster(apiserver, grove=True).settle()
    result = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert "pcs/my-graph" in result.stdout
    assert "pclq/my-graph-0-decode" in result.stdout
    assert "pod/my-graph-0-decode-1" in result.stdout
    assert "dcd/" not in result.stdout
    assert_golden(f"tree/grove_{columns}.txt", result.stdout)


def test_requests_are_one_get_and_one_list_per_kind_whatever_the_pods(
    apiserver: ApiServer,
) -> None:
    comps = [component("decode", "decode", replicas=6, gpus=1), component("Frontend", "frontend")]
    _cluster(apiserver, components=comps).settle()
    apiserver.clear_log()
    assert dgd(apiserver, "tree", "my-graph").returncode == 0
    paths = [r.path.rsplit("/", 1)[1] for r in apiserver.request_log]
    assert apiserver.request_log[0].verb == "get"
    assert paths[1:] == [
        "apis",  # discovery: Grove and LeaderWorkerSet are not installed, so not asked for
        "dynamocomponentdeployments",
        "deployments",
        "replicasets",
        "pods",
    ]


def _json_tree(apiserver: ApiServer) -> dict[str, object]:
    result = dgd(apiserver, "tree", "my-graph", "-o", "json")
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def _pods(node: dict[str, object]) -> list[dict[str, object]]:
    found = [node] if node["kind"] == "Pod" else []
    for child in node["children"]:  # type: ignore[attr-defined]
        found += _pods(child)
    return found


def test_json_is_nested_with_the_documented_keys(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    data = _json_tree(apiserver)
    assert {"kind", "name", "namespace", "status", "ready", "reason", "children"} <= set(data)
    assert data["kind"] == "DynamoGraphDeployment" and data["status"] == "Healthy"
    kinds = []
    node = data["children"][1]  # type: ignore[index]
    while node:
        kinds.append(node["kind"])
        node = node["children"][0] if node["children"] else None
    assert kinds == ["Component", "DynamoComponentDeployment", "Deployment", "ReplicaSet", "Pod"]
    assert {p["gpus"] for p in _pods(data) if str(p["name"]).startswith("my-graph-decode")} == {1}


def test_pods_pending_on_gpus_show_the_scheduler_message(apiserver: ApiServer) -> None:
    _cluster(apiserver, gpus=1).settle()  # prefill needs 2 GPUs on one node
    data = _json_tree(apiserver)
    pending = [p for p in _pods(data) if p["status"] == "Pending"]
    assert [p["reason"] for p in pending] == [
        "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    ]
    assert data["status"] == "Progressing"
    text = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": "200"}).stdout
    assert "0/3 nodes are available: 3 Insufficient nvidia.com/gpu." in text


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("ImagePullBackOff", 'ImagePullBackOff: Back-off pulling image "nvcr.io/dynamo:1.5.0"'),
        ("CrashLoopBackOff", "CrashLoopBackOff (exit code 1)"),
        ("OOMKilled", "OOMKilled (exit code 137)"),
    ],
)
def test_unhealthy_pod_reasons(apiserver: ApiServer, fault: str, reason: str) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.faults["decode"] = fault
    sim.settle()
    data = _json_tree(apiserver)
    decode = [p for p in _pods(data) if str(p["name"]).startswith("my-graph-decode")]
    assert [p["reason"] for p in decode] == [reason, reason]
    assert {p["status"] for p in decode} == {reason.split(" ", maxsplit=1)[0].rstrip(":")}
    component_node = data["children"][1]  # type: ignore[index]
    assert component_node["children"][0]["status"] == "Degraded"


def test_missing_secret_is_create_container_config_error(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend")]
    comps[0]["podTemplate"]["spec"]["containers"][0]["env"] = [
        {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "t"}}}
    ]
    _cluster(apiserver, components=comps).settle()
    (pod,) = _pods(_json_tree(apiserver))
    assert pod["reason"] == 'CreateContainerConfigError: secret "hf-token" not found'
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "hf-token", "namespace": "dynamo"},
        }
    )
    assert apiserver.store.get(SECRETS, "dynamo", "hf-token")


def test_forbidden_list_is_reported_once_and_the_rest_shown(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    apiserver.faults.forbid("list", "pods")
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "rs/my-graph-frontend-" in result.stdout
    assert "pod/" not in result.stdout
    warnings = [line for line in result.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert "not allowed to list pods" in warnings[0]


def test_rolling_update_shows_current_and_old_replicasets(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver, gpus=1)
    sim.settle()
    from tests.apiserver.resources import DGD

    def change(obj: dict[str, object]) -> dict[str, object]:
        spec = obj["spec"]
        spec["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = "x:2"  # type: ignore[index]
        return obj

    apiserver.store.patch(DGD, "dynamo", "my-graph", change)  # the frontend's template changes
    sim.settle()
    data = _json_tree(apiserver)
    deploy = data["children"][0]["children"][0]["children"][0]  # type: ignore[index]
    assert deploy["kind"] == "Deployment"
    assert [rs["status"] for rs in deploy["children"]] == ["Healthy", "ScaledDown"]


def test_not_found_graph_is_one_line(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "tree", "ghost")
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "not found" in result.stderr


def test_watch_redraws_when_only_a_pod_changes(apiserver: ApiServer) -> None:
    """A pod restarts (the graph's status does not move): the tree is drawn again within the
    child poll, with a bounded number of requests per round."""
    from tests.apiserver.resources import PODS
    from tests.cluster.test_watch_rollout import Lines, _interrupt, _start

    _cluster(apiserver).settle()
    proc = _start(apiserver, "tree", "my-graph", "--watch")
    lines = Lines(proc)
    try:
        lines.until("pod/my-graph-frontend-")
        pods, _ = apiserver.store.list(PODS, "dynamo")
        frontend = next(p for p in pods if "frontend" in p["metadata"]["name"])
        status = frontend["status"]
        status["containerStatuses"][0]["restartCount"] = 7
        apiserver.clear_log()
        apiserver.store.write_status(PODS, "dynamo", frontend["metadata"]["name"], status)
        block = lines.until("  7  ", timeout=15)
        assert "pod/my-graph-frontend-" in block
        time.sleep(3.5)  # a round that changes nothing draws nothing
    finally:
        out, err = _interrupt(proc)
    assert "Traceback" not in err
    assert (lines.seen + out).count("dgd/my-graph") == 2
    # per round: one watch of the graph and one LIST per kind, whatever the number of pods
    rounds = len([r for r in apiserver.request_log if r.verb == "watch"])
    lists = len([r for r in apiserver.request_log if r.verb == "list"])
    assert 1 <= rounds <= 4 and lists <= 8 * rounds, (rounds, lists)


def _multinode(apiserver: ApiServer, grove: bool) -> None:
    comps = [component("Frontend", "frontend"), component("decode", "decode", replicas=2, gpus=4)]
    comps[1]["multinode"] = {"nodeCount": 3}
    if not grove:
        apiserver.install_addon(LWS_GROUP)
    _cluster(apiserver, gpus=8, grove=grove, components=comps).settle()


@pytest.mark.parametrize("columns", ["80", "200"])
def test_multinode_component_path_is_a_leaderworkerset_with_its_pods(
    apiserver: ApiServer, columns: str
) -> None:
    _multinode(apiserver, grove=False)
    result = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"tree/lws_{columns}.txt", result.stdout)
    data = json.loads(dgd(apiserver, "tree", "my-graph", "-o", "json").stdout)
    (decode,) = [c for c in data["children"] if c["name"] == "decode"]
    (dcd,) = decode["children"]
    (lws,) = dcd["children"]
    assert (lws["kind"], lws["ready"], lws["status"]) == ("LeaderWorkerSet", "2/2", "Healthy")
    # two groups of three: the leader <lws>-<group> and its workers <lws>-<group>-<1..2>
    names = sorted(pod["name"] for pod in lws["children"])
    base = lws["name"]
    assert names == sorted(
        [f"{base}-{g}" for g in (0, 1)] + [f"{base}-{g}-{w}" for g in (0, 1) for w in (1, 2)]
    )
    assert {pod["kind"] for pod in lws["children"]} == {"Pod"}  # no StatefulSets in between


@pytest.mark.parametrize("columns", ["80", "200"])
def test_multinode_grove_path_is_a_scaling_group_of_cliques(
    apiserver: ApiServer, columns: str
) -> None:
    _multinode(apiserver, grove=True)
    result = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": columns})
    assert result.returncode == 0, result.stderr
    assert all(len(line) <= int(columns) for line in result.stdout.splitlines())
    assert_golden(f"tree/grove_multinode_{columns}.txt", result.stdout)
    data = json.loads(dgd(apiserver, "tree", "my-graph", "-o", "json").stdout)
    (pcs,) = [c for c in data["children"] if c["kind"] == "PodCliqueSet"]
    (pcsg,) = [c for c in pcs["children"] if c["kind"] == "PodCliqueScalingGroup"]
    assert (pcsg["name"], pcsg["ready"], pcsg["status"]) == ("my-graph-0-decode", "2/2", "Healthy")
    cliques = {c["name"]: len(c["children"]) for c in pcsg["children"]}
    assert cliques == {
        "my-graph-0-decode-0-decode-ldr": 1,
        "my-graph-0-decode-0-decode-wkr": 2,
        "my-graph-0-decode-1-decode-ldr": 1,
        "my-graph-0-decode-1-decode-wkr": 2,
    }
    status = json.loads(dgd(apiserver, "status", "my-graph", "-o", "json").stdout)
    assert "PodCliqueScalingGroup" in json.dumps(status)


def test_a_grove_component_with_no_clique_is_a_row_after_the_podcliqueset(
    apiserver: ApiServer,
) -> None:
    # Grove's objects stand for their components by name and label, below the PodCliqueSet; a
    # component added since the operator last acted has none (the operator is not running here)
    _cluster(apiserver, grove=True).settle()
    from tests.apiserver.resources import DGD

    def add(obj: dict[str, object]) -> dict[str, object]:
        obj["spec"]["components"].append(component("Planner", "planner"))  # type: ignore[index, union-attr]
        return obj

    apiserver.store.patch(DGD, "dynamo", "my-graph", add)
    data = _json_tree(apiserver)
    children = data["children"]
    assert [(c["kind"], c["name"]) for c in children] == [  # type: ignore[index, union-attr]
        ("PodCliqueSet", "my-graph"),
        ("Component", "Planner"),
    ]
    assert children[1]["reason"] == "no objects found" and children[1]["children"] == []  # type: ignore[index]
    text = dgd(apiserver, "tree", "my-graph", env={"COLUMNS": "200"}).stdout.splitlines()
    assert text[-2].startswith("└─ component/Planner ") and text[-1] == "      no objects found"
    assert text[1].split()[3:5] == ["3/4", "components"]
