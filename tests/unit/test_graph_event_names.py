"""Which objects' Events are a graph's, by the names the operator gives its children
(core/graph_events.py): the component path, Grove, the longest component first, and a
neighbouring graph whose name starts like this one's."""

from __future__ import annotations

import pytest

from kubectl_dgd.core.graph_events import GraphNames, event_types

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
