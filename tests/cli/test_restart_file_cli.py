"""`kubectl dgd restart -f FILE`: the GitOps restart, through the console script."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, assert_golden, run_cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "restart"
CREATE_WARNING = (
    "spec.restart must be unset on create; set spec.restart.id after creation to request a restart"
)


def copy(tmp_path: Path, source: Path, name: str = "graph.yaml") -> Path:
    target = tmp_path / name
    shutil.copyfile(source, target)
    return target


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    target = copy(tmp_path, EXAMPLES / "vllm-agg.yaml")
    before = target.read_bytes()
    result = run_cli("restart", "-f", "graph.yaml", "--id", "fix-1", "--dry-run", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert target.read_bytes() == before
    assert_golden("restart/vllm-agg-dry-run.txt", result.stdout)


def test_restart_writes_the_file_and_reports_old_and_new_id(tmp_path: Path) -> None:
    target = copy(tmp_path, FIXTURES / "commented-two-graphs.yaml")
    result = run_cli(
        "restart",
        "-f",
        "graph.yaml",
        "--name",
        "beta",
        "--order",
        "frontend,worker",
        "--id",
        "r2",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert_golden("restart/two-graphs-beta-order.txt", result.stdout)
    assert_golden("restart/two-graphs-beta-order.yaml", target.read_text())


def test_default_id_is_the_current_utc_time(tmp_path: Path) -> None:
    copy(tmp_path, EXAMPLES / "vllm-agg.yaml")
    result = run_cli("restart", "-f", "graph.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"restart id \(none\) -> \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n", result.stdout)
    assert re.search(
        r'\n    id: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n', (tmp_path / "graph.yaml").read_text()
    )


def test_a_graph_that_may_be_new_gets_the_create_warning(tmp_path: Path) -> None:
    copy(tmp_path, EXAMPLES / "vllm-agg.yaml")
    result = run_cli("restart", "-f", "graph.yaml", "--id", "a", "--dry-run", cwd=tmp_path)
    assert CREATE_WARNING in result.stderr
    assert CREATE_WARNING not in result.stdout


def test_a_saved_live_object_gets_no_create_warning(tmp_path: Path) -> None:
    copy(tmp_path, FIXTURES / "commented-two-graphs.yaml")
    result = run_cli(
        "restart", "-f", "graph.yaml", "--name", "beta", "--id", "a", "--dry-run", cwd=tmp_path
    )
    assert result.returncode == 0
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (
            ["--parallel", "--order", "frontend,worker"],
            "cannot be specified when strategy is parallel",
        ),
        (["--order", "worker"], "must have the same number of unique components as the deployment"),
        (
            ["--order", "frontend,ghost"],
            'Unsupported value: "ghost": supported values: "frontend", "worker"',
        ),
        (["--order", "frontend,worker,worker"], "must be unique"),
    ],
)
def test_refusals_exit_1_with_the_operators_reason_and_leave_the_file(
    tmp_path: Path, args: list[str], reason: str
) -> None:
    target = copy(tmp_path, FIXTURES / "commented-two-graphs.yaml")
    before = target.read_bytes()
    result = run_cli("restart", "-f", "graph.yaml", "--name", "alpha", *args, cwd=tmp_path)
    assert result.returncode == 1
    assert reason in result.stderr
    assert "the file is unchanged" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert target.read_bytes() == before


def test_an_lpx_graph_needs_parallel(tmp_path: Path) -> None:
    target = copy(tmp_path, FIXTURES / "lpx-graph.yaml")
    before = target.read_bytes()
    refused = run_cli("restart", "-f", "graph.yaml", cwd=tmp_path)
    assert refused.returncode == 1
    assert "must be Parallel when the graph contains LPX components" in refused.stderr
    assert target.read_bytes() == before
    accepted = run_cli("restart", "-f", "graph.yaml", "--parallel", "--id", "p1", cwd=tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert "strategy: Parallel" in accepted.stdout


def test_several_graphs_without_name_are_refused_naming_them(tmp_path: Path) -> None:
    target = copy(tmp_path, FIXTURES / "commented-two-graphs.yaml")
    before = target.read_bytes()
    result = run_cli("restart", "-f", "graph.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert (
        result.stderr
        == "error: graph.yaml: 2 DynamoGraphDeployments (alpha, beta); choose one with --name\n"
    )
    assert target.read_bytes() == before


def test_an_unknown_name_is_not_found_exit_3(tmp_path: Path) -> None:
    copy(tmp_path, FIXTURES / "commented-two-graphs.yaml")
    result = run_cli("restart", "-f", "graph.yaml", "--name", "gamma", cwd=tmp_path)
    assert result.returncode == 3
    assert "no DynamoGraphDeployment named 'gamma' (found: alpha, beta)" in result.stderr


def test_malformed_yaml_is_one_line_exit_2_file_untouched(tmp_path: Path) -> None:
    target = tmp_path / "graph.yaml"
    target.write_text("spec: [unclosed\n")
    result = run_cli("restart", "-f", "graph.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert target.read_text() == "spec: [unclosed\n"


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    result = run_cli("restart", "-f", "nope.yaml", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "error: nope.yaml: no such file\n")


def test_name_and_file_together_are_a_usage_error(tmp_path: Path) -> None:
    copy(tmp_path, EXAMPLES / "vllm-agg.yaml")
    result = run_cli("restart", "vllm-agg", "-f", "graph.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert "not both" in result.stderr


def test_help_shows_the_examples() -> None:
    result = run_cli("restart", "--help")
    assert result.returncode == 0
    assert "kubectl dgd restart -f graph.yaml --order" in result.stdout


def test_malformed_json_file_is_refused_with_its_line_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    path.write_text('{\n  "kind": }\n')
    before = path.read_bytes()
    result = run_cli("restart", "-f", str(path), "--parallel")
    assert result.returncode == 2
    assert result.stderr.strip().endswith("malformed JSON: Expecting value")
    assert f"{path}:2:" in result.stderr
    assert path.read_bytes() == before
