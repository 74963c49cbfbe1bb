"""core.graph: the one reader of a DGD (tolerant by default, strict for the views that print)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.core.graph import (
    ComponentStatus,
    GraphShapeError,
    desired_replicas,
    is_multinode,
    node_count,
    read_graph,
    replicas_default,
)
from kubectl_dgd.errors import InputError
from kubectl_dgd.exitcodes import Exit
from tests.unit.status_fixtures import saved


def entry(kind: str | None, ready: int | None, available: int | None) -> ComponentStatus:
    return ComponentStatus(kind, (), None, 1, 1, ready, available, None, None, None)


@pytest.mark.parametrize(
    ("kind", "ready", "available", "expected"),
    [
        ("PodClique", 2, None, 2),
        ("PodClique", None, 2, None),  # a PodClique has no available count of its own
        ("Deployment", 1, 3, 1),
        ("LeaderWorkerSet", 0, None, 0),
        ("PodCliqueScalingGroup", None, 1, 1),  # scaling groups report available only
        ("PodCliqueScalingGroup", 5, 1, 1),
        (None, None, 2, 2),  # no kind: ready, else available
        (None, 1, 2, 1),
    ],
)
def test_ready_replicas_are_counted_by_kind(
    kind: str | None, ready: int | None, available: int | None, expected: int | None
) -> None:
    status = entry(kind, ready, available)
    assert status.ready == expected
    assert status.ready_count == (expected or 0)


def test_node_count_and_replica_defaults() -> None:
    assert node_count({}) == 1
    assert node_count({"multinode": {}}) == 2
    assert node_count({"multinode": {"nodeCount": 4}}) == 4
    assert node_count({"multinode": {"nodeCount": "4"}}) == 2
    assert not is_multinode({"multinode": {"nodeCount": 1}})
    assert desired_replicas({}) == 1 and desired_replicas({"replicas": 0}) == 0
    assert desired_replicas({"replicas": "two"}) == 1
    assert replicas_default({"type": "worker"}) == 1 and replicas_default({"type": "lpx"}) is None


def test_a_saved_object_reads_into_its_facts() -> None:
    graph = read_graph(saved("rolling-update-in-progress"), strict=True)
    assert graph.observed_provider() == ("component", "annotation")
    assert [c.name for c in graph.workers] == ["decode", "prefill"]
    assert graph.status is not None and graph.status.rolling_update is not None
    assert graph.status.rolling_update.phase == "InProgress"
    assert graph.base_runtime_namespace == "dynamo-sglang-disagg"


@pytest.mark.parametrize(
    ("section", "edit", "message"),
    [
        (
            "spec",
            lambda o: o["spec"]["components"][0].update(replicas="two"),
            'spec.components[0].replicas: expected an integer, got "two"',
        ),
        ("spec", lambda o: o["spec"].update(components=5), "spec.components: expected a list"),
        (
            "status",
            lambda o: o["status"]["conditions"][0].update(status=True),
            "status.conditions[0].status: expected a string, got true",
        ),
        (
            "status",
            lambda o: o["status"]["components"]["decode"].update(readyReplicas=[1]),
            "status.components.decode.readyReplicas: expected an integer, got a list",
        ),
        (
            "spec",
            lambda o: o["spec"].update(restart={"id": "r", "strategy": {"type": "Random"}}),
            'spec.restart.strategy.type: expected "Sequential" or "Parallel", got "Random"',
        ),
    ],
)
def test_a_strict_read_names_the_first_field_of_the_wrong_type(
    section: str, edit: Any, message: str
) -> None:
    obj = saved("rolling-update-in-progress")
    edit(obj)
    with pytest.raises(GraphShapeError) as caught:
        read_graph(obj, strict=True, source="graph.yaml")
    assert isinstance(caught.value, InputError) and caught.value.exit_code == Exit.USAGE
    assert str(caught.value).startswith("graph.yaml: not a readable DynamoGraphDeployment: ")
    assert message in str(caught.value)
    read_graph(obj)  # the tolerant read takes the same object


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=4),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=200)
@given(
    path=st.sampled_from(
        [
            ("metadata",),
            ("spec", "components"),
            ("spec", "restart"),
            ("status",),
            ("status", "components"),
            ("status", "conditions"),
            ("status", "rollingUpdate"),
            ("status", "restart"),
        ]
    ),
    value=json_values,
)
def test_the_tolerant_read_takes_any_shape(path: tuple[str, ...], value: object) -> None:
    obj = saved("healthy")
    node = obj
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    graph = read_graph(obj)
    assert graph.name == ("vllm-disagg" if path != ("metadata",) else "")
    if path != ("spec", "components"):
        assert len(graph.components) == len(read_graph(saved("healthy")).components) > 0


def test_a_type_that_is_not_a_string_is_no_worker() -> None:
    # hypothesis found {"type": []}: a list is unhashable, and the frozenset lookup raised
    from kubectl_dgd.core.graph.raw import is_worker

    assert not is_worker({"type": []}) and not is_worker({"type": {"a": 1}})
    assert is_worker({"type": "decode"})
