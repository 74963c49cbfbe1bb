"""Fuzzing the manifest reader and the plugin's parameter parsing (bounded: FUZZ_EXAMPLES).

The promises under test: the reader either returns documents or raises InputError (one line,
never another exception), and never quotes text of a document that is or may be a Secret;
``read_settings`` either returns Settings or raises UsageError, whatever JSON Argo CD sends.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters.yamlload import load_text, parse_manifest
from kubectl_dgd.argocd.settings import PARAMETERS, read_settings
from kubectl_dgd.errors import InputError, UsageError

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SECRET = "Pa55w0rdXYZ"

# YAML's syntax characters, words with meaning in 1.1, tags and escapes: pieces of hostile text.
_PIECES = [
    "\n", "  ", "- ", ": ", "? ", "---\n", "...\n", "{", "}", "[", "]", ",", "#", "&a ", "*a",
    "<<: ", "!!int ", "!!bool ", "!!binary ", "!!str ", "!!float ", "!custom ", '"', "'", "\\x53",
    "\\u0053", "|\n", ">\n", "\t", "yes", "on", "n", "0x", "0o", "1e9", "9" * 30, "~", "null",
    "kind", "Secret", "ConfigMap", "List", "items", "data", SECRET, "%YAML 1.1\n", "\ufeff",
]  # fmt: skip
yaml_text = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


@FUZZ
@given(yaml_text)
def test_the_reader_returns_documents_or_one_line_input_error(text: str) -> None:
    try:
        load_text(text, "f.yaml")
    except InputError as err:
        assert "\n" not in str(err)


@FUZZ
@given(yaml_text, st.sampled_from(["'Secret'", '"\\x53ecret"', "!!binary U2VjcmV0", "Secret"]))
def test_a_secret_document_never_has_its_text_in_an_error(body: str, kind: str) -> None:
    text = f"apiVersion: v1\nkind: {kind}\ndata:\n  p: !!int {SECRET}{body}\n"
    try:
        load_text(text, "s.yaml")
    except InputError as err:
        assert SECRET not in str(err)


@FUZZ
@given(yaml_text)
def test_json_files_return_documents_or_one_line_input_error(text: str) -> None:
    try:
        parse_manifest(text, "f.json")
    except InputError as err:
        assert "\n" not in str(err)


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
entries = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from([p.name for p in PARAMETERS] + ["x", 5])},
        optional={"string": json_values, "array": json_values, "map": json_values},
    ),
    max_size=4,
)


@FUZZ
@given(st.one_of(entries, json_values))
def test_parameters_of_any_shape_give_settings_or_one_line_usage_error(parameters: Any) -> None:
    env = {"ARGOCD_APP_PARAMETERS": json.dumps(parameters)}
    try:
        found = read_settings(env)
    except UsageError as err:
        assert "\n" not in str(err)
        return
    assert found.restart_id is None or isinstance(found.restart_id, str)
