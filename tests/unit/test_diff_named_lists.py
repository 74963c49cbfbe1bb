"""``diff`` matches components and multinode roles by name (core/named_lists.py): a reorder is
no change, a change is reported at the item's position in the file, and a list that cannot be
keyed (a repeated or missing name) is compared by position."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.named_lists import file_path, key_by_name
from kubectl_dgd.usecases.diff import field_changes


def _graph(*components: dict[str, Any]) -> dict[str, Any]:
    return {"spec": {"components": [copy.deepcopy(c) for c in components]}}


A = {"name": "a", "replicas": 1}
B = {"name": "b", "replicas": 2}
C = {"name": "c", "replicas": 3}


def _changes(live: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    return [(c.change, c.path, c.old, c.new) for c in field_changes(live, new)]


def test_a_reorder_is_no_change() -> None:
    assert _changes(_graph(A, B, C), _graph(C, A, B)) == []


def test_a_change_is_reported_at_the_position_in_the_file() -> None:
    moved = dict(A, replicas=5)
    assert _changes(_graph(A, B, C), _graph(C, B, moved)) == [
        ("~", "spec.components[2].replicas", 1, 5)
    ]


def test_an_added_item_has_its_file_position_and_a_removed_one_its_live_position() -> None:
    changes = _changes(_graph(A, B, C), _graph(C, {"name": "d"}, A))
    assert [(kind, path) for kind, path, _, _ in changes] == [
        ("-", "spec.components[1]"),
        ("+", "spec.components[1]"),
    ]
    assert changes[0][2] == B and changes[1][3] == {"name": "d"}


def test_roles_are_matched_by_name_inside_a_component() -> None:
    leader, worker = {"name": "leader", "replicas": 1}, {"name": "worker", "replicas": 3}
    live = _graph(A, {"name": "m", "roles": [leader, worker]})
    new = _graph({"name": "m", "roles": [dict(worker, replicas=4), leader]}, A)
    assert _changes(live, new) == [("~", "spec.components[0].roles[0].replicas", 3, 4)]


def test_a_list_with_a_repeated_name_is_compared_by_position() -> None:
    live, new = _graph(A, B), _graph(B, B)
    keyed_live, keyed_new, positions = key_by_name(live, new)
    assert positions.components is None
    assert (keyed_live, keyed_new) == (live, new)
    assert ("~", "spec.components[0].name", "a", "b") in _changes(live, new)


def test_the_inputs_are_not_changed() -> None:
    live, new = _graph(A, B), _graph(B, A)
    before = copy.deepcopy((live, new))
    key_by_name(live, new)
    field_changes(live, new)
    assert (live, new) == before


def test_paths_outside_the_named_lists_stay_as_they_are() -> None:
    _, _, positions = key_by_name(_graph(A), _graph(A))
    assert file_path(["spec", "env", 0, "value"], positions) == "spec.env[0].value"
    assert file_path(["metadata", "annotations", "x/y"], positions) == "metadata.annotations[x/y]"
    assert file_path(["spec", "components", "a", "replicas"], positions) == (
        "spec.components[0].replicas"
    )


def test_a_boolean_and_a_number_differ_even_inside_a_list() -> None:
    # Python has False == 0: deepdiff's list comparison took [false] for [0]
    from kubectl_dgd.usecases.diff import field_changes

    changes = field_changes({"spec": {"x": [False, "a"]}}, {"spec": {"x": [0, "a"]}})
    assert [(c.path, c.old, c.new) for c in changes] == [("spec.x[0]", False, 0)]
    assert field_changes({"spec": {"x": {"a": True}}}, {"spec": {"x": {"a": "True"}}})
    assert field_changes({"spec": {"x": [True]}}, {"spec": {"x": [True]}}) == []
