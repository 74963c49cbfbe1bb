"""kubectl's spellings through the console script (in-process): a mistyped command suggests the
nearest one, ``--dry-run[=none|client|server]`` on ``restart -f``, verbosity levels."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kubectl_dgd.cli import main as cli_main
from tests.conftest import EXAMPLES, run_cli

USAGE = 2


@pytest.mark.parametrize(
    ("args", "suggestion", "where"),
    [
        (("stauts",), "Did you mean 'status'?", "kubectl dgd"),
        (("lst",), "Did you mean 'list'?", "kubectl dgd"),
        (("validat", "x.yaml"), "Did you mean 'validate'?", "kubectl dgd"),
        (("va",), "Did you mean 'validate'?", "kubectl dgd"),  # a prefix
        (("rollout", "explian", "x"), "Did you mean 'explain'?", "kubectl dgd rollout"),
    ],
)
def test_a_mistyped_command_suggests_the_nearest(
    args: tuple[str, ...], suggestion: str, where: str
) -> None:
    result = run_cli(*args)
    assert result.returncode == USAGE
    assert result.stderr == (
        f"error: No such command {args[-2] if where.endswith('rollout') else args[0]!r}. "
        f"{suggestion} See '{where} --help'.\n"
    )


def test_nothing_close_means_no_suggestion() -> None:
    result = run_cli("zzzzzz")
    assert result.returncode == USAGE
    assert result.stderr == "error: No such command 'zzzzzz'. See 'kubectl dgd --help'.\n"


def test_verbosity_spellings_are_normalised_before_parsing() -> None:
    args = cli_main.kubectl_args
    assert args(["status", "-v", "6", "x"]) == ["status", "-v", "x"]
    assert args(["status", "--v", "3"]) == ["status", "-v"]
    assert args(["status", "-v6"]) == ["status", "-v"]
    assert args(["status", "-v=0", "x"]) == ["status", "x"]
    assert args(["status", "-v", "x"]) == ["status", "-v", "x"]  # x is the graph, not a level
    assert args(["restart", "x", "--dry-run"]) == ["restart", "x", "--dry-run=client"]
    assert args(["restart", "--", "--dry-run"]) == ["restart", "--", "--dry-run"]


def copy_example(tmp_path: Path) -> Path:
    target = tmp_path / "graph.yaml"
    shutil.copy(EXAMPLES / "vllm-agg.yaml", target)
    return target


@pytest.mark.parametrize("flag", ["--dry-run", "--dry-run=client"])
def test_restart_file_client_dry_run_writes_nothing(tmp_path: Path, flag: str) -> None:
    target = copy_example(tmp_path)
    before = target.read_text()
    result = run_cli("restart", "-f", "graph.yaml", "--id", "a", flag, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "+    id: a" in result.stdout  # the unified diff
    assert target.read_text() == before


def test_restart_file_dry_run_none_edits(tmp_path: Path) -> None:
    target = copy_example(tmp_path)
    result = run_cli("restart", "-f", "graph.yaml", "--id", "a", "--dry-run=none", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "id: a" in target.read_text()


def test_restart_file_server_dry_run_is_a_usage_error(tmp_path: Path) -> None:
    target = copy_example(tmp_path)
    before = target.read_text()
    result = run_cli("restart", "-f", "graph.yaml", "--dry-run=server", cwd=tmp_path)
    assert result.returncode == USAGE
    assert result.stderr == (
        "error: --dry-run=server needs a live graph (NAME); with -f use --dry-run\n"
    )
    assert target.read_text() == before


def test_an_unknown_dry_run_value_is_refused() -> None:
    result = run_cli("restart", "x", "--dry-run=maybe")
    assert result.returncode == USAGE
    assert "'maybe' is not one of 'none', 'client', 'server'" in result.stderr
