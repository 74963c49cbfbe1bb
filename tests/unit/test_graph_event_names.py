"""Which objects' Events are a graph's, by the names the operator gives its children
(core/graph_events.py): the component path, Grove, the longest component first, and a
neighbouring graph whose name starts like this one's."""

from __future__ import annotations

import pytest

from kubectl_dgd.core.graph_events import GraphNames, event_types, names_to_settle

GRAPH = {
    "kind": "DynamoGraphDeployment",
    "metadata": {"name": "my-graph", "uid": "g-1"},
    "spec": {"components": [{"name": "decode"}, {"name": "decode-b"}, {"name": "Frontend"}]},
    "status": {"components": {"planner": {}}},
}


@pytest.mark.parametrize(
    ("kind", "name", "component"),
    [
        ("DynamoGraphDeployment", "my-graph", ""),
        ("DynamoComponentDeployment", "my-graph-decode-ca2380e0", "decode"),
        ("Pod", "my-graph-decode-ca2380e0-678ed698f8-0", "decode"),
        ("Pod", "my-graph-decode-b-11aa22bb-678ed698f8-0", "decode-b"),
        ("Deployment", "my-graph-frontend", "Frontend"),
        ("Pod", "my-graph-0-decode-x7k2p", "decode"),  # Grove: <pcs>-<replica>-<clique>
        ("PodClique", "my-graph-0-frontend", "Frontend"),
        ("Pod", "my-graph-planner-5d6f7-0", "planner"),  # gone from the spec, still in status
        ("Pod", "my-graph-b-frontend-5d6f7-0", None),  # the graph my-graph-b's
        ("Pod", "other-decode-1", None),
        ("DynamoGraphDeployment", "my-graph-b", None),
    ],
)
def test_a_child_is_known_by_its_name(kind: str, name: str, component: str | None) -> None:
    assert GraphNames.of(GRAPH).component_of({"kind": kind, "name": name}) == component


def test_an_object_of_the_tree_is_known_by_its_uid_whatever_its_name() -> None:
    tree = [{"metadata": {"uid": "u-7", "labels": {"nvidia.com/dynamo-component": "decode"}}}]
    names = GraphNames.of(GRAPH, tree)
    assert names.component_of({"kind": "StatefulSet", "name": "odd", "uid": "u-7"}) == "decode"
    assert names.component_of({"kind": "StatefulSet", "name": "odd", "uid": "u-8"}) is None


def test_types_as_kubectl_events_takes_them() -> None:
    assert event_types("warning,Normal") == {"Warning", "Normal"}
    assert event_types(None) is None
    with pytest.raises(ValueError, match="valid --types are Normal or Warning"):
        event_types("Warning,Error")


NEIGHBOURS = [
    {"metadata": {"name": n}, "spec": {"components": [{"name": c}]}}
    for n, c in (("my-graph", "decode"), ("my-graph-decode", "worker"), ("my-graph-b", "x"))
]


@pytest.mark.parametrize(
    ("name", "component"),
    [
        # the graph my-graph-decode's worker, not my-graph's decode: its name says so
        ("my-graph-decode-worker-7d9f8c6b5-x2k4p", None),
        ("my-graph-decode-worker", None),  # its DCD
        # my-graph's own decode still is, old generation and pods included
        ("my-graph-decode-ca2380e0-678ed698f8-0", "decode"),
        ("my-graph-decode-b-11aa22bb-678ed698f8-0", "decode-b"),
    ],
)
def test_a_gone_object_named_like_a_neighbour_graphs_child_is_the_neighbours(
    name: str, component: str | None
) -> None:
    graph = {**GRAPH, "spec": {"components": [{"name": "decode"}, {"name": "decode-b"}]}}
    names = GraphNames.of(graph, (), NEIGHBOURS)
    assert names.component_of({"kind": "Pod", "name": name}) == component


def test_an_object_of_the_tree_stays_the_graphs_whatever_the_neighbours() -> None:
    tree = [{"metadata": {"uid": "u-7", "labels": {"nvidia.com/dynamo-component": "decode"}}}]
    names = GraphNames.of(GRAPH, tree, NEIGHBOURS)
    live = {"kind": "Pod", "name": "my-graph-decode-ca2380e0-678ed698f8-0", "uid": "u-7"}
    assert names.component_of(live) == "decode"


def test_the_graph_names_are_asked_for_only_when_a_gone_object_is_named_like_a_child() -> None:
    tree = [{"metadata": {"uid": "u-7"}}]
    live = {"involvedObject": {"kind": "Pod", "name": "my-graph-decode-1", "uid": "u-7"}}
    gone = {"involvedObject": {"kind": "Pod", "name": "my-graph-decode-2", "uid": "u-9"}}
    other = {"involvedObject": {"kind": "Pod", "name": "other-decode-1", "uid": "u-10"}}
    itself = {"involvedObject": {"kind": "DynamoGraphDeployment", "name": "my-graph"}}
    assert not names_to_settle(GRAPH, [live, other, itself], tree)
    assert names_to_settle(GRAPH, [live, gone], tree)
