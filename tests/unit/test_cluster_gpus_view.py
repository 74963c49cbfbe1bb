"""The ``gpus`` view: "used by" narrowed to a scope (the rest summed as other), and its text."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.cluster_gpus import cluster_gpus
from kubectl_dgd.output.cluster_gpus import _fit
from kubectl_dgd.output.printer import Options, format_view
from tests.unit.test_node_gpus import node, pod


def _view(namespace: str | None, width: int = 80) -> Any:
    nodes = [node("a", "8"), node("b", "4", product="", unschedulable=True)]
    pods = [
        pod("p1", "a", limits="2", graph="llama"),
        pod("p2", "a", limits="1", graph="mixtral", namespace="other"),
        pod("p3", "a", limits="1", graph=None),
        pod("p4", None, limits="4", graph="llama", phase="Pending"),
        pod("p5", None, limits="4", graph="far", namespace="other", phase="Pending"),
    ]
    return cluster_gpus(nodes, pods, namespace, width)


def test_scope_names_its_graphs_and_sums_the_rest() -> None:
    row = _view("dynamo").rows[0]
    assert [(u.namespace, u.name, u.gpus) for u in row.used_by] == [("dynamo", "llama", 2)]
    assert row.other_gpus == 2  # mixtral of another namespace, and a pod of no graph
    everywhere = _view(None).rows[0]
    assert [u.name for u in everywhere.used_by] == ["llama", "mixtral"]
    assert everywhere.other_gpus == 1


def test_waiting_pods_follow_the_scope() -> None:
    assert [(u.name, u.gpus) for u in _view("dynamo").waiting] == [("llama", 4)]
    assert [(u.name, u.gpus) for u in _view(None).waiting] == [("llama", 4), ("far", 4)]


def test_totals_and_the_most_free_on_a_node_that_takes_pods() -> None:
    data = _view(None).to_data()
    assert data["total"] == {
        "nodes": 2,
        "allocatable": 12,
        "requested": 4,
        "free": 8,
        "mostFreeOnOneNode": 4,  # b has 4 free but is cordoned
    }


def test_text_and_wide() -> None:
    text = format_view(_view(None, width=200), "text")
    assert text.splitlines() == [
        "NODE   PRODUCT   ALLOCATABLE   REQUESTED   FREE   USED BY",
        "a      H100      8             4           4      dynamo/llama (2), other/mixtral (1), other (1)",
        "b      -         4             0           4",
        "2 GPU nodes: 12 allocatable, 4 requested, 8 free (most free on one node: 4)",
        "waiting: 1 pod of dynamo/llama wants 4 GPUs and no node has them",
        "waiting: 1 pod of other/far wants 4 GPUs and no node has them",
    ]
    wide = format_view(_view("dynamo"), "wide").splitlines()
    assert wide[0].split() == [
        "NODE",
        "PRODUCT",
        "ALLOCATABLE",
        "REQUESTED",
        "FREE",
        "PODS",
        "SCHEDULABLE",
        "USED",
        "BY",
    ]
    assert "no (cordoned)" in wide[2]
    assert format_view(_view("dynamo"), "text", Options(headers=False)).splitlines() == [
        "a   H100   8   4   4   llama (2), other (2)",
        "b   -      4   0   4",
    ]


def test_used_by_is_cut_to_the_width() -> None:
    entries = ["dynamo/llama (2)", "other/mixtral (1)", "other (1)"]
    assert _fit(entries, 100) == ", ".join(entries)
    assert _fit(entries, 30) == "dynamo/llama (2), +2 more"
    assert _fit(entries, 15) == "dynamo/llam… +2"  # 15 characters
    lines = format_view(_view(None, width=60), "text").splitlines()
    assert all(len(line) <= 60 for line in lines[:3])
    assert lines[1].endswith("+2")
