"""Node accounting of nvidia.com/gpu: allocatable, requested by bound live pods, free, used by."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.node_gpus import node_gpu_usage, pod_gpu_request


def node(name: str, gpus: str | None, product: str = "H100", **spec: Any) -> dict[str, Any]:
    allocatable = {"cpu": "64"} | ({"nvidia.com/gpu": gpus} if gpus is not None else {})
    labels = {"nvidia.com/gpu.product": product} if product else {}
    return {
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {"allocatable": allocatable},
    }


def pod(
    name: str,
    node_name: str | None,
    *,
    limits: str | None = None,
    requests: str | None = None,
    graph: str | None = "g",
    namespace: str = "dynamo",
    phase: str = "Running",
    init: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if limits is not None:
        resources["limits"] = {"nvidia.com/gpu": limits}
    if requests is not None:
        resources["requests"] = {"nvidia.com/gpu": requests}
    labels = {"nvidia.com/dynamo-graph-deployment-name": graph} if graph else {}
    spec: dict[str, Any] = {"containers": [{"name": "main", "resources": resources}]}
    if node_name:
        spec["nodeName"] = node_name
    if init:
        spec["initContainers"] = init
    return {
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
        "spec": spec,
        "status": {"phase": phase},
    }


def test_free_is_allocatable_minus_requests_of_bound_pods() -> None:
    nodes = [node("a", "8"), node("b", "4", product="A100")]
    pods = [pod("p1", "a", limits="2"), pod("p2", "a", limits="1"), pod("p3", "b", limits="4")]
    a, b = node_gpu_usage(nodes, pods)
    assert (a.name, a.product, a.allocatable, a.requested, a.free, a.pods) == (
        "a",
        "H100",
        8,
        3,
        5,
        2,
    )
    assert (b.name, b.product, b.requested, b.free) == ("b", "A100", 4, 0)


def test_terminated_and_unbound_pods_hold_nothing() -> None:
    pods = [
        pod("done", "a", limits="2", phase="Succeeded"),
        pod("failed", "a", limits="2", phase="Failed"),
        pod("pending", None, limits="2", phase="Pending"),
        pod("elsewhere", "cpu-node", limits="2"),
    ]
    (a,) = node_gpu_usage([node("a", "8"), node("cpu-node", None)], pods)
    assert (a.requested, a.free, a.used_by) == (0, 8, [])


def test_nodes_without_gpus_are_left_out_and_nodes_sorted() -> None:
    usage = node_gpu_usage([node("z", "1"), node("cpu", None), node("m", "0", product="")], [])
    assert [(n.name, n.product, n.allocatable) for n in usage] == [("m", "", 0), ("z", "H100", 1)]


def test_limits_win_over_requests_per_container() -> None:
    assert pod_gpu_request(pod("p", "a", limits="2", requests="1")) == 2
    assert pod_gpu_request(pod("p", "a", requests="3")) == 3
    assert pod_gpu_request(pod("p", "a")) == 0


def test_init_container_peak_counts_when_larger() -> None:
    init = [{"name": "warm", "resources": {"limits": {"nvidia.com/gpu": "4"}}}]
    assert pod_gpu_request(pod("p", "a", limits="1", init=init)) == 4


def test_dra_claims_count_nothing_but_scalars_still_count() -> None:
    p = pod("p", "a", limits="1")
    p["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]
    p["spec"]["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": "t"}]
    assert pod_gpu_request(p) == 1


def test_used_by_groups_pods_by_namespace_and_graph() -> None:
    pods = [
        pod("a1", "a", limits="2", graph="llama"),
        pod("a2", "a", limits="2", graph="llama"),
        pod("a3", "a", limits="1", graph="llama", namespace="other"),
        pod("a4", "a", limits="1", graph=None),
        pod("cpu", "a", graph="llama"),  # no GPUs: not a user of them
    ]
    (a,) = node_gpu_usage([node("a", "8")], pods)
    assert [(u.namespace, u.name, u.gpus, u.pods) for u in a.used_by] == [
        ("dynamo", "", 1, 1),
        ("dynamo", "llama", 4, 2),
        ("other", "llama", 1, 1),
    ]
    assert (a.requested, a.free, a.pods) == (6, 2, 4)


def test_overcommitted_node_shows_no_negative_free_and_cordon_is_kept() -> None:
    (a,) = node_gpu_usage([node("a", "1", unschedulable=True)], [pod("p", "a", limits="2")])
    assert (a.requested, a.free, a.schedulable) == (2, 0, False)
    assert a.to_data()["usedBy"] == [{"namespace": "dynamo", "name": "g", "gpus": 2, "pods": 1}]


def test_garbage_objects_do_not_raise() -> None:
    junk: list[Any] = [{"metadata": None, "status": {"allocatable": {"nvidia.com/gpu": "x"}}}]
    usage = node_gpu_usage(junk, [{"spec": {"nodeName": ""}}, {"spec": None}])
    assert [(n.name, n.allocatable) for n in usage] == [("", 0)]
