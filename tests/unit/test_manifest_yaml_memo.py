"""The emitter remembers how it wrote each key and one-line string (output/manifest_yaml.py):
what it writes must not depend on what it has written before, nor on the memo's bound."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.output import manifest_yaml
from tests.unit.test_yaml_emitter_properties import KEYS, TREES


def _cold(documents: list[Any]) -> str:
    manifest_yaml._KEYS.clear()
    manifest_yaml._STRINGS.clear()
    return manifest_yaml.dump_stream(documents)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(KEYS, TREES, min_size=1, max_size=4), min_size=1, max_size=3))
def test_a_warm_memo_writes_the_same_bytes_as_a_cold_one(docs: list[dict[str, Any]]) -> None:
    cold = _cold(docs)
    assert manifest_yaml.dump_stream(docs) == cold  # every text now remembered
    assert manifest_yaml.dump_stream(list(reversed(docs))) == _cold(list(reversed(docs)))


def test_past_the_bound_the_rest_is_computed_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    docs = [{f"key-{i}": f"value {i}", "on": "yes", "multi": "a\nb\n", i: None} for i in range(40)]
    expected = _cold(docs)
    monkeypatch.setattr(manifest_yaml, "_MEMO_LIMIT", 5)
    assert _cold(docs) == expected
    assert len(manifest_yaml._KEYS) == 5
    assert len(manifest_yaml._STRINGS) == 5


def test_a_remembered_text_is_still_quoted_where_yaml_1_1_needs_it() -> None:
    first = _cold([{"a": "on", "b": "plain"}])
    again = manifest_yaml.dump_stream([{"a": "on", "b": "plain"}])
    assert first == again == '---\na: "on"\nb: plain\n'
