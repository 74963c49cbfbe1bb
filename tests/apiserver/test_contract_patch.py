"""The patch formats as the API server applies them: RFC 7386 merge patch, RFC 6902 JSON patch
(the RFCs' own examples), and label selector syntax."""

from __future__ import annotations

from typing import Any

import pytest

from tests.apiserver.errors import ApiError
from tests.apiserver.patch import BadPatch, PatchError, json_patch, merge_patch
from tests.apiserver.selectors import field_matcher, label_matcher


@pytest.mark.parametrize(
    ("target", "patch", "expected"),
    [  # RFC 7386 appendix A
        ({"a": "b"}, {"a": "c"}, {"a": "c"}),
        ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
        ({"a": "b"}, {"a": None}, {}),
        ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
        ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
        ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
        ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
        ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
        (["a", "b"], ["c", "d"], ["c", "d"]),
        ({"a": "b"}, ["c"], ["c"]),
        ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
        ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
        ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
    ],
)
def test_merge_patch_follows_rfc_7386(target: Any, patch: Any, expected: Any) -> None:
    assert merge_patch(target, patch) == expected


def test_merge_patch_does_not_mutate_its_input() -> None:
    target = {"a": {"b": 1}}
    merge_patch(target, {"a": {"b": 2}})
    assert target == {"a": {"b": 1}}


@pytest.mark.parametrize(
    ("target", "operations", "expected"),
    [  # RFC 6902 appendix A
        (
            {"foo": "bar"},
            [{"op": "add", "path": "/baz", "value": "qux"}],
            {"baz": "qux", "foo": "bar"},
        ),
        (
            {"foo": ["bar", "baz"]},
            [{"op": "add", "path": "/foo/1", "value": "qux"}],
            {"foo": ["bar", "qux", "baz"]},
        ),
        ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
        (
            {"foo": ["bar", "qux", "baz"]},
            [{"op": "remove", "path": "/foo/1"}],
            {"foo": ["bar", "baz"]},
        ),
        (
            {"baz": "qux", "foo": "bar"},
            [{"op": "replace", "path": "/baz", "value": "boo"}],
            {"baz": "boo", "foo": "bar"},
        ),
        (
            {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
            [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
            {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
        ),
        (
            {"foo": ["all", "grass", "cows", "eat"]},
            [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
            {"foo": ["all", "cows", "eat", "grass"]},
        ),
        (
            {"foo": "bar"},
            [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
            {"foo": "bar", "child": {"grandchild": {}}},
        ),
        (
            {"foo": ["bar"]},
            [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
            {"foo": ["bar", ["abc", "def"]]},
        ),
        (
            {"/": 1, "~": 2},
            [{"op": "replace", "path": "/~1", "value": 3}, {"op": "remove", "path": "/~0"}],
            {"/": 3},
        ),
        ({"a": [1]}, [{"op": "copy", "from": "/a", "path": "/b"}], {"a": [1], "b": [1]}),
        (
            {"baz": "qux", "foo": ["a", 2, "c"]},
            [
                {"op": "test", "path": "/baz", "value": "qux"},
                {"op": "test", "path": "/foo/1", "value": 2},
            ],
            {"baz": "qux", "foo": ["a", 2, "c"]},
        ),
    ],
)
def test_json_patch_follows_rfc_6902(target: Any, operations: Any, expected: Any) -> None:
    assert json_patch(target, operations) == expected


@pytest.mark.parametrize(
    ("target", "operations"),
    [
        ({"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}]),
        ({"a": 1}, [{"op": "test", "path": "/a", "value": True}]),  # 1 is not true in JSON
        ({"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}]),
        ({"foo": "bar"}, [{"op": "remove", "path": "/nope"}]),
        ({"foo": "bar"}, [{"op": "replace", "path": "/nope", "value": 1}]),
        ({"foo": [1]}, [{"op": "add", "path": "/foo/5", "value": 1}]),
        ({"foo": [1]}, [{"op": "remove", "path": "/foo/01"}]),
    ],
)
def test_json_patch_that_cannot_apply_is_a_patch_error(target: Any, operations: Any) -> None:
    with pytest.raises(PatchError):
        json_patch(target, operations)


def test_json_patch_is_all_or_nothing() -> None:
    target = {"a": 1}
    with pytest.raises(PatchError):
        json_patch(
            target,
            [{"op": "add", "path": "/b", "value": 2}, {"op": "test", "path": "/a", "value": 0}],
        )
    assert target == {"a": 1}


@pytest.mark.parametrize(
    "operations", [{"op": "add"}, [{"path": "/a"}], [{"op": "frobnicate", "path": "/a"}]]
)
def test_malformed_json_patch_is_a_bad_patch(operations: Any) -> None:
    with pytest.raises(BadPatch):
        json_patch({}, operations)


@pytest.mark.parametrize(
    ("selector", "labels", "matches"),
    [
        ("", {}, True),
        ("a=b", {"a": "b"}, True),
        ("a = b", {"a": "b"}, True),
        ("a=b", {}, False),
        ("a!=b", {}, True),
        ("a in (b, c)", {"a": "c"}, True),
        ("a notin (b,c)", {}, True),
        ("a,b", {"a": "1"}, False),
        ("!a", {"b": "1"}, True),
        ("app.kubernetes.io/name=x", {"app.kubernetes.io/name": "x"}, True),
    ],
)
def test_label_selector_syntax(selector: str, labels: dict[str, str], matches: bool) -> None:
    assert label_matcher(selector)(labels) is matches


@pytest.mark.parametrize("selector", ["a=(b", "in (x)", "a==b==c"])
def test_unparsable_label_selector_is_400(selector: str) -> None:
    with pytest.raises(ApiError) as caught:
        label_matcher(selector)
    assert caught.value.code == 400


def test_field_selector_on_nested_event_fields() -> None:
    event = {"involvedObject": {"kind": "DynamoGraphDeployment", "name": "g"}, "type": "Normal"}
    supported = ("involvedObject.kind", "involvedObject.name", "type")
    assert field_matcher("involvedObject.name=g,type!=Warning", supported)(event)
    assert not field_matcher("involvedObject.name=h", supported)(event)
