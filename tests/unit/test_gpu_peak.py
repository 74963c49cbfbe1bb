"""The GPUs a change needs at its peak, by the operator's rolling-update arithmetic, and the
check against the nodes' free GPUs (each pod on one node)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_dgd.core.gpu_peak import (
    PeakNeed,
    peak_needs,
    restart_needs,
    rolling_peak,
    scaled,
    shortfalls,
    surge_and_unavailable,
)
from kubectl_dgd.core.impact import ComponentImpact
from kubectl_dgd.core.node_gpus import NodeGpus


def comp(
    name: str, type_: str = "decode", replicas: int = 1, gpus: int = 1, **annotations: str
) -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": "img:1"}
    if gpus:
        main["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    template: dict[str, Any] = {"spec": {"containers": [main]}}
    if annotations:
        template["metadata"] = {"annotations": annotations}
    return {"name": name, "type": type_, "replicas": replicas, "podTemplate": template}


def graph(*components: dict[str, Any]) -> dict[str, Any]:
    return {"metadata": {"name": "g"}, "spec": {"components": list(components)}}


def impact(name: str, kind: str) -> ComponentImpact:
    return ComponentImpact(name, "decode", kind, "")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "desired", "up", "expected"),
    [("25%", 1, True, 1), ("25%", 1, False, 0), ("25%", 8, False, 2), ("2", 8, True, 2)],
)
def test_percentages_round_as_intstr_does(
    value: str, desired: int, up: bool, expected: int
) -> None:
    assert scaled(value, desired, up, "25%") == expected


def test_both_zero_means_surge_one() -> None:
    annotations = {
        "nvidia.com/deployment-rolling-update-max-surge": "0",
        "nvidia.com/deployment-rolling-update-max-unavailable": "0",
    }
    assert surge_and_unavailable(comp("d", **annotations), 4) == (1, 0)


def test_one_replica_with_the_defaults_peaks_at_old_plus_new() -> None:
    assert rolling_peak(1, 1, 2, 2, surge=1, unavailable=0) == 4


def test_surge_zero_unavailable_one_needs_nothing_more_at_the_same_size() -> None:
    assert rolling_peak(3, 3, 2, 2, surge=0, unavailable=1) == 6
    assert rolling_peak(3, 3, 2, 4, surge=0, unavailable=1) == 12  # the end state is larger


def test_four_replicas_surge_one_while_one_drains() -> None:
    # step 1: old 4 -> 3, new 0 -> 1: 4 pods side by side, no more than now
    assert rolling_peak(4, 4, 1, 1, surge=1, unavailable=1) == 4


def test_managed_rolling_update_of_a_gpu_worker_needs_the_new_generation() -> None:
    live = graph(comp("decode", replicas=2, gpus=2))
    new = graph(comp("decode", replicas=2, gpus=2))
    (need,) = peak_needs(live, new, [impact("decode", "managed-rolling-update")])
    assert (need.component, need.extra_gpus, need.pod_gpus, need.pods) == ("decode", 2, 2, 1)
    assert need.what == "the managed rolling update"


def test_recreate_needs_only_what_the_new_generation_adds() -> None:
    strategy = {"nvidia.com/deployment-strategy": "Recreate"}
    live = graph(comp("decode", replicas=2, gpus=1))
    new = graph(comp("decode", replicas=2, gpus=2, **strategy))
    (need,) = peak_needs(live, new, [impact("decode", "managed-rolling-update")])
    assert need.extra_gpus == 2


def test_scale_up_and_new_graph_and_cpu_only_components() -> None:
    live = graph(comp("decode", replicas=1, gpus=2), comp("Frontend", "frontend", gpus=0))
    new = graph(comp("decode", replicas=3, gpus=2), comp("Frontend", "frontend", 4, gpus=0))
    needs = peak_needs(live, new, [impact("decode", "scale"), impact("Frontend", "scale")])
    assert [(n.component, n.extra_gpus, n.what) for n in needs] == [("decode", 4, "the scale-up")]
    created = peak_needs(None, new, [impact("decode", "created"), impact("Frontend", "created")])
    assert [(n.component, n.extra_gpus, n.what) for n in created] == [
        ("decode", 6, "the new graph")
    ]


def test_rejected_or_unchanged_needs_nothing() -> None:
    live = graph(comp("decode", gpus=2))
    assert peak_needs(live, live, [impact("decode", "rejected")]) == []
    assert peak_needs(live, live, [impact("decode", "none")]) == []


def test_restart_surges_unless_superseded_or_grove() -> None:
    g = graph(comp("decode", replicas=1, gpus=4), comp("prefill", "prefill", 1, gpus=2))
    rows = [impact("decode", "restart"), impact("prefill", "restart")]
    needs = peak_needs(g, g, rows)
    assert [(n.component, n.extra_gpus, n.alone) for n in needs] == [
        ("decode", 4, True),
        ("prefill", 2, True),
    ]
    assert all(not n.alone for n in peak_needs(g, g, rows, restart_parallel=True))
    assert peak_needs(g, g, rows, grove=True) == []
    assert [n.component for n in restart_needs(g, parallel=False)] == ["decode", "prefill"]


def node(name: str, free: int, schedulable: bool = True) -> NodeGpus:
    return NodeGpus(name, "H100", free, 0, schedulable)


def test_pods_are_placed_each_on_one_node() -> None:
    need = PeakNeed("decode", "the managed rolling update", 4, 4)
    (short,) = shortfalls([need], [node("a", 2), node("b", 2)])
    assert (short.free, short.most_on_one_node, short.stalls) == (4, 2, True)
    assert short.message() == (
        "warning: decode: the managed rolling update needs 4 more nvidia.com/gpu at its peak "
        "(1 new pod of 4 GPUs); the cluster has 4 free (at most 2 on one node): new pods will "
        "stay Pending and the managed rolling update will stall"
    )
    assert shortfalls([need], [node("a", 4)]) == []


def test_concurrent_needs_share_the_free_gpus_sequential_restarts_do_not() -> None:
    a = PeakNeed("decode", "x", 2, 1)
    b = PeakNeed("prefill", "x", 2, 2)
    (short,) = shortfalls([a, b], [node("n", 3)])
    assert (short.need.component, short.stalls) == ("decode", False)
    assert short.message().endswith(
        "not enough beside the other components' new pods: they wait in turn"
    )
    ra, rb = PeakNeed("decode", "r", 2, 1, alone=True), PeakNeed("prefill", "r", 2, 2, alone=True)
    assert shortfalls([ra, rb], [node("n", 2)]) == []


def test_cordoned_nodes_hold_nothing_new() -> None:
    need = PeakNeed("decode", "x", 1, 1)
    assert len(shortfalls([need], [node("a", 8, schedulable=False)])) == 1


def _pooled(name: str, free: int, pool: str) -> NodeGpus:
    return NodeGpus(name, "H100", free, 0, labels={"pool": pool})


def test_a_need_counts_only_the_nodes_its_selector_allows() -> None:
    spec = {"nodeSelector": {"pool": "llm"}}
    need = PeakNeed("decode", "the managed rolling update", 4, 4, pod_spec=spec)
    nodes = [_pooled("ours", 2, "llm"), _pooled("theirs", 8, "batch")]
    (short,) = shortfalls([need], nodes)
    assert (short.free, short.most_on_one_node, short.stalls) == (2, 2, True)
    assert (
        "; the nodes its nodeSelector and affinity allow have 2 free (at most 2 on one node)"
        in (short.message())
    )
    assert shortfalls([PeakNeed("decode", "x", 4, 4)], nodes) == []  # no selector: "theirs"


def test_a_need_ignores_taints_which_admission_may_still_tolerate() -> None:
    # ExtendedResourceToleration adds the nvidia.com/gpu toleration to the pods, not the template
    tainted = NodeGpus(
        "gpu", "H100", 8, 0, taints=[{"key": "nvidia.com/gpu", "effect": "NoSchedule"}]
    )
    assert shortfalls([PeakNeed("decode", "x", 4, 4)], [tainted]) == []


def test_concurrent_needs_place_the_most_constrained_first() -> None:
    a = PeakNeed("decode", "x", 4, 4, pod_spec={"nodeSelector": {"pool": "llm"}})
    b = PeakNeed("prefill", "x", 4, 4)
    nodes = [_pooled("ours", 4, "llm"), _pooled("theirs", 4, "batch")]
    # prefill could take "ours" (the first of the most free) and leave decode nothing
    assert shortfalls([b, a], nodes) == []
    (short,) = shortfalls([b, a, PeakNeed("planner", "x", 4, 4)], nodes)
    assert (short.need.component, short.stalls) == ("planner", False)
