"""The event-built documents (``adapters.yamlevents``) equal the node path's, input by input.

The fast path handles plain manifests and gives up on anything else; either way the reader's
result (documents, lines, ends, or the error with its line) must be the node path's. Each test
compares the two paths; the first ones also prove that the fast path really runs on plain
manifests, so the comparison is not between the node path and itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters import yamlevents, yamlfallback, yamlload
from kubectl_dgd.errors import InputError
from tests.bad_input.corpus import (
    FLOW_COLON_CASES,
    harmless_cases,
    unreadable_cases,
    yaml_semantics_cases,
)

ROOT = Path(__file__).resolve().parents[2]
STREAM = "\n---\n".join(
    (ROOT / "manifests" / "examples" / name).read_text()
    for name in ("vllm-agg.yaml", "sglang-disagg.yaml", "lpx.yaml")
    if (ROOT / "manifests" / "examples" / name).exists()
)


def _outcome(documents_of: object, text: str) -> object:
    """The documents (as repr: NaN equals NaN, and key order counts) or the error and line."""
    try:
        return [repr(doc) for doc in documents_of(text, "f.yaml")]  # type: ignore[operator]
    except InputError as err:
        return ("error", str(err), err.line)


def _node_path(text: str, source: str) -> list[yamlload.Document]:
    """The node path alone, with the pure-Python parser where the C one refuses what kubectl
    reads (as ``iter_text`` does)."""
    try:
        return list(yamlload._node_documents(text, source))
    except yamlfallback.RefusedOnlyByC:
        return list(yamlload._node_documents(text, source, 0, yamlload._pure_loader_class()))


def _both(text: str) -> None:
    assert _outcome(yamlload.load_text, text) == _outcome(_node_path, text)


def _fast(text: str) -> list[yamlevents.Built]:
    loader = yamlload._loader_class()
    return list(yamlevents.documents(text, loader, yamlload._fast_resolver()))


def _manifest_files() -> list[Path]:
    files = sorted((ROOT / "manifests").rglob("*.yaml")) + sorted(
        (ROOT / "tests" / "fixtures").rglob("*.yaml")
    )
    return [f for f in files if f.stat().st_size < 1_000_000]


def test_plain_manifests_take_the_fast_path_and_match_the_node_path() -> None:
    fast = _fast(STREAM)
    nodes = _node_path(STREAM, "f.yaml")
    assert len(fast) == len(nodes) >= 1
    for (data, lines, line, end), doc in zip(fast, nodes, strict=True):
        assert repr(data) == repr(doc.data)
        assert lines == doc.lines
        assert (line, end) == (doc.line, doc.end)


def test_every_shipped_manifest_and_fixture_reads_the_same_on_both_paths() -> None:
    fast_ran = 0
    for path in _manifest_files():
        text = path.read_text()
        _both(text)
        try:
            _fast(text)
            fast_ran += 1
        except yamlevents.Unusual:
            pass
    assert fast_ran > 10  # most shipped files are plain manifests


@pytest.mark.parametrize(
    "text",
    [
        "a: &x {b: 1}\nc: *x\n",
        "a: !!str 1\n",
        "<<: {a: 1}\nb: 2\n",
        "a: 1\na: 2\n",
        "1: one\n",
        "? [a]\n: b\n",
        "%YAML 1.1\n---\na: 1\n",
        "a: " + "[" * 150 + "]" * 150 + "\n",
        "a: [1, 2\n",
        "a: 99999999999999999999999999\n",
    ],
    ids=["alias", "tag", "merge", "duplicate", "int-key", "complex-key", "directive", "deep",
         "malformed", "big-int"],
)  # fmt: skip
def test_what_needs_the_node_path_makes_the_fast_path_give_up(text: str) -> None:
    with pytest.raises(yamlevents.Unusual):
        _fast(text)
    _both(text)


def test_a_fault_after_plain_documents_is_the_node_paths_fault() -> None:
    plain = "---\na: 1\n" * 3
    for tail in ("---\nb: &x 1\nc: *x\n", "---\na: 1\na: 2\n", "---\na: [\n", "---\n<<: {z: 1}\n"):
        _both(plain + tail)
        assert _outcome(yamlload.load_text, plain + tail) != _outcome(yamlload.load_text, plain)


def test_the_bad_input_corpus_reads_the_same_on_both_paths() -> None:
    for case in unreadable_cases():
        _both(case.content.decode("utf-8", "replace"))
    for harmless in harmless_cases():
        _both(harmless.content.decode("utf-8", "replace"))
    for _, value in yaml_semantics_cases():
        _both(f"v: {value}\nw:\n  - {value}\n")


_PIECES = [
    "\n", "  ", "- ", ": ", "? ", "---\n", "...\n", "{", "}", "[", "]", ",", "#", "&a ", "*a",
    "<<: ", "!!int ", "!!str ", "!x ", '"', "'", "|\n", ">\n", "\t", "yes", "on", "0x", "0o",
    "1e9", "~", "null", "kind", "a", "b", "a.b", "1", "-1", "x: ", "k: v\n", "%YAML 1.1\n",
    "\\x53", "é", "\u0085", "\x7f",
]  # fmt: skip


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_any_text_reads_the_same_on_both_paths(text: str) -> None:
    _both(text)


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.sampled_from(["yes", "0644", "1_0", "~", "<<", "a.b", "x/y", "2001-12-14", ".inf"]),
)
_data = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(_data, min_size=1, max_size=3), st.booleans())
def test_dumped_data_reads_the_same_on_both_paths(documents: list[object], flow: bool) -> None:
    """Structured input (block or flow style, every scalar style a dumper picks): mostly the
    fast path's ground."""
    yaml = pytest.importorskip("yaml")
    _both(yaml.safe_dump_all(documents, default_flow_style=flow, allow_unicode=True))


def test_a_colon_inside_a_flow_scalar_is_read_on_by_the_pure_parser_fast_path_included() -> None:
    """The C parser refuses these; the pure-Python parser's events build them (the fast path),
    equal to its node path, and documents before the refused one come from the C parser."""
    pure = yamlload._pure_loader_class()
    for _, value in FLOW_COLON_CASES:
        text = f"a: 1\n---\nv: {value}\nw:\n  - x\n"
        with pytest.raises(yamlevents.Unusual):
            _fast(text)
        built = list(yamlevents.documents(text, pure, yamlload._fast_resolver()))
        nodes = list(yamlload._node_documents(text, "f.yaml", 0, pure))
        assert [(d, lines, line, end) for d, lines, line, end in built] == [
            (doc.data, doc.lines, doc.line, doc.end) for doc in nodes
        ]
        _both(text)
        read = yamlload.load_text(text, "f.yaml")
        assert [doc.line for doc in read] == [1, 3]
        assert read[1].lines["w[0]"] == 5


def test_the_two_parsers_share_one_resolver() -> None:
    c, pure = yamlload._loader_class(), yamlload._pure_loader_class()
    assert c.yaml_implicit_resolvers == pure.yaml_implicit_resolvers


def test_pyyamls_c_parser_reads_what_it_reads_as_the_pure_parser_does() -> None:
    """PyYAML's C parser reads on after ruamel's C parser only where it agrees with the
    pure-Python one (go-yaml's flow rules); ``[a:]`` (which it refuses) and a ``?`` in the text
    (which it would scan differently) go to the pure-Python parser."""
    pyyaml, pure = yamlload._pyyaml_loader_class(), yamlload._pure_loader_class()
    assert pyyaml is not None  # PyYAML with libyaml is a dependency
    read_by_pyyaml = 0
    for _, value in yaml_semantics_cases():
        text = f"v: {value}\nw:\n  - {value}\n"
        try:
            built = list(yamlevents.documents(text, pyyaml, yamlload._fast_resolver()))
        except yamlevents.Unusual:
            continue
        read_by_pyyaml += 1
        nodes = list(yamlload._node_documents(text, "f.yaml", 0, pure))
        assert [repr(b) for b in built] == [
            repr((d.data, d.lines, d.line, d.end)) for d in nodes
        ], value
    assert read_by_pyyaml > 30
    with pytest.raises(yamlevents.Unusual):
        list(yamlevents.documents("v: [a:, b:]\n", pyyaml, yamlload._fast_resolver()))
    assert [p for p, _ in yamlload._parsers("v: [a?b, c:d]\n")] == [
        yamlload._loader_class(),
        pure,
    ]
