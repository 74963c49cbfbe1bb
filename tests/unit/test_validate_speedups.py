"""The validate pipeline's speed-ups change no result: the CEL outcome memo and the JSON-shaped
deep copy of ``apply_defaults`` (issue 13)."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.validate import cel

LIST_RULE = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "x-kubernetes-validations": [
                    {
                        "rule": "self.a < 3",
                        "messageExpression": "'a is ' + string(self.a)",
                    }
                ],
            },
        }
    },
}


def test_a_memoised_outcome_is_reported_at_each_place_it_applies() -> None:
    obj = {"items": [{"a": 5}, {"a": 1}, {"a": 5}, {"a": 7}]}
    first = [(f.path, f.message) for f in cel.check(obj, None, LIST_RULE)]
    again = [(f.path, f.message) for f in cel.check(copy.deepcopy(obj), None, LIST_RULE)]
    expected = [
        ("items[0]", "Invalid value: a is 5"),
        ("items[2]", "Invalid value: a is 5"),
        ("items[3]", "Invalid value: a is 7"),
    ]
    assert first == again == expected


def test_inputs_equal_in_python_but_not_in_cel_are_not_confused() -> None:
    # 1 == 1.0 == True in Python; CEL tells int, double and bool apart, and so must the memo.
    schema: dict[str, Any] = {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "type(self.v) == int"}],
    }
    verdicts = [bool(cel.check({"v": value}, None, schema)) for value in (1, 1.0, True, 1)]
    assert verdicts == [False, True, True, False]


def test_the_defaults_copy_is_deep_and_keeps_sharing_as_deepcopy_does() -> None:
    shared: dict[str, Any] = {"a": [1, {"b": "c"}]}
    obj: dict[str, Any] = {"x": shared, "y": [shared, 2.5, None, True], 3: "int key"}
    copied = deep_copy(obj)
    assert copied == obj == copy.deepcopy(obj)
    assert copied["x"] is copied["y"][0] and copied["x"] is not shared
    assert copied["x"]["a"][1] is not shared["a"][1]
    loop: list[Any] = []
    loop.append(loop)
    copied_loop = deep_copy(loop)
    assert copied_loop[0] is copied_loop and copied_loop is not loop
