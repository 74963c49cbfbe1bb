"""``kubectl dgd status -f FILE`` through the console script, with golden files."""

from __future__ import annotations

import json

import pytest
from ruamel.yaml import YAML

from tests.conftest import EXAMPLES, assert_golden, run_cli

STATUS = EXAMPLES / "status"
EXAMPLE_NAMES = sorted(p.stem for p in STATUS.glob("*.yaml"))
CLOCK = {"DGD_NOW": "2026-11-30T10:00:00Z"}
GOLDEN_SUFFIX = {"text": "txt", "wide": "wide.txt", "json": "json"}


def status(*args: str, stdin: str | None = None, columns: int = 120):  # type: ignore[no-untyped-def]
    return run_cli("status", *args, stdin=stdin, env={**CLOCK, "COLUMNS": str(columns)})


def test_every_required_example_exists() -> None:
    required = {
        "healthy",
        "rolling-update-in-progress",
        "sequential-restart-in-progress",
        "failed",
        "grove-healthy",
    }
    assert required <= set(EXAMPLE_NAMES)


@pytest.mark.parametrize("output", ["text", "wide", "json"])
@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_status_golden(example: str, output: str) -> None:
    """At 200 columns: nothing is cut, prose wraps only past 200."""
    result = status("-f", str(STATUS / f"{example}.yaml"), "-o", output, columns=200)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert_golden(f"status/{example}.{GOLDEN_SUFFIX[output]}", result.stdout)


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_status_golden_at_80_columns(example: str) -> None:
    result = status("-f", str(STATUS / f"{example}.yaml"), columns=80)
    assert result.returncode == 0, result.stderr
    assert_golden(f"status/{example}_80.txt", result.stdout)
    too_long = [line for line in result.stdout.splitlines() if len(line) > 80]
    assert too_long == []


def test_yaml_output_is_the_same_view_as_json() -> None:
    path = str(STATUS / "rolling-update-in-progress.yaml")
    as_json = json.loads(status("-f", path, "-o", "json").stdout)
    as_yaml = YAML(typ="safe").load(status("-f", path, "-o", "yaml").stdout)
    assert as_yaml == as_json


def test_the_clock_moves_the_elapsed_time() -> None:
    path = str(STATUS / "rolling-update-in-progress.yaml")
    later = run_cli("status", "-f", path, "-o", "json", "--now", "2026-11-30T11:00:00Z")
    assert json.loads(later.stdout)["rollingUpdate"]["elapsed"] == "1h5m"


def test_saved_object_on_stdin() -> None:
    text = (STATUS / "healthy.yaml").read_text()
    result = status("-f", "-", stdin=text)
    assert result.returncode == 0, result.stderr
    assert result.stdout == status("-f", str(STATUS / "healthy.yaml")).stdout


def test_computed_gpu_figures_are_marked_with_a_footnote() -> None:
    out = status("-f", str(STATUS / "grove-healthy.yaml")).stdout
    assert "8*" in out
    assert "* computed from spec: the operator reported no GPU figures" in out


def test_reported_gpu_figures_are_not_marked() -> None:
    out = status("-f", str(STATUS / "healthy.yaml")).stdout
    assert "*" not in out


def list_of_two(tmp_path):  # type: ignore[no-untyped-def]
    yaml = YAML(typ="safe")
    items = [yaml.load((STATUS / f"{n}.yaml").read_text()) for n in ("healthy", "failed")]
    path = tmp_path / "list.yaml"
    with path.open("w") as fh:
        yaml.dump({"apiVersion": "v1", "kind": "List", "items": items}, fh)
    return path


def test_a_list_shows_every_graph(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = list_of_two(tmp_path)
    out = status("-f", str(path)).stdout
    assert "Name:         vllm-disagg" in out and "Name:         mismatch" in out
    data = json.loads(status("-f", str(path), "-o", "json").stdout)
    assert [item["name"] for item in data["items"]] == ["vllm-disagg", "mismatch"]


def test_name_picks_one_graph_of_a_list(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(status("mismatch", "-f", str(list_of_two(tmp_path)), "-o", "json").stdout)
    assert data["name"] == "mismatch"


def test_an_unknown_name_is_not_found_exit_3(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = status("ghost", "-f", str(list_of_two(tmp_path)))
    assert result.returncode == 3
    assert "no DynamoGraphDeployment named 'ghost'" in result.stderr
    assert "Traceback" not in result.stderr


def test_name_output_prints_resource_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = status("-f", str(list_of_two(tmp_path)), "-o", "name")
    assert result.stdout == (
        "dynamographdeployment.nvidia.com/vllm-disagg\ndynamographdeployment.nvidia.com/mismatch\n"
    )


def test_a_file_without_graphs_is_not_found_exit_3(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    result = status("-f", str(path))
    assert result.returncode == 3  # as validate, render and diff -f say it
    assert result.stderr.strip() == (
        f"error: no DynamoGraphDeployment in {path} (1 file read, 1 other object)"
    )


def test_a_missing_file_is_an_input_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = status("-f", str(tmp_path / "nope.yaml"))
    assert result.returncode == 2
    assert "no such file" in result.stderr


def test_a_malformed_graph_is_one_line_without_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text(
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\n"
        "spec: {components: 5}\nstatus: {state: successful}\n"
    )
    result = status("-f", str(path))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "not a readable DynamoGraphDeployment: spec.components" in result.stderr


def test_a_bad_clock_is_a_usage_error() -> None:
    result = run_cli("status", "-f", str(STATUS / "healthy.yaml"), "--now", "yesterday")
    assert result.returncode == 2
    assert "--now: not an RFC 3339 time" in result.stderr


@pytest.mark.parametrize("output", ["text", "wide", "json", "yaml"])
def test_secret_and_env_values_are_never_printed(output: str) -> None:
    out = status("-f", str(STATUS / "healthy.yaml"), "-o", output).stdout
    for secret in ("do-not-print-me", "hf-token", "HF_TOKEN", "VLLM_API_KEY"):
        assert secret not in out


def test_help_lists_the_file_option() -> None:
    result = run_cli("status", "--help")
    assert result.returncode == 0
    assert "-f, --filename" in result.stdout
    assert "--now" not in result.stdout  # the test clock stays hidden
