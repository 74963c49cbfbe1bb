"""What the grown test server emulates below the graph: pods, nodes, Events in both APIs, apps/v1,
DCDs, Grove and LWS (404 until installed), owner references, label selectors, ``pods/log``; and
the simulated operator's children and scheduler (tests/apiserver/children.py)."""

from __future__ import annotations

import threading
import time

from tests.apiserver.children import DGD_LABEL, gpu_node
from tests.apiserver.fixtures import raw, sample_dgd
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import GROVE_GROUP, LWS_GROUP
from tests.apiserver.server import ApiServer

NS = "dynamo"


def _names(server: ApiServer, path: str) -> list[str]:
    answer = raw(server, "GET", path)
    assert answer.code == 200, answer.body
    return [item["metadata"]["name"] for item in answer.body["items"]]


def test_component_path_children_with_owner_references(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    operator_sim.children = (
        type(operator_sim.children)(apiserver.store) if operator_sim.children else None
    )
    sim = OperatorSim(apiserver.store, children=True)
    apiserver.seed(gpu_node("node-a", 8))
    apiserver.seed(sample_dgd("g"))
    sim.settle()
    selector = f"?labelSelector={DGD_LABEL}%3Dg"
    dcds = _names(
        apiserver, f"/apis/nvidia.com/v1alpha1/namespaces/{NS}/dynamocomponentdeployments{selector}"
    )
    assert dcds[0] == "g-frontend" and dcds[1].startswith("g-vllmdecodeworker-")
    deploys = raw(apiserver, "GET", f"/apis/apps/v1/namespaces/{NS}/deployments{selector}").body
    assert [d["metadata"]["ownerReferences"][0]["kind"] for d in deploys["items"]] == [
        "DynamoComponentDeployment"
    ] * 2
    pods = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods{selector}").body["items"]
    assert len(pods) == 2
    assert {p["spec"].get("nodeName") for p in pods} == {"node-a"}
    assert all(p["status"]["phase"] == "Running" for p in pods)
    assert {p["metadata"]["ownerReferences"][0]["kind"] for p in pods} == {"ReplicaSet"}


def test_scheduler_leaves_pods_pending_when_gpus_run_out(apiserver: ApiServer) -> None:
    for name in ("node-a", "node-b", "node-c"):
        apiserver.seed(gpu_node(name, 0))
    sim = OperatorSim(apiserver.store, children=True)
    apiserver.seed(sample_dgd("g"))
    sim.settle()
    pods = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods").body["items"]
    pending = [p for p in pods if p["status"]["phase"] == "Pending"]
    assert len(pending) == 1
    condition = pending[0]["status"]["conditions"][0]
    assert condition["reason"] == "Unschedulable"
    assert condition["message"] == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    events = raw(apiserver, "GET", f"/apis/events.k8s.io/v1/namespaces/{NS}/events").body["items"]
    failed = [e for e in events if e["reason"] == "FailedScheduling"]
    assert failed and failed[0]["regarding"]["name"] == pending[0]["metadata"]["name"]
    assert failed[0]["note"] == condition["message"]


def test_grove_and_lws_404_until_installed(apiserver: ApiServer) -> None:
    path = f"/apis/grove.io/v1alpha1/namespaces/{NS}/podcliques"
    assert raw(apiserver, "GET", path).code == 404
    assert (
        raw(
            apiserver, "GET", f"/apis/leaderworkerset.x-k8s.io/v1/namespaces/{NS}/leaderworkersets"
        ).code
        == 404
    )
    apiserver.install_addon(GROVE_GROUP)
    assert raw(apiserver, "GET", path).code == 200


def test_grove_path_children(apiserver: ApiServer) -> None:
    apiserver.install_addon(GROVE_GROUP)
    dgd = sample_dgd("g")
    dgd["metadata"]["annotations"]["nvidia.com/workload-provider"] = "grove"
    apiserver.seed(dgd)
    OperatorSim(apiserver.store, children=True).settle()
    assert _names(apiserver, f"/apis/grove.io/v1alpha1/namespaces/{NS}/podcliquesets") == ["g"]
    assert _names(apiserver, f"/apis/grove.io/v1alpha1/namespaces/{NS}/podcliques") == [
        "g-0-frontend",
        "g-0-vllmdecodeworker",
    ]
    assert _names(apiserver, f"/api/v1/namespaces/{NS}/pods") == [
        "g-0-frontend-0",
        "g-0-vllmdecodeworker-0",
    ]


def test_missing_secret_is_create_container_config_error(apiserver: ApiServer) -> None:
    dgd = sample_dgd("g", workers=())
    container = dgd["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]
    container["envFrom"] = [{"secretRef": {"name": "hf-token"}}]
    apiserver.seed(dgd)
    OperatorSim(apiserver.store, children=True).settle()
    pod = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods").body["items"][0]
    waiting = pod["status"]["containerStatuses"][0]["state"]["waiting"]
    assert waiting == {
        "reason": "CreateContainerConfigError",
        "message": 'secret "hf-token" not found',
    }


def _pod(apiserver: ApiServer) -> str:
    apiserver.seed(sample_dgd("g", workers=()))
    OperatorSim(apiserver.store, children=True).settle()
    return str(
        raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods").body["items"][0]["metadata"]["name"]
    )


def test_pod_log_tail_previous_and_errors(apiserver: ApiServer) -> None:
    pod = _pod(apiserver)
    apiserver.logs.append(NS, pod, "one", "two", "three")
    base = f"/api/v1/namespaces/{NS}/pods/{pod}/log"
    assert raw(apiserver, "GET", base).body == "one\ntwo\nthree\n"
    assert raw(apiserver, "GET", base + "?tailLines=2").body == "two\nthree\n"
    missing = raw(apiserver, "GET", base + "?previous=true")
    assert missing.code == 400
    assert (
        missing.body["message"] == f'previous terminated container "main" in pod "{pod}" not found'
    )
    assert raw(apiserver, "GET", base + "?container=sidecar").code == 400
    assert raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods/ghost/log").code == 404


def test_pod_log_follow_streams_until_the_pod_goes(apiserver: ApiServer) -> None:
    pod = _pod(apiserver)
    apiserver.logs.append(NS, pod, "first")

    def later() -> None:
        time.sleep(0.3)
        apiserver.logs.append(NS, pod, "second")
        time.sleep(0.2)
        raw(apiserver, "DELETE", f"/api/v1/namespaces/{NS}/pods/{pod}")
        apiserver.logs.wake()

    writer = threading.Thread(target=later)
    writer.start()
    answer = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods/{pod}/log?follow=true")
    writer.join()
    assert answer.body == "first\nsecond\n"


def _multinode_dgd(name: str, grove: bool) -> dict[str, object]:
    dgd = sample_dgd(name)
    worker = dgd["spec"]["components"][1]  # type: ignore[index]
    worker["multinode"] = {"nodeCount": 3}
    if grove:
        dgd["metadata"]["annotations"] = {"nvidia.com/workload-provider": "grove"}  # type: ignore[index]
    return dgd


def test_multinode_component_path_is_lws_leader_and_worker_statefulsets(
    apiserver: ApiServer,
) -> None:
    apiserver.install_addon(LWS_GROUP)
    sim = OperatorSim(apiserver.store, children=True)
    apiserver.seed(gpu_node("node-a", 8))
    apiserver.seed(_multinode_dgd("g", grove=False))
    sim.settle()
    lws_path = f"/apis/leaderworkerset.x-k8s.io/v1/namespaces/{NS}/leaderworkersets"
    (lws,) = raw(apiserver, "GET", lws_path).body["items"]
    name = lws["metadata"]["name"]
    assert name.startswith("g-vllmdecodeworker-") and name.endswith("-0")
    assert lws["metadata"]["ownerReferences"][0]["kind"] == "DynamoComponentDeployment"
    assert lws["spec"]["leaderWorkerTemplate"]["size"] == 3
    assert lws["status"]["readyReplicas"] == 1
    sets = raw(apiserver, "GET", f"/apis/apps/v1/namespaces/{NS}/statefulsets").body["items"]
    owners = {s["metadata"]["name"]: s["metadata"]["ownerReferences"][0]["kind"] for s in sets}
    # the leader StatefulSet is the LWS's; each group's worker StatefulSet is its leader pod's
    assert owners == {name: "LeaderWorkerSet", f"{name}-0": "Pod"}
    pods = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/pods").body["items"]
    group = sorted(
        p["metadata"]["name"]
        for p in pods
        if p["metadata"]["labels"].get("leaderworkerset.sigs.k8s.io/name") == name
    )
    assert group == [f"{name}-0", f"{name}-0-1", f"{name}-0-2"]
    assert all(p["metadata"]["labels"][DGD_LABEL] == "g" for p in pods)


def test_multinode_grove_path_is_a_scaling_group_with_leader_and_worker_cliques(
    apiserver: ApiServer,
) -> None:
    apiserver.install_addon(GROVE_GROUP)
    sim = OperatorSim(apiserver.store, children=True)
    apiserver.seed(gpu_node("node-a", 8))
    apiserver.seed(_multinode_dgd("g", grove=True))
    sim.settle()
    base = f"/apis/grove.io/v1alpha1/namespaces/{NS}"
    (pcsg,) = raw(apiserver, "GET", f"{base}/podcliquescalinggroups").body["items"]
    assert pcsg["metadata"]["name"] == "g-0-vllmdecodeworker"
    assert pcsg["metadata"]["ownerReferences"][0]["kind"] == "PodCliqueSet"
    assert pcsg["status"]["availableReplicas"] == 1
    cliques = {
        c["metadata"]["name"]: (c["spec"]["replicas"], c["metadata"]["ownerReferences"][0]["kind"])
        for c in raw(apiserver, "GET", f"{base}/podcliques").body["items"]
    }
    assert cliques["g-0-vllmdecodeworker-0-vllmdecodeworker-ldr"] == (1, "PodCliqueScalingGroup")
    assert cliques["g-0-vllmdecodeworker-0-vllmdecodeworker-wkr"] == (2, "PodCliqueScalingGroup")
    dgd = raw(
        apiserver, "GET", f"/apis/nvidia.com/v1beta1/namespaces/{NS}/dynamographdeployments/g"
    )
    kinds = {k: v["componentKind"] for k, v in dgd.body["status"]["components"].items()}
    assert "PodCliqueScalingGroup" in kinds.values()
