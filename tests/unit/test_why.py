"""core/why/ over pod states: one finding per problem, root cause first, nothing unread judged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_dgd.core.why import (
    MAX_LOGS,
    REASONS,
    WhyInput,
    crash_looping,
    diagnose,
    is_operator_deployment,
    needs_operator,
    pending_on_scheduler,
)
from tests.cluster.conftest import component, graph

GPU_MESSAGE = "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
NAMES: dict[str, set[str] | None] = {"Secret": set(), "ConfigMap": set(), "ServiceAccount": set()}


def pod(
    name: str,
    comp: str = "decode",
    *,
    phase: str = "Running",
    ready: bool = True,
    waiting: dict[str, Any] | None = None,
    last: dict[str, Any] | None = None,
    terminated: dict[str, Any] | None = None,
    scheduled: str | None = None,
    node: str = "gpu-a",
    gpus: int = 1,
    restarts: int = 0,
    spec: dict[str, Any] | None = None,
) -> dict[str, Any]:
    state: dict[str, Any] = {"running": {}}
    if waiting is not None:
        state = {"waiting": waiting}
    if terminated is not None:
        state = {"terminated": terminated}
    conditions = [{"type": "Ready", "status": str(ready)}]
    if scheduled is not None:
        conditions = [
            {
                "type": "PodScheduled",
                "status": "False",
                "reason": "Unschedulable",
                "message": scheduled,
            }
        ]
        phase, node = "Pending", ""
    main: dict[str, Any] = {"name": "main", "image": "nvcr.io/x:1"}
    if gpus:
        main["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    status: dict[str, Any] = {"phase": phase, "conditions": conditions}
    if scheduled is None:
        status["containerStatuses"] = [
            {
                "name": "main",
                "image": "nvcr.io/x:1",
                "ready": ready,
                "restartCount": restarts,
                "state": state,
                **({"lastState": {"terminated": last}} if last else {}),
            }
        ]
    return {
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": "dynamo",
            "labels": {"nvidia.com/dynamo-component": comp},
        },
        "spec": {"nodeName": node, "containers": [main], **(spec or {})},
        "status": status,
    }


def gpu_node(name: str, gpus: int) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "labels": {"nvidia.com/gpu.product": "H100"}},
        "status": {"allocatable": {"nvidia.com/gpu": str(gpus)}},
    }


def not_ready(g: dict[str, Any], comp: str = "decode") -> dict[str, Any]:
    g = copy.deepcopy(g)
    g["status"]["components"][comp]["readyReplicas"] = 0
    g["status"]["conditions"][0].update(status="False", reason="some_resources_are_not_ready")
    return g


def run(pods: list[dict[str, Any]], g: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    kwargs.setdefault("names", NAMES)
    kwargs.setdefault("pvcs", [])
    return diagnose(WhyInput(graph=g or not_ready(graph()), objects=pods, **kwargs))


def reasons(report: Any) -> list[str]:
    return [f.reason for f in report.findings]


def test_ready_graph_with_running_pods_has_no_finding() -> None:
    report = run([pod("d-0"), pod("d-1")], graph())
    assert report.ok and report.findings == []
    assert (report.pods, report.ready_pods) == (2, 2)


def test_gpu_pending_pods_of_a_component_are_one_finding_with_node_figures() -> None:
    pods = [pod("d-0"), pod("p-0", "prefill", gpus=4, scheduled=GPU_MESSAGE)]
    pods.append(pod("p-1", "prefill", gpus=4, scheduled=GPU_MESSAGE))
    nodes = [gpu_node("gpu-a", 4), gpu_node("gpu-b", 2)]
    report = run(pods, nodes=nodes, node_pods=pods)
    (finding,) = report.findings
    assert (finding.reason, finding.component) == ("InsufficientGPU", "prefill")
    assert finding.message == (
        "2 pods need 4 GPUs on one node; the most free on any node is 3 (5 free of 6 in the "
        "cluster)."
    )
    assert finding.objects == ["Pod/p-0", "Pod/p-1"]
    assert finding.details == [
        "GPUs per node (free of allocatable):",
        "  gpu-a: 3 of 4 H100",
        "  gpu-b: 2 of 2 H100",
    ]
    assert "Free 1 more GPU on one node" in finding.action


def test_gpu_pod_bigger_than_any_node_says_so() -> None:
    pods = [pod("p-0", "prefill", gpus=8, scheduled=GPU_MESSAGE)]
    (finding,) = run(pods, nodes=[gpu_node("a", 4)], node_pods=pods).findings
    assert "No node has 8 GPUs at all (the largest has 4)." in finding.message
    assert finding.action.startswith("Add a node with at least 8 GPUs")


def test_gpu_finding_without_nodes_read_still_names_the_need() -> None:
    (finding,) = run([pod("p-0", "prefill", gpus=2, scheduled=GPU_MESSAGE)]).findings
    assert finding.message == "1 pod needs 2 GPUs on one node (the nodes could not be read)."


def test_gpu_finding_counts_only_nodes_of_the_selected_product() -> None:
    spec = {"nodeSelector": {"nvidia.com/gpu.product": "B200"}}
    p = pod("p-0", "prefill", gpus=2, scheduled=GPU_MESSAGE, spec=spec)
    b200 = gpu_node("b", 1)
    b200["metadata"]["labels"]["nvidia.com/gpu.product"] = "B200"
    (finding,) = run([p], nodes=[gpu_node("a", 8), b200], node_pods=[p]).findings
    assert finding.message.startswith("1 pod needs 2 GPUs on one B200 node; the most free")
    assert finding.details[1:] == ["  b: 1 of 1 B200"]


@pytest.mark.parametrize(
    ("message", "action"),
    [
        ("0/3 nodes are available: 3 node(s) had untolerated taint {a: b}.", "toleration"),
        ("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.", "label"),
        ("0/3 nodes are available: 3 Insufficient memory.", "requests"),
        ("0/3 nodes are available: 3 node(s) had volume node affinity conflict.", "scheduler"),
    ],
)
def test_other_scheduling_causes_are_unschedulable(message: str, action: str) -> None:
    (finding,) = run([pod("d-0", scheduled=message)]).findings
    assert finding.reason == "Unschedulable"
    assert finding.message == f"Pods cannot be scheduled: {message}"
    assert action in finding.action


def test_scheduler_message_missing_falls_back_to_the_event() -> None:
    p = pod("d-0", scheduled="")
    event = {
        "type": "Warning",
        "reason": "FailedScheduling",
        "message": "0/1 nodes are available: 1 node(s) were unschedulable.",
        "involvedObject": {"kind": "Pod", "name": "d-0"},
    }
    (finding,) = run([p], events=[event]).findings
    assert finding.message.endswith("1 node(s) were unschedulable.")


@pytest.mark.parametrize("reason", ["ImagePullBackOff", "ErrImagePull", "InvalidImageName"])
def test_image_pull_waiting_reasons(reason: str) -> None:
    waiting = {"reason": reason, "message": "manifest unknown"}
    (finding,) = run([pod("d-0", ready=False, waiting=waiting)]).findings
    assert finding.reason == "ImagePull"
    assert finding.message == (
        f'Container main of decode cannot pull image "nvcr.io/x:1": {reason}: manifest unknown.'
    )


def test_image_pull_names_a_missing_pull_secret() -> None:
    spec = {"imagePullSecrets": [{"name": "ngc"}]}
    p = pod("d-0", ready=False, waiting={"reason": "ErrImagePull"}, spec=spec)
    (finding,) = run([p]).findings
    assert "the pull Secret ngc does not exist" in finding.action


def test_crash_loop_with_its_previous_log() -> None:
    last = {"exitCode": 2, "reason": "Error"}
    pods = [
        pod("d-0", ready=False, waiting={"reason": "CrashLoopBackOff"}, last=last, restarts=7),
        pod("d-1", ready=False, waiting={"reason": "CrashLoopBackOff"}, last=last, restarts=1),
    ]
    assert crash_looping(pods) == [("d-0", "main")]
    report = run(pods, previous_logs={("d-0", "main"): ["boom", "bye"]})
    (finding,) = report.findings
    assert finding.reason == "CrashLoop"
    assert finding.message == (
        "Container main of decode is in a crash loop: it exited with code 2 (Error), 7 restarts."
    )
    assert finding.objects == ["Pod/d-0", "Pod/d-1"]
    assert finding.details == [
        "Last lines of the previous container of pod d-0:",
        "  boom",
        "  bye",
    ]


def test_crash_loop_log_reads_are_capped_per_component_and_container() -> None:
    pods = [
        pod(f"c{i}-0", f"comp{i}", ready=False, waiting={"reason": "CrashLoopBackOff"}, last={})
        for i in range(MAX_LOGS + 3)
    ]
    assert len(crash_looping(pods)) == MAX_LOGS


def test_oom_kill_names_the_limit_and_is_not_a_crash_loop() -> None:
    p = pod(
        "d-0",
        ready=False,
        waiting={"reason": "CrashLoopBackOff"},
        last={"exitCode": 137, "reason": "OOMKilled"},
        restarts=3,
    )
    p["spec"]["containers"][0]["resources"]["limits"]["memory"] = "8Gi"
    assert crash_looping([p]) == []
    (finding,) = run([p]).findings
    assert finding.reason == "OOMKilled"
    assert "more than its memory limit 8Gi (exit code 137, 3 restarts)" in finding.message


def test_oom_kill_now_without_a_limit() -> None:
    p = pod("d-0", ready=False, terminated={"exitCode": 137, "reason": "OOMKilled"})
    (finding,) = run([p]).findings
    assert "the node's memory (no memory limit)" in finding.message


def test_container_that_cannot_start() -> None:
    waiting = {"reason": "CreateContainerError", "message": "no command"}
    (finding,) = run([pod("d-0", ready=False, waiting=waiting)]).findings
    assert finding.reason == "CrashLoop"
    assert "cannot start: CreateContainerError: no command" in finding.message


def test_missing_secret_from_the_template_and_the_pod_is_one_finding() -> None:
    comps = [component("decode", "decode", gpus=1)]
    env = [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "t"}}}]
    comps[0]["podTemplate"]["spec"]["containers"][0]["env"] = env
    waiting = {"reason": "CreateContainerConfigError", "message": 'secret "hf" not found'}
    p = pod("d-0", ready=False, waiting=waiting)
    p["spec"]["containers"][0]["env"] = env
    (finding,) = run([p], not_ready(graph(components=comps))).findings
    assert finding.reason == "MissingReference"
    assert finding.message == (
        "Secret hf, named by env HF_TOKEN of container main of decode, does not exist in dynamo."
    )
    assert finding.objects == ["Secret/hf", "Pod/d-0"]
    assert "--from-literal=t=<value>" in finding.action


def test_existing_optional_and_always_there_references_are_fine() -> None:
    spec = {
        "serviceAccountName": "default",
        "volumes": [
            {"name": "a", "secret": {"secretName": "present"}},
            {"name": "b", "configMap": {"name": "maybe", "optional": True}},
            {"name": "c", "projected": {"sources": [{"configMap": {"name": "kube-root-ca.crt"}}]}},
        ],
    }
    names = {"Secret": {"present"}, "ConfigMap": set(), "ServiceAccount": set()}
    assert run([pod("d-0", spec=spec)], graph(), names=names).ok


def test_references_not_read_are_not_judged() -> None:
    spec = {"volumes": [{"name": "a", "secret": {"secretName": "unknown"}}]}
    names = {"Secret": None, "ConfigMap": set(), "ServiceAccount": set()}
    assert run([pod("d-0", spec=spec)], graph(), names=names, pvcs=None).ok


def test_mount_failure_event_of_a_missing_configmap() -> None:
    event = {
        "type": "Warning",
        "reason": "FailedMount",
        "message": 'MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found',
        "involvedObject": {"kind": "Pod", "name": "d-0"},
    }
    p = pod("d-0", ready=False, waiting={"reason": "ContainerCreating"})
    (finding,) = run([p], names={**NAMES, "ConfigMap": None}, events=[event]).findings
    assert (finding.reason, finding.objects) == ("MissingReference", ["ConfigMap/cfg", "Pod/d-0"])


def test_pvc_pending_names_the_claim() -> None:
    spec = {"volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "cache"}}]}
    message = "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."
    pvc = {"metadata": {"name": "cache"}, "spec": {}, "status": {"phase": "Pending"}}
    (finding,) = run([pod("d-0", scheduled=message, spec=spec)], pvcs=[pvc]).findings
    assert finding.reason == "PVCPending"
    assert finding.objects == ["PersistentVolumeClaim/cache", "Pod/d-0"]


def test_root_cause_first_across_components() -> None:
    g = not_ready(not_ready(graph(), "prefill"))
    pods = [
        pod("d-0", ready=False, waiting={"reason": "CrashLoopBackOff"}, last={"exitCode": 1}),
        pod("p-0", "prefill", ready=False, waiting={"reason": "ImagePullBackOff"}),
        pod("f-0", "Frontend", gpus=0, scheduled="0/3 nodes are available: 3 Insufficient cpu."),
    ]
    assert reasons(run(pods, g)) == ["Unschedulable", "ImagePull", "CrashLoop"]


def test_operator_behind_is_a_warning_last_down_is_an_error_first() -> None:
    g = graph()
    g["metadata"]["generation"] = 3
    g["status"]["observedGeneration"] = 2
    assert needs_operator(g)
    operator = {
        "metadata": {"name": "op", "namespace": "sys", "labels": {}},
        "spec": {
            "replicas": 1,
            "template": {
                "spec": {"containers": [{"name": "manager", "image": "r/kubernetes-operator:1"}]}
            },
        },
        "status": {"readyReplicas": 1},
    }
    assert is_operator_deployment(operator)
    (lagging,) = run([pod("d-0")], g, operators=[operator]).findings
    assert (lagging.reason, lagging.severity, lagging.component) == (
        "OperatorLagging",
        "warning",
        None,
    )
    operator["status"] = {"readyReplicas": 0}
    bad = pod("d-1", ready=False, waiting={"reason": "ImagePullBackOff"})
    report = run([pod("d-0"), bad], g, operators=[operator])
    assert reasons(report) == ["OperatorLagging", "ImagePull"]
    assert report.findings[0].severity == "error"
    assert report.findings[0].objects == ["DynamoGraphDeployment/my-graph", "Deployment/op"]


def test_operator_not_judged_when_its_deployments_were_not_read() -> None:
    g = graph()
    g["metadata"]["generation"] = 3
    g["status"]["observedGeneration"] = 3
    assert not needs_operator(g)
    assert run([pod("d-0")], g, operators=None).ok


def test_failed_state() -> None:
    g = graph()
    g["status"]["state"] = "failed"
    g["status"]["conditions"][0].update(status="False", reason="rolling_update_failed", message="x")
    (finding,) = run([pod("d-0")], g).findings
    assert (finding.reason, finding.message) == (
        "Failed",
        "The operator reports the graph failed: rolling_update_failed: x.",
    )


def test_a_failure_the_operator_retries_is_named_as_such() -> None:
    g = graph()
    g["status"]["state"] = "failed"
    g["status"]["conditions"][0].update(
        status="False", reason="failed_to_handle_the_finalizer", message="x"
    )
    (finding,) = run([pod("d-0")], g).findings
    assert (finding.reason, finding.message) == (
        "Failed",
        "The operator reports the graph failed: failed_to_handle_the_finalizer: x "
        "(the operator retries this step).",
    )


def test_restart_blocked_by_a_crash_loop() -> None:
    g = not_ready(graph(restart={"id": "r2"}))
    g["status"]["restart"] = {"observedID": "r2", "phase": "Restarting", "inProgress": ["decode"]}
    p = pod("d-0", ready=False, waiting={"reason": "CrashLoopBackOff"}, last={"exitCode": 1})
    report = run([p], g)
    assert reasons(report) == ["CrashLoop", "RolloutBlocked"]
    assert report.findings[1].message == (
        "The restart r2 (Restarting) cannot finish: new pods of decode (CrashLoop) do not "
        "become ready."
    )


def test_not_ready_without_a_cause_has_no_finding_and_is_not_ok() -> None:
    report = run([pod("d-0", ready=False)])
    assert report.findings == [] and not report.ok


def test_pending_on_scheduler_and_the_reason_set() -> None:
    assert pending_on_scheduler([pod("p", scheduled=GPU_MESSAGE)])
    assert not pending_on_scheduler([pod("p")])
    assert REASONS == (
        "OperatorLagging",
        "Failed",
        "StaleReady",
        "MissingReference",
        "PVCPending",
        "InsufficientGPU",
        "Unschedulable",
        "ImagePull",
        "OOMKilled",
        "CrashLoop",
        "RolloutBlocked",
    )


def test_json_shape() -> None:
    report = run([pod("d-0", ready=False, waiting={"reason": "ErrImagePull"})])
    data = report.to_data()
    assert set(data) == {"name", "namespace", "ready", "findings"}
    assert set(data["findings"][0]) == {
        "component",
        "severity",
        "reason",
        "message",
        "objects",
        "action",
        "details",
    }


def test_gpu_finding_keeps_a_mixed_scheduler_message() -> None:
    message = (
        "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated "
        "taint {dedicated: infer}."
    )
    p = pod("p-0", "prefill", gpus=2, scheduled=message)
    (finding,) = run([p], nodes=[gpu_node("a", 1)], node_pods=[p]).findings
    assert finding.reason == "InsufficientGPU"
    assert finding.details[0] == f"The scheduler: {message}"


def test_odd_shapes_do_not_raise() -> None:
    p = pod("d-0", ready=False, waiting={"reason": "CrashLoopBackOff"}, restarts=0)
    p["status"]["containerStatuses"][0]["restartCount"] = "many"
    p["status"]["containerStatuses"].append("not a mapping")
    p["spec"]["volumes"] = "nope"
    (finding,) = run([p, {"kind": "Pod"}]).findings
    assert "0 restarts" in finding.message


def test_never_reported_and_no_operator_found() -> None:
    g = graph()
    del g["status"]
    (finding,) = run([], g, operators=[]).findings
    assert (finding.reason, finding.severity) == ("OperatorLagging", "error")
    assert finding.message == (
        "The Dynamo operator is not running: no Deployment of it was found (a manager container "
        "running kubernetes-operator, or the label app.kubernetes.io/name=dynamo-operator). The "
        "operator has never reported on this graph."
    )


def test_gpu_finding_adds_up_each_product_when_there_are_several() -> None:
    b200 = gpu_node("b", 8)
    b200["metadata"]["labels"]["nvidia.com/gpu.product"] = "B200"
    p = pod("p-0", "prefill", gpus=16, scheduled=GPU_MESSAGE)
    held = pod("d-0", node="b", gpus=3)
    (finding,) = run([p, held], nodes=[gpu_node("a", 4), b200], node_pods=[p, held]).findings
    assert finding.details == [
        "GPUs per product (free of allocatable; the most free on one node):",
        "  B200: 5 of 8; 5",
        "  H100: 4 of 4; 4",
        "GPUs per node (free of allocatable):",
        "  b: 5 of 8 B200",
        "  a: 4 of 4 H100",
    ]


def test_gpus_freed_since_the_scheduler_tried() -> None:
    p = pod("p-0", "prefill", gpus=2, scheduled=GPU_MESSAGE)
    (finding,) = run([p], nodes=[gpu_node("a", 4)], node_pods=[p]).findings
    assert "the most free on any node is 4" in finding.message
    assert finding.action.startswith("A node has the GPUs free now")


def test_gpu_finding_counts_only_the_nodes_the_pod_may_run_on() -> None:
    # a free 8-GPU node the pod's selector excludes, and one tainted for others: no help
    spec = {"nodeSelector": {"pool": "llm"}}
    p = pod("p-0", "prefill", gpus=4, scheduled=GPU_MESSAGE, spec=spec)
    ours, free, tainted = gpu_node("ours", 4), gpu_node("free", 8), gpu_node("tainted", 8)
    ours["metadata"]["labels"]["pool"] = "llm"
    tainted["metadata"]["labels"]["pool"] = "llm"
    tainted["spec"] = {"taints": [{"key": "team", "value": "b", "effect": "NoSchedule"}]}
    busy = pod("q-0", "prefill", gpus=2, node="ours")
    (finding,) = run([p], nodes=[ours, free, tainted], node_pods=[p, busy]).findings
    assert finding.message == (
        "1 pod needs 4 GPUs on one node; the most free on any node it may run on is 2 (2 free of "
        "4 on the 1 node its nodeSelector, affinity and tolerations allow; 2 more GPU nodes are "
        "ruled out)."
    )
    assert finding.details[1:] == ["  ours: 2 of 4 H100"]
    assert "Free 2 more GPUs on one node" in finding.action


def test_gpu_finding_when_no_gpu_node_passes_the_pods_filters() -> None:
    spec = {"nodeSelector": {"pool": "llm"}}
    p = pod("p-0", "prefill", gpus=1, scheduled=GPU_MESSAGE, spec=spec)
    (finding,) = run([p], nodes=[gpu_node("free", 8)], node_pods=[p]).findings
    assert "No node it may run on has 1 GPU" in finding.message
    assert finding.details == [
        "No node that offers nvidia.com/gpu passes prefill's nodeSelector, affinity and "
        "tolerations."
    ]
    assert finding.action.startswith("Fix prefill's nodeSelector, affinity or tolerations")


def test_a_ready_status_with_no_pod_at_all_is_stale_and_says_what_was_seen() -> None:
    g = graph()
    g["metadata"]["generation"] = 1
    assert needs_operator(g, []) and not needs_operator(g, [pod("d-0")])
    report = run([], g, operators=[])
    (stale,) = report.findings
    assert not report.ok and report.ready
    assert (stale.reason, stale.severity, stale.component) == ("StaleReady", "error", None)
    condition = g["status"]["conditions"][0]
    assert stale.message == (
        f"The graph's status says Ready (condition Ready=True since "
        f"{condition['lastTransitionTime']} (all_resources_are_ready); generation 1, observed "
        "1), but there are no pods for components Frontend, decode, prefill."
    )
    assert "kubectl dgd doctor" in stale.action and "kubectl dgd tree my-graph" in stale.action
    assert stale.details[0].startswith("No Deployment of the Dynamo operator was found")


def test_stale_ready_is_not_judged_when_pods_could_not_be_listed() -> None:
    assert run([], graph(), unread=frozenset({"Pod"})).ok


def test_a_component_scaled_to_zero_wants_no_pods() -> None:
    g = graph()
    for entry in g["spec"]["components"]:
        if entry["name"] != "decode":
            entry["replicas"] = 0
    (stale,) = run([], g).findings
    assert stale.message.endswith("but there are no pods for component decode.")
    assert stale.details == []  # the operator's Deployments were not read: not judged


def test_gpu_pod_bigger_than_any_node_it_may_run_on_says_so() -> None:
    p = pod("p-0", "prefill", gpus=16, scheduled=GPU_MESSAGE)
    tainted = gpu_node("tainted", 32)
    tainted["spec"] = {"taints": [{"key": "team", "value": "b", "effect": "NoSchedule"}]}
    (finding,) = run([p], nodes=[gpu_node("a", 8), tainted], node_pods=[p]).findings
    assert "No node it may run on has 16 GPUs (the largest has 8)." in finding.message
    assert "1 more GPU node is ruled out" in finding.message
    assert finding.action.startswith("Add a node with at least 16 GPUs")
