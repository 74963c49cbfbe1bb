"""Everything we print as YAML reads back unchanged by a YAML 1.1 reader (kubectl, Argo CD)
and by a YAML 1.2 reader (ruamel)."""

from __future__ import annotations

import io
from typing import Any

import yaml as pyyaml  # YAML 1.1 rules, as Go's yaml.v2 which kubectl and Argo CD use
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from kubectl_dgd.output.serialize import to_yaml, to_yaml_stream

TRICKY = st.sampled_from(
    [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "~",
        "null",
        "true",
        "0777",
        "1e3",
        "0x1F",
        "1_000",
        "12:30",
        "2026-11-30",
        "- a",
        "a: b",
        "#x",
        "x #y",
        "*a",
        "&a",
        "!tag",
        "|",
        ">",
        "'q'",
        '"q"',
        "",
        " lead",
        "trail ",
        "a\nb",
        "a\nb\n",
        "\tx",
        "%x",
        "@x",
        "`x",
        "{a}",
        "[a]",
        ".inf",
        "-.inf",
        ".nan",
        "+1",
        "-0",
        "0.",
        ".5",
        "é",
        "\u2028",
        "line\n\n",
    ]
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**62), max_value=2**62),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    TRICKY,
)
KEYS = st.one_of(st.text(min_size=1, max_size=12), TRICKY.filter(bool))
TREES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(KEYS, children, max_size=4)
    ),
    max_leaves=25,
)


def _ruamel_load(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, TREES, max_size=5))
def test_yaml_output_reads_back_identically_with_yaml_1_1_and_1_2(data: dict[str, Any]) -> None:
    text = to_yaml(data)
    assert pyyaml.safe_load(text) == data
    assert _ruamel_load(text) == data


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(KEYS, TREES, min_size=1, max_size=4), min_size=1, max_size=3))
def test_stream_output_reads_back_as_the_same_documents(docs: list[dict[str, Any]]) -> None:
    text = to_yaml_stream([(["Source: x/y"], d) for d in docs])
    assert list(pyyaml.safe_load_all(text)) == docs
