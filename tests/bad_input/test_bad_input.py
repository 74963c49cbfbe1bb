"""Hostile and odd input through the console script: one error line, the documented exit code,
no traceback, and no file changed (validate only reads; restart -f must not write either)."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.paths import schema_form
from tests.bad_input.corpus import (
    GRAPH_HEAD,
    SECRET_VALUE,
    VALID_GRAPH_FILE,
    Harmless,
    Unreadable,
    harmless_cases,
    secret_cases,
    unreadable_cases,
    write_cases,
    write_wrong_types,
)
from tests.conftest import Result, run_cli

UNREADABLE = unreadable_cases()
HARMLESS = harmless_cases()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tree_hashes(root: Path) -> dict[str, str]:
    return {str(p): _sha(p) for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def _assert_no_traceback(result: Result) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Traceback" not in result.stdout, result.stdout


def _lines_naming(result: Result, path: Path | str) -> list[str]:
    name = str(path)
    return [line for line in (result.stdout + result.stderr).splitlines() if name in line]


def _assert_one_error_line(result: Result, path: Path | str, case: Unreadable) -> None:
    lines = _lines_naming(result, path)
    assert len(lines) == 1, lines
    where = re.escape(str(path)) + (f":{case.line}" if case.line is not None else "")
    assert re.match(rf"^(error: )?{where}: ", lines[0]), lines[0]
    assert case.message in lines[0], lines[0]
    assert len(lines[0]) < 300, "an error line must stay readable"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("bad-input")
    paths = write_cases(root)
    before = _tree_hashes(root)
    yield paths
    assert _tree_hashes(root) == before, "a command changed a file of the corpus"


@pytest.mark.parametrize("case", UNREADABLE, ids=lambda c: c.name)
def test_unreadable_input_is_one_line_naming_file_and_line_with_exit_2(
    corpus: dict[str, Path], case: Unreadable
) -> None:
    path = corpus[case.name]
    before = _sha(path)
    result = run_cli("validate", str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    _assert_no_traceback(result)
    _assert_one_error_line(result, path, case)
    assert _sha(path) == before


@pytest.mark.parametrize("case", UNREADABLE[:6], ids=lambda c: c.name)
def test_unreadable_input_as_json_output_names_line_and_exits_2(
    corpus: dict[str, Path], case: Unreadable
) -> None:
    result = run_cli("validate", "-o", "json", str(corpus[case.name]))
    assert result.returncode == 2
    _assert_no_traceback(result)
    errors = json.loads(result.stdout)["errors"]
    assert [(e["source"], e["line"]) for e in errors] == [(str(corpus[case.name]), case.line)]


@pytest.mark.parametrize(
    "case",
    [c for c in UNREADABLE if c.name.endswith(".yaml") and b"\x00" not in c.content][:8],
    ids=lambda c: c.name,
)
def test_unreadable_input_on_stdin_is_named_dash_with_its_line(case: Unreadable) -> None:
    try:
        text = case.content.decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not text: cannot be piped as text")
    result = run_cli("validate", "-", stdin=text)
    assert result.returncode == 2
    _assert_no_traceback(result)
    lines = [
        line
        for line in result.stderr.splitlines() + result.stdout.splitlines()
        if case.message in line
    ]
    assert len(lines) == 1, result.stdout + result.stderr
    assert re.match(rf"^(error: )?-:{case.line}: ", lines[0]), lines[0]


@pytest.mark.parametrize("case", HARMLESS, ids=lambda c: c.name)
def test_odd_but_readable_input_is_counted_without_error_lines(
    corpus: dict[str, Path], case: Harmless
) -> None:
    path = corpus[case.name]
    # Without a graph, the counts are printed with --allow-no-graph (else exit 3, one line).
    allow = ["--allow-no-graph"] if case.graphs == 0 else []
    result = run_cli("validate", *allow, "-o", "json", str(path))
    assert result.returncode == case.exit_code, result.stdout + result.stderr
    _assert_no_traceback(result)
    report = json.loads(result.stdout)
    assert report["errors"] == []
    assert report["summary"]["graphs"] == case.graphs
    assert result.stderr == ""
    if case.graphs == 0:
        bare = run_cli("validate", "-o", "json", str(path))
        assert (bare.returncode, bare.stdout) == (3, "")
        assert bare.stderr.startswith(f"error: no DynamoGraphDeployment in {path} (1 file read, ")


def test_fifty_megabyte_file_is_refused_in_one_line(tmp_path: Path) -> None:
    big = tmp_path / "fifty-mb.yaml"
    chunk = (GRAPH_HEAD + "---\n").encode()
    with big.open("wb") as fh:
        for _ in range(50 * 1024 * 1024 // len(chunk) + 1):
            fh.write(chunk)
    assert big.stat().st_size >= 50 * 1024 * 1024
    before = _sha(big)
    result = run_cli("validate", str(big))
    assert result.returncode == 2
    _assert_no_traceback(result)
    _assert_one_error_line(result, big, Unreadable(big.name, b"", None, "larger than"))
    assert _sha(big) == before


def test_fifty_megabytes_on_stdin_are_refused_in_one_line() -> None:
    result = run_cli("validate", "-", stdin="# padding\n" * (5 * 1024 * 1024 + 1))
    assert result.returncode == 2
    _assert_no_traceback(result)
    assert len(_lines_naming(result, "larger than")) == 1


def test_directory_with_unreadable_files_reports_each_and_still_validates_the_rest(
    tmp_path: Path,
) -> None:
    (tmp_path / "good.yaml").write_text(GRAPH_HEAD)
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "missing-target.yaml")
    locked = tmp_path / "locked.yaml"
    locked.write_text(GRAPH_HEAD)
    locked.chmod(0)
    can_read_locked = os.access(locked, os.R_OK)  # root reads anything
    try:
        result = run_cli("validate", "-o", "json", str(tmp_path))
    finally:
        locked.chmod(0o644)
    assert result.returncode == 2
    _assert_no_traceback(result)
    report = json.loads(result.stdout)
    reported = {e["source"]: e["message"] for e in report["errors"]}
    assert str(tmp_path / "gone.yaml") in reported
    assert "no such file" in reported[str(tmp_path / "gone.yaml")]
    if not can_read_locked:
        assert "permission denied" in reported[str(locked)]
    assert len(reported) == (1 if can_read_locked else 2)
    assert report["summary"]["graphs"] == (2 if can_read_locked else 1)


def test_whole_corpus_directory_names_each_unreadable_file_once(corpus: dict[str, Path]) -> None:
    directory = next(iter(corpus.values())).parent
    result = run_cli("validate", str(directory))
    assert result.returncode == 2
    _assert_no_traceback(result)
    for case in UNREADABLE:
        assert len(_lines_naming(result, f"{corpus[case.name]}:")) == 1, case.name


# --- wrong types at every level --------------------------------------------------------------


@pytest.fixture(scope="module")
def wrong_types(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    root = tmp_path_factory.mktemp("wrong-types")
    graph = load_file(str(VALID_GRAPH_FILE))[0].data
    return root, write_wrong_types(root, graph)


def _is_at_or_below(finding_path: str, path: str) -> bool:
    """Our bracketed path, or the API server's form of it (schema errors join map keys with a
    dot: core.paths.schema_form)."""
    return any(
        finding_path == p or finding_path.startswith((p + ".", p + "["))
        for p in (path, schema_form(path))
    )


def test_every_wrong_type_variant_is_invalid_at_the_replaced_path(
    wrong_types: tuple[Path, list[Any]],
) -> None:
    root, variants = wrong_types
    assert len(variants) > 100
    before = _tree_hashes(root)
    result = run_cli("validate", "-o", "json", str(root))
    assert result.returncode == 1, result.stderr
    _assert_no_traceback(result)
    items = {item["source"]: item for item in json.loads(result.stdout)["items"]}
    missed = []
    for variant, path in variants:
        if variant.path in ("", "apiVersion", "kind"):
            assert str(path) not in items, f"{variant.path}: not a DGD any more, must be skipped"
            continue
        item = items[str(path)]
        errors = [f for f in item["findings"] if f["severity"] == "error"]
        if item["valid"] or not any(_is_at_or_below(f["path"], variant.path) for f in errors):
            missed.append(f"{variant.path} := {json.dumps(variant.replacement)}")
    assert not missed, "wrong types not reported at their path:\n" + "\n".join(missed)
    assert _tree_hashes(root) == before


def test_wrong_type_variants_as_text_keep_one_line_per_finding(
    wrong_types: tuple[Path, list[Any]],
) -> None:
    root, _ = wrong_types
    result = run_cli("validate", str(root))
    assert result.returncode == 1
    _assert_no_traceback(result)
    for line in result.stdout.splitlines()[:-1]:
        assert re.match(r"^\S+:\d+: ", line), line


# --- restart -f must leave bad input untouched -----------------------------------------------


@pytest.fixture(scope="module")
def restart_command() -> None:
    if run_cli("restart", "--help").returncode != 0:
        pytest.skip("`kubectl-dgd restart` is not available yet")


@pytest.mark.parametrize("case", UNREADABLE, ids=lambda c: c.name)
def test_restart_refuses_unreadable_input_and_leaves_the_file_unchanged(
    restart_command: None, corpus: dict[str, Path], case: Unreadable
) -> None:
    path = corpus[case.name]
    before = _sha(path)
    result = run_cli("restart", "-f", str(path), "--id", "bad-input")
    assert result.returncode == 2, result.stdout + result.stderr
    _assert_no_traceback(result)
    if case.name.endswith(".json"):
        # The round-trip editor reads JSON as YAML, which accepts these; it still finds no graph.
        assert len(_lines_naming(result, path)) == 1, result.stderr
    else:
        _assert_one_error_line(result, path, case)
    assert _sha(path) == before


def test_restart_of_a_wrong_type_graph_changes_nothing_when_it_refuses(
    restart_command: None, wrong_types: tuple[Path, list[Any]]
) -> None:
    _, variants = wrong_types
    for variant, path in variants[:: max(1, len(variants) // 4)]:
        before = _sha(path)
        result = run_cli("restart", "-f", str(path), "--id", "bad-input")
        _assert_no_traceback(result)
        if result.returncode != 0:
            assert _sha(path) == before, variant.path


@pytest.mark.parametrize("case", secret_cases(), ids=lambda c: c.name)
@pytest.mark.parametrize("command", [["validate"], ["render"], ["restart", "-f"]])
def test_no_spelling_of_a_secret_gets_its_value_into_an_error_line(
    tmp_path: Path, case: Unreadable, command: list[str]
) -> None:
    path = tmp_path / case.name
    path.write_bytes(case.content)
    result = run_cli(*command, str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    _assert_no_traceback(result)
    if command[0] == "restart":  # it reads graphs only: a plain Secret is "no graph here"
        assert len(_lines_naming(result, path)) == 1
    else:
        _assert_one_error_line(result, path, case)
    assert SECRET_VALUE[:12] not in result.stdout + result.stderr


_NUMBER_CASES = [
    c for c in UNREADABLE if c.name in ("huge-hex-int.yaml", "huge-int.json", "bool-maybe.yaml")
]


@pytest.mark.parametrize("case", _NUMBER_CASES, ids=lambda c: c.name)
@pytest.mark.parametrize(
    "command", [["validate"], ["render"], ["status", "-f"], ["restart", "-f"]], ids=" ".join
)
def test_numbers_past_64_bits_and_bad_booleans_are_one_line_in_every_file_command(
    corpus: dict[str, Path], case: Unreadable, command: list[str]
) -> None:
    path = corpus[case.name]
    result = (
        run_cli(*command, str(path), "--id", "x")
        if command[0] == "restart"
        else run_cli(*command, str(path))
    )
    assert result.returncode == 2, result.stdout + result.stderr
    _assert_no_traceback(result)
    _assert_one_error_line(result, path, case)


def test_a_gpu_quantity_with_a_huge_exponent_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "gpu.yaml"
    path.write_text(
        GRAPH_HEAD
        + '              resources:\n                limits:\n                  nvidia.com/gpu: "9e999999"\n'
    )
    result = run_cli("status", "-f", str(path), timeout=30)  # took 46 s, then a traceback
    _assert_no_traceback(result)
    assert "'9e999999' is not a whole number of GPUs" in result.stdout + result.stderr
