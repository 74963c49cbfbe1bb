"""``kubectl dgd why NAME`` end to end against the test API server and its simulated operator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.apiserver.children import gpu_node
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import DGD
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph
from tests.cluster.test_tree import CHILDREN_CREATED, _cluster
from tests.conftest import assert_golden, run_cli

# 3 nodes of 4 GPUs: decode's 3 pods of 2 fill gpu-a and half gpu-b, prefill's first pod of 4
# takes gpu-c, its second finds at most 2 free on any node.
GPU_BOUND = [
    component("Frontend", "frontend"),
    component("decode", "decode", replicas=3, gpus=2),
    component("prefill", "prefill", replicas=2, gpus=4),
]
OPERATOR = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {
        "name": "dynamo-platform-dynamo-operator-controller-manager",
        "namespace": "dynamo-system",
        "labels": {"app.kubernetes.io/name": "dynamo-operator"},
    },
    "spec": {
        "replicas": 1,
        "template": {
            "spec": {
                "containers": [
                    {
                        "name": "manager",
                        "image": "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.5.0",
                    }
                ]
            }
        },
    },
}


def _why(apiserver: ApiServer, *args: str, columns: str = "80") -> tuple[int, str, str]:
    result = dgd(apiserver, "why", "my-graph", *args, env={"COLUMNS": columns})
    return result.returncode, result.stdout, result.stderr


def _json(apiserver: ApiServer, *args: str) -> dict[str, Any]:
    code, out, err = _why(apiserver, "-o", "json", *args)
    assert code in (0, 1), err
    data: dict[str, Any] = json.loads(out)
    assert (code == 0) == (data["ready"] and not data["findings"])
    return data


def _reasons(data: dict[str, Any]) -> list[str]:
    return [f["reason"] for f in data["findings"]]


def _write_status(apiserver: ApiServer, change: Any) -> None:
    """Write the graph's status as the operator would (through the status subresource)."""
    obj = change(apiserver.store.get(DGD, "dynamo", "my-graph"))
    apiserver.store.write_status(DGD, "dynamo", "my-graph", obj["status"])


def _operator(ready: int) -> dict[str, Any]:
    return {**OPERATOR, "status": {"replicas": 1, "readyReplicas": ready}}


def test_healthy_graph_exits_0(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    code, out, err = _why(apiserver)
    assert (code, err) == (0, "")
    assert out == "my-graph in dynamo is Ready (4/4 pods ready): nothing wrong found.\n"
    data = _json(apiserver)
    assert data == {"name": "my-graph", "namespace": "dynamo", "ready": True, "findings": []}


@pytest.mark.parametrize("columns", ["80", "200"])
def test_stuck_on_gpus_names_component_gpus_per_pod_and_free_gpus(
    apiserver: ApiServer, columns: str
) -> None:
    _cluster(apiserver, gpus=4, components=GPU_BOUND).settle()
    code, out, err = _why(apiserver, columns=columns)
    assert (code, err) == (1, "")
    assert all(len(line) <= int(columns) for line in out.splitlines())
    assert_golden(f"why/gpus_{columns}.txt", out)
    flat = " ".join(out.split())
    assert "InsufficientGPU, component prefill" in flat
    assert "1 pod needs 4 GPUs on one node; the most free on any node is 2" in flat
    assert "gpu-b: 2 of 4 NVIDIA-H100-80GB-HBM3" in out


def test_stuck_on_gpus_json_and_the_console_script(apiserver: ApiServer) -> None:
    _cluster(apiserver, gpus=4, components=GPU_BOUND).settle()
    (finding,) = _json(apiserver)["findings"]
    assert finding["component"] == "prefill"
    assert finding["severity"] == "error"
    assert finding["reason"] == "InsufficientGPU"
    assert finding["message"].startswith(
        "1 pod needs 4 GPUs on one node; the most free on any node is 2 (2 free of 12"
    )
    assert [o.split("-")[0] for o in finding["objects"]] == ["Pod/my"]
    assert finding["objects"][0].startswith("Pod/my-graph-prefill-")
    assert "gpu-a: 0 of 4 NVIDIA-H100-80GB-HBM3" in " ".join(finding["details"])
    assert apiserver.kubeconfig is not None
    script = run_cli(
        "why",
        "my-graph",
        env={"KUBECONFIG": str(apiserver.kubeconfig), "HOME": str(apiserver.kubeconfig.parent)},
        subprocess=True,
    )
    assert script.returncode == 1, script.stderr
    assert "the most free on any node is 2" in " ".join(script.stdout.split())


def test_image_pull_failure_names_the_image(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.faults["decode"] = "ImagePullBackOff"
    sim.settle()
    data = _json(apiserver)
    (finding,) = data["findings"]
    assert (finding["reason"], finding["component"]) == ("ImagePull", "decode")
    assert 'cannot pull image "nvcr.io/dynamo:1.5.0"' in finding["message"]
    assert "Back-off pulling image" in finding["message"]
    assert len(finding["objects"]) == 2  # both decode pods, one finding
    assert "imagePullSecrets" in finding["action"]


def test_crash_loop_shows_the_last_lines_of_the_previous_log(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.logs = apiserver.logs
    sim.children.faults["prefill"] = "CrashLoopBackOff"
    sim.children.crash_logs["prefill"] = [
        "INFO loading model Qwen/Qwen3-0.6B",
        "Traceback (most recent call last):",
        "ValueError: max_model_len 65536 exceeds the model's 40960",
    ]
    sim.settle()
    code, out, _ = _why(apiserver, "--tail", "2")
    assert code == 1
    assert "CrashLoop, component prefill (error)" in out
    assert "exited with code 1 (Error), 5 restarts" in " ".join(out.split())
    assert "     Traceback (most recent call last):" in out
    assert "     ValueError: max_model_len 65536 exceeds the model's 40960" in out
    assert "loading model" not in out  # --tail 2
    (finding,) = _json(apiserver)["findings"]
    assert finding["details"][-1] == "  ValueError: max_model_len 65536 exceeds the model's 40960"
    assert "--previous" in finding["action"]


def test_a_previous_log_that_cannot_be_read_is_one_warning_not_silence(
    apiserver: ApiServer,
) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.logs = apiserver.logs
    sim.children.faults["prefill"] = "CrashLoopBackOff"
    sim.children.crash_logs["prefill"] = ["ValueError: max_model_len"]
    sim.settle()
    apiserver.faults.fail_next(1, 500, lambda r: r.subresource == "log")
    code, out, err = _why(apiserver)
    assert code == 1
    assert "CrashLoop, component prefill (error)" in out
    assert "ValueError" not in out
    (warning,) = err.splitlines()
    assert warning.startswith("warning: the previous log of my-graph-prefill-")
    assert ", container main, not read: " in warning


def test_no_previous_instance_kept_is_no_warning(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.faults["prefill"] = "CrashLoopBackOff"  # and no log kept for it
    sim.settle()
    code, out, err = _why(apiserver)
    assert code == 1 and "CrashLoop, component prefill (error)" in out
    assert err == ""


@pytest.mark.parametrize("columns", ["80", "200"])
def test_several_problems_root_cause_first(apiserver: ApiServer, columns: str) -> None:
    comps = [
        component("Frontend", "frontend"),
        component("decode", "decode", replicas=2, gpus=1),
        component("prefill", "prefill", gpus=1),
    ]
    comps[0]["podTemplate"]["spec"]["containers"][0]["envFrom"] = [
        {"secretRef": {"name": "hf-token-secret"}}
    ]
    sim = _cluster(apiserver, components=comps)
    assert sim.children is not None
    sim.children.logs = apiserver.logs
    sim.children.faults.update(decode="ImagePullBackOff", prefill="CrashLoopBackOff")
    sim.children.crash_logs["prefill"] = [
        "INFO dynamo.vllm: starting worker",
        "\x1b[31mERROR\x1b[0m CUDA out of memory: tried to allocate 2.00 GiB (GPU 0; 79.11 GiB "
        "total capacity; 77.80 GiB already allocated)",
    ]
    sim.settle()
    code, out, err = _why(apiserver, columns=columns)
    assert (code, err) == (1, "")
    assert all(len(line) <= int(columns) for line in out.splitlines())
    assert "\x1b" not in out  # a log's escape sequences are shown, not sent to the terminal
    assert "\\x1b[31mERROR" in out
    assert_golden(f"why/several_{columns}.txt", out)
    assert [line.split(",")[0] for line in out.splitlines() if line[:1].isdigit()] == [
        "1. MissingReference",
        "2. ImagePull",
        "3. CrashLoop",
    ]


def test_grove_path_pods_are_diagnosed_too(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver, grove=True)
    assert sim.children is not None
    sim.children.faults["decode"] = "ImagePullBackOff"
    sim.settle()
    (finding,) = _json(apiserver)["findings"]
    assert (finding["reason"], finding["component"]) == ("ImagePull", "decode")
    assert finding["objects"] == ["Pod/my-graph-0-decode-0", "Pod/my-graph-0-decode-1"]


def test_oom_killed_names_the_memory_limit(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend"), component("decode", "decode", gpus=1)]
    comps[1]["podTemplate"]["spec"]["containers"][0]["resources"]["limits"]["memory"] = "16Gi"
    sim = _cluster(apiserver, components=comps)
    assert sim.children is not None
    sim.children.faults["decode"] = "OOMKilled"
    sim.settle()
    (finding,) = _json(apiserver)["findings"]
    assert finding["reason"] == "OOMKilled"
    assert "more than its memory limit 16Gi (exit code 137, 5 restarts)" in finding["message"]
    assert "limits.memory" in finding["action"]


def test_missing_secret_names_it_and_never_reads_secret_data(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend"), component("decode", "decode", gpus=1)]
    comps[1]["podTemplate"]["spec"]["containers"][0]["env"] = [
        {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token"}}}
    ]
    _cluster(apiserver, components=comps).settle()
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "other", "namespace": "dynamo"},
            "data": {"token": "aGYtc2VjcmV0LXZhbHVl"},  # hf-secret-value
        }
    )
    apiserver.clear_log()
    code, out, _ = _why(apiserver)
    assert code == 1
    (listing,) = [r for r in apiserver.request_log if r.path.endswith("/secrets")]
    assert "as=PartialObjectMetadataList" in listing.accept
    data = _json(apiserver)
    (finding,) = data["findings"]
    assert (finding["reason"], finding["component"]) == ("MissingReference", "decode")
    assert finding["message"] == (
        "Secret hf-token, named by env HF_TOKEN of container main of decode, does not exist "
        "in dynamo."
    )
    assert finding["objects"][0] == "Secret/hf-token"
    assert finding["objects"][1].startswith("Pod/my-graph-decode-")
    assert (
        "kubectl create secret generic hf-token -n dynamo --from-literal=token=<value>"
        in (finding["action"])
    )
    assert "aGYtc2VjcmV0LXZhbHVl" not in out + json.dumps(data)
    assert "hf-secret-value" not in out + json.dumps(data)


def test_missing_service_account_stops_the_pods(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend")]
    comps[0]["podTemplate"]["spec"]["serviceAccountName"] = "frontend-sa"
    _cluster(apiserver, components=comps).settle()
    (finding,) = _json(apiserver)["findings"]
    assert finding["reason"] == "MissingReference"
    assert finding["message"].startswith("ServiceAccount frontend-sa, named by serviceAccountName")
    assert finding["objects"][0] == "ServiceAccount/frontend-sa"
    assert any(o.startswith("ReplicaSet/my-graph-frontend-") for o in finding["objects"])


def test_pvc_pending_and_missing_pvc(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend"), component("decode", "decode", gpus=1)]
    comps[1]["podTemplate"]["spec"]["volumes"] = [
        {"name": "cache", "persistentVolumeClaim": {"claimName": "model-cache"}}
    ]
    comps[0]["podTemplate"]["spec"]["volumes"] = [
        {"name": "data", "persistentVolumeClaim": {"claimName": "ghost"}}
    ]
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "metadata": {"name": "model-cache", "namespace": "dynamo"},
            "spec": {"storageClassName": "fast-nfs"},
            "status": {"phase": "Pending"},
        }
    )
    _cluster(apiserver, components=comps).settle()
    data = _json(apiserver)
    assert _reasons(data) == ["MissingReference", "PVCPending"]
    missing, pending = data["findings"]
    assert missing["objects"][0] == "PersistentVolumeClaim/ghost"
    assert pending["component"] == "decode"
    assert pending["message"] == (
        "PersistentVolumeClaim model-cache is Pending (storage class fast-nfs), so the pods "
        "that mount it cannot be scheduled."
    )


def test_node_selector_and_taints_are_unschedulable(apiserver: ApiServer) -> None:
    comps = [component("Frontend", "frontend"), component("decode", "decode", gpus=1)]
    comps[1]["podTemplate"]["spec"]["nodeSelector"] = {"nvidia.com/gpu.product": "NVIDIA-B200"}
    _cluster(apiserver, components=comps).settle()
    (finding,) = _json(apiserver)["findings"]
    assert finding["reason"] == "Unschedulable"
    assert finding["message"] == (
        "Pods cannot be scheduled: 0/3 nodes are available: 3 node(s) didn't match Pod's node "
        "affinity/selector."
    )
    assert "nvidia.com/gpu.product=NVIDIA-B200" in finding["action"]


def test_untolerated_taint_is_unschedulable(apiserver: ApiServer) -> None:
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b"):
        tainted = gpu_node(name, 8)
        tainted["spec"] = {"taints": [{"key": "team", "value": "llm", "effect": "NoSchedule"}]}
        apiserver.seed(tainted)
    apiserver.seed(graph(components=[component("decode", "decode", gpus=1)]))
    OperatorSim(apiserver.store, children=True).settle()
    (finding,) = _json(apiserver)["findings"]
    assert finding["reason"] == "Unschedulable"
    assert finding["message"].endswith("2 node(s) had untolerated taint {team: llm}.")
    assert finding["action"].startswith("Add a toleration for the taint to decode's podTemplate")


def test_operator_lagging_behind_the_latest_change(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    sim.settle()
    apiserver.seed(_operator(ready=1))
    sim.pause("my-graph")

    def scale(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"]["components"][0]["replicas"] = 2
        return obj

    apiserver.store.patch(DGD, "dynamo", "my-graph", scale)
    sim.settle()
    (finding,) = _json(apiserver)["findings"]
    assert (finding["reason"], finding["severity"]) == ("OperatorLagging", "warning")
    assert finding["component"] is None
    assert finding["message"] == (
        "The operator has not acted on the graph's latest change (generation 2, observed 1)."
    )


def test_operator_not_running_is_the_root_cause(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver, gpus=1)  # prefill (2 GPUs) is Pending too
    sim.settle()
    apiserver.seed(_operator(ready=0))
    data = _json(apiserver)
    assert _reasons(data) == ["OperatorLagging", "InsufficientGPU"]
    first = data["findings"][0]
    assert first["severity"] == "error"
    assert first["message"] == (
        "The Dynamo operator is not running: "
        "dynamo-system/dynamo-platform-dynamo-operator-controller-manager 0/1 ready."
    )
    assert "Deployment/dynamo-platform-dynamo-operator-controller-manager" in first["objects"]


def test_failed_state_message(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()

    def fail(obj: dict[str, Any]) -> dict[str, Any]:
        obj["status"]["state"] = "failed"
        obj["status"]["conditions"][0].update(
            status="False",
            reason="no_multinode_orchestrator_available",
            message="no multinode orchestrator available",
        )
        return obj

    _write_status(apiserver, fail)
    (finding,) = _json(apiserver)["findings"]
    assert finding["reason"] == "Failed"
    assert (
        "no_multinode_orchestrator_available: no multinode orchestrator available"
        in (finding["message"])
    )


def test_rolling_update_blocked_on_gpus(apiserver: ApiServer) -> None:
    # the new generation's prefill pod finds no node with 2 free GPUs while the update runs
    _cluster(apiserver, gpus=1).settle()

    def rolling(obj: dict[str, Any]) -> dict[str, Any]:
        obj["status"]["rollingUpdate"] = {
            "phase": "InProgress",
            "startTime": "2026-11-01T11:30:00Z",
            "updatedComponents": ["decode"],
        }
        obj["status"]["state"] = "pending"
        return obj

    _write_status(apiserver, rolling)
    data = _json(apiserver)
    assert _reasons(data) == ["InsufficientGPU", "RolloutBlocked"]
    blocked = data["findings"][1]
    assert blocked["message"] == (
        "The rolling update (InProgress) cannot finish: new pods of prefill (InsufficientGPU) do "
        "not become ready. The old pods keep their GPUs until the new ones are ready."
    )
    assert blocked["objects"][0] == "DynamoGraphDeployment/my-graph"
    assert blocked["objects"][1].startswith("Pod/my-graph-prefill-")


def test_forbidden_secret_list_is_a_warning_and_the_rest_answers(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.faults["decode"] = "ImagePullBackOff"
    sim.settle()
    apiserver.faults.forbid("list", "secrets")
    code, out, err = _why(apiserver, "-o", "json")
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("warning: ") and "secrets" in err
    assert _reasons(json.loads(out)) == ["ImagePull"]


def test_yaml_is_the_same_data(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    assert sim.children is not None
    sim.children.faults["decode"] = "ImagePullBackOff"
    sim.settle()
    code, out, _ = _why(apiserver, "-o", "yaml")
    assert code == 1
    assert yaml.safe_load(out) == _json(apiserver)


def test_not_found_graph_is_one_line(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "why", "ghost")
    assert result.returncode == 3
    assert result.stderr.count("\n") == 1 and "not found" in result.stderr


@pytest.mark.parametrize("decode", [4, 12])
def test_requests_do_not_grow_with_the_pods(apiserver: ApiServer, decode: int) -> None:
    # 3 nodes of 1 GPU: 3 decode pods run and crash-loop, the others wait for GPUs
    comps = [
        component("decode", "decode", replicas=decode, gpus=1),
        component("Frontend", "frontend"),
    ]
    sim: OperatorSim = _cluster(apiserver, gpus=1, components=comps)
    assert sim.children is not None
    sim.children.faults["decode"] = "CrashLoopBackOff"
    sim.children.logs = apiserver.logs
    sim.settle()
    apiserver.clear_log()
    assert dgd(apiserver, "why", "my-graph").returncode == 1
    assert [r.path.rsplit("/", 1)[1] for r in apiserver.request_log] == [
        "my-graph",
        "apis",  # discovery: no Grove, no LeaderWorkerSet here, so they are not asked for
        "dynamocomponentdeployments",
        "deployments",
        "replicasets",
        "pods",
        "events",
        "persistentvolumeclaims",
        "secrets",
        "configmaps",
        "serviceaccounts",
        "nodes",  # a pod waits for the scheduler: who holds the GPUs
        "pods",
        "deployments",  # not Ready: the operator's, in every namespace
        "log",  # one previous log for decode's crash loop, whatever its pods
    ]


def test_healthy_graph_requests(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    apiserver.clear_log()
    assert dgd(apiserver, "why", "my-graph").returncode == 0
    # GET, discovery, the 4 tree LISTs served, 5 more; no nodes, no operator
    assert len(apiserver.request_log) == 11


def test_readme_shows_the_gpu_scenario_as_recorded() -> None:
    root = Path(__file__).resolve().parents[2]
    golden = (root / "tests" / "golden" / "why" / "gpus_80.txt").read_text()
    assert f"$ kubectl dgd why my-graph\n{golden}```" in (root / "README.md").read_text()
