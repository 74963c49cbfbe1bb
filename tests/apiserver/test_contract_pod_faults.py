"""What the test server emulates for ``why``: pods that fail the ways real ones do (image pull,
crash loop with a previous log, OOM kill, a missing Secret or ServiceAccount), a scheduler that
filters nodes by selector, taint and claimed volume before it counts GPUs, PVCs and
ServiceAccounts, metadata-only LISTs, and cluster-wide LISTs of pods by phase."""

from __future__ import annotations

from typing import Any

from tests.apiserver.children import Children, gpu_node
from tests.apiserver.fixtures import raw, sample_dgd
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.server import ApiServer

NS = "dynamo"
PODS = f"/api/v1/namespaces/{NS}/pods"


def _settle(apiserver: ApiServer, dgd: dict[str, Any], **faults: str) -> Children:
    sim = OperatorSim(apiserver.store, children=True)
    assert sim.children is not None
    sim.children.logs = apiserver.logs
    sim.children.faults.update(faults)
    apiserver.seed(dgd)
    sim.settle()
    return sim.children


def _pods(apiserver: ApiServer) -> list[dict[str, Any]]:
    answer = raw(apiserver, "GET", PODS)
    assert answer.code == 200, answer.body
    items: list[dict[str, Any]] = answer.body["items"]
    return items


def _main(dgd: dict[str, Any], index: int = 0) -> dict[str, Any]:
    spec: dict[str, Any] = dgd["spec"]["components"][index]["podTemplate"]["spec"]
    return spec


def test_image_pull_back_off_waits_with_the_image(apiserver: ApiServer) -> None:
    _settle(apiserver, sample_dgd("g", workers=()), Frontend="ImagePullBackOff")
    (pod,) = _pods(apiserver)
    status = pod["status"]["containerStatuses"][0]
    assert pod["status"]["phase"] == "Pending"
    assert status["state"]["waiting"]["reason"] == "ImagePullBackOff"
    assert status["state"]["waiting"]["message"] == f'Back-off pulling image "{status["image"]}"'


def test_crash_loop_keeps_the_last_exit_and_a_previous_log(apiserver: ApiServer) -> None:
    sim = OperatorSim(apiserver.store, children=True)
    assert sim.children is not None
    sim.children.logs = apiserver.logs
    sim.children.faults["Frontend"] = "CrashLoopBackOff"
    sim.children.crash_logs["Frontend"] = ["starting", "error: bad flag --foo"]
    apiserver.seed(sample_dgd("g", workers=()))
    sim.settle()
    (pod,) = _pods(apiserver)
    status = pod["status"]["containerStatuses"][0]
    assert status["state"]["waiting"]["reason"] == "CrashLoopBackOff"
    assert status["lastState"]["terminated"]["exitCode"] == 1
    assert status["restartCount"] == 5
    name = pod["metadata"]["name"]
    log = raw(apiserver, "GET", f"{PODS}/{name}/log?previous=true&tailLines=1")
    assert log.body == "error: bad flag --foo\n"
    assert not raw(apiserver, "GET", f"{PODS}/{name}/log").body  # the current one is empty


def test_oom_killed_is_exit_137_in_the_last_state(apiserver: ApiServer) -> None:
    _settle(apiserver, sample_dgd("g", workers=()), Frontend="OOMKilled")
    (pod,) = _pods(apiserver)
    last = pod["status"]["containerStatuses"][0]["lastState"]["terminated"]
    assert (last["reason"], last["exitCode"]) == ("OOMKilled", 137)


def test_scheduler_counts_nodes_per_reason(apiserver: ApiServer) -> None:
    apiserver.seed(gpu_node("a", 8), gpu_node("b", 8, product="NVIDIA-B200"))
    tainted = gpu_node("c", 8, product="NVIDIA-B200")
    tainted["spec"] = {"taints": [{"key": "dedicated", "value": "infer", "effect": "NoSchedule"}]}
    apiserver.seed(tainted)
    dgd = sample_dgd("g", workers=())
    _main(dgd)["nodeSelector"] = {"nvidia.com/gpu.product": "NVIDIA-B200"}
    _main(dgd)["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "16"}}
    _settle(apiserver, dgd)
    (pod,) = _pods(apiserver)
    condition = pod["status"]["conditions"][0]
    assert (condition["type"], condition["status"]) == ("PodScheduled", "False")
    assert condition["message"] == (
        "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't match Pod's "
        "node affinity/selector, 1 node(s) had untolerated taint {dedicated: infer}."
    )


def test_toleration_and_matching_selector_schedule(apiserver: ApiServer) -> None:
    tainted = gpu_node("c", 8, product="NVIDIA-B200")
    tainted["spec"] = {"taints": [{"key": "dedicated", "value": "infer", "effect": "NoSchedule"}]}
    apiserver.seed(tainted)
    dgd = sample_dgd("g", workers=())
    _main(dgd)["nodeSelector"] = {"nvidia.com/gpu.product": "NVIDIA-B200"}
    _main(dgd)["tolerations"] = [{"key": "dedicated", "operator": "Exists"}]
    _settle(apiserver, dgd)
    (pod,) = _pods(apiserver)
    assert pod["spec"]["nodeName"] == "c"


def test_unbound_and_missing_claims_keep_pods_pending(apiserver: ApiServer) -> None:
    apiserver.seed(gpu_node("a", 8))
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "metadata": {"name": "cache", "namespace": NS},
            "status": {"phase": "Pending"},
        }
    )
    dgd = sample_dgd("g", workers=("Worker",))
    _main(dgd, 0)["volumes"] = [{"name": "v", "persistentVolumeClaim": {"claimName": "cache"}}]
    _main(dgd, 1)["volumes"] = [{"name": "v", "persistentVolumeClaim": {"claimName": "ghost"}}]
    _settle(apiserver, dgd)
    messages = sorted(p["status"]["conditions"][0]["message"] for p in _pods(apiserver))
    assert messages == [
        '0/1 nodes are available: persistentvolumeclaim "ghost" not found.',
        "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
    ]


def test_missing_service_account_stops_the_replicaset_once(apiserver: ApiServer) -> None:
    dgd = sample_dgd("g", workers=())
    _main(dgd)["serviceAccountName"] = "runner"
    _settle(apiserver, dgd)
    assert _pods(apiserver) == []
    events = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/events").body["items"]
    (failed,) = [e for e in events if e["reason"] == "FailedCreate"]
    assert failed["involvedObject"]["kind"] == "ReplicaSet"
    assert failed["message"].endswith(
        f'error looking up service account {NS}/runner: serviceaccount "runner" not found'
    )
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": "runner", "namespace": NS},
        }
    )
    OperatorSim(apiserver.store, children=True).settle()
    assert len(_pods(apiserver)) == 1


def test_metadata_only_list_sends_no_secret_data(apiserver: ApiServer) -> None:
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "hf-token", "namespace": NS},
            "data": {"token": "c2VjcmV0"},
        }
    )
    accept = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json"
    answer = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/secrets", accept=accept)
    assert answer.code == 200
    assert answer.body["kind"] == "PartialObjectMetadataList"
    (item,) = answer.body["items"]
    assert item["kind"] == "PartialObjectMetadata" and item["metadata"]["name"] == "hf-token"
    assert "c2VjcmV0" not in str(answer.body)
    plain = raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/secrets")
    assert plain.body["items"][0]["data"] == {"token": "c2VjcmV0"}


def test_pvcs_serviceaccounts_and_pods_of_every_namespace_by_phase(apiserver: ApiServer) -> None:
    for path in ("persistentvolumeclaims", "serviceaccounts"):
        assert raw(apiserver, "GET", f"/api/v1/namespaces/{NS}/{path}").code == 200
    apiserver.seed(gpu_node("a", 8))
    _settle(apiserver, sample_dgd("g", workers=()))
    selector = "status.phase!%3DSucceeded,status.phase!%3DFailed"
    running = raw(apiserver, "GET", f"/api/v1/pods?fieldSelector={selector}").body["items"]
    assert [p["metadata"]["namespace"] for p in running] == [NS]
    done = raw(apiserver, "GET", "/api/v1/pods?fieldSelector=status.phase%3DSucceeded")
    assert done.body["items"] == []
