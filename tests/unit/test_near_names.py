"""cobra's rule for "did you mean", shared by mistyped commands and graph names."""

from __future__ import annotations

import pytest

from kubectl_dgd.core.near_names import did_you_mean, distance, near_names


@pytest.mark.parametrize(
    ("a", "b", "edits"),
    [
        ("", "", 0),
        ("abc", "", 3),
        ("my-graph", "my-graph", 0),
        ("my-grap", "my-graph", 1),  # a deletion
        ("my-graphs", "my-graph", 1),  # an insertion
        ("my-grahp", "my-graph", 2),  # a transposition is two substitutions, as in cobra
        ("kitten", "sitting", 3),
    ],
)
def test_distance_counts_insertions_deletions_and_substitutions(a: str, b: str, edits: int) -> None:
    assert distance(a, b) == edits == distance(b, a)


def test_near_names_are_within_two_edits_in_the_order_given() -> None:
    names = ["my-graph", "other-graph", "my-grapes", "mygraph"]
    assert near_names("my-grahp", names) == ["my-graph"]
    assert near_names("my-graph-x", names) == ["my-graph"]
    assert near_names("my-grap", names) == ["my-graph", "my-grapes", "mygraph"]


def test_a_prefix_of_a_name_is_near_however_short() -> None:
    assert near_names("vllm", ["vllm-disagg-router", "sglang"]) == ["vllm-disagg-router"]


def test_case_is_ignored_in_what_was_typed_and_the_name_itself_is_not_offered() -> None:
    assert near_names("My-Graph", ["my-graph"]) == ["my-graph"]
    assert near_names("my-graph", ["my-graph", "my-graph2"]) == ["my-graph2"]


def test_nothing_near_is_an_empty_list() -> None:
    assert near_names("frontend", ["decode-worker", "prefill"]) == []
    assert near_names("x", []) == []


def test_component_names_are_compared_without_case() -> None:
    assert near_names("vllmdecodeworkr", ["Frontend", "VllmDecodeWorker"]) == ["VllmDecodeWorker"]
    assert did_you_mean("VllmDecodeWorkr", ["Frontend", "VllmDecodeWorker"]) == (
        " (did you mean VllmDecodeWorker?)"
    )
    assert did_you_mean("planner", ["Frontend", "VllmDecodeWorker"]) == ""
