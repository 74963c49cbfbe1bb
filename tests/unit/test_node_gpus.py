"""Node GPU accounting: allocatable minus the requests of the non-terminated pods bound there."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.node_gpus import by_product, node_gpu_usage, pod_gpu_request


def node(name: str, gpus: int | str | None, product: str = "H100", **spec: Any) -> dict[str, Any]:
    allocatable = {} if gpus is None else {"nvidia.com/gpu": str(gpus)}
    return {
        "metadata": {"name": name, "labels": {"nvidia.com/gpu.product": product}},
        "spec": spec,
        "status": {"allocatable": allocatable, "conditions": [{"type": "Ready", "status": "True"}]},
    }


def pod(
    name: str, node_name: str, gpus: int, phase: str = "Running", namespace: str = "ns"
) -> dict[str, Any]:
    return {
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": {"nvidia.com/dynamo-graph-deployment-name": "g"},
        },
        "spec": {
            "nodeName": node_name,
            "containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": gpus}}}],
        },
        "status": {"phase": phase},
    }


def test_free_is_allocatable_minus_requests_of_pods_bound_there() -> None:
    usage = node_gpu_usage(
        [node("b", 8), node("a", 4)],
        [pod("p1", "a", 2), pod("p2", "a", 1, namespace="other"), pod("p3", "b", 8)],
    )
    assert [(n.name, n.allocatable, n.requested, n.free) for n in usage] == [
        ("a", 4, 3, 1),
        ("b", 8, 8, 0),
    ]
    assert [(h.namespace, h.name, h.gpus, h.graph) for h in usage[0].holders] == [
        ("ns", "p1", 2, "g"),
        ("other", "p2", 1, "g"),
    ]
    assert usage[0].to_data()["free"] == 1


def test_terminated_and_unbound_pods_hold_nothing() -> None:
    (usage,) = node_gpu_usage(
        [node("a", 4)],
        [
            pod("done", "a", 2, phase="Succeeded"),
            pod("failed", "a", 2, phase="Failed"),
            pod("pending", "", 4, phase="Pending"),
        ],
    )
    assert (usage.requested, usage.free) == (0, 4)


def test_overcommitted_node_has_zero_free_not_negative() -> None:
    (usage,) = node_gpu_usage([node("a", 2)], [pod("x", "a", 2), pod("y", "a", 2)])
    assert (usage.requested, usage.free) == (4, 0)


def test_init_peak_and_native_sidecars_count_as_the_scheduler_does() -> None:
    spec = {
        "initContainers": [
            {"name": "warm", "resources": {"requests": {"nvidia.com/gpu": "4"}}},
            {
                "name": "side",
                "restartPolicy": "Always",
                "resources": {"limits": {"nvidia.com/gpu": "1"}},
            },
        ],
        "containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "2"}}}],
    }
    assert pod_gpu_request(spec) == 4  # max(init 4, sidecar 1 + main 2)
    spec["initContainers"][0]["resources"] = {}
    assert pod_gpu_request(spec) == 3
    assert pod_gpu_request({"containers": [{"name": "c"}]}) == 0


def test_product_totals_skip_nodes_without_gpus_and_unschedulable_ones() -> None:
    cordoned = node("c", 8, unschedulable=True)
    usage = node_gpu_usage(
        [node("a", 4), node("b", 4, product="B200"), cordoned, node("cpu", None, product="")],
        [pod("p", "a", 1)],
    )
    assert [n.schedulable for n in usage] == [True, True, False, True]
    assert [
        (p.product, p.nodes, p.allocatable, p.free, p.most_free) for p in by_product(usage)
    ] == [
        ("B200", 1, 4, 4, 4),
        ("H100", 2, 12, 3, 3),
    ]


def test_not_ready_node_is_not_schedulable_and_odd_quantities_count_zero() -> None:
    sick = node("a", "lots")
    sick["status"]["conditions"] = [{"type": "Ready", "status": "False"}]
    (usage,) = node_gpu_usage([sick], [])
    assert (usage.allocatable, usage.schedulable) == (0, False)
