"""``-o jsonpath=`` / ``custom-columns=`` on the offline ``status -f`` and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

SAVED = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g1
  namespace: dynamo
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      replicas: 1
"""


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(SAVED)
    return path


def test_status_file_jsonpath_reads_the_json_view(saved: Path) -> None:
    as_json = run_cli("status", "-f", str(saved), "-o", "json")
    assert as_json.returncode == 0, as_json.stderr
    result = run_cli("status", "-f", str(saved), "-o", "jsonpath={.name}/{.namespace}")
    assert (result.returncode, result.stdout) == (0, "g1/dynamo")


def test_status_file_custom_columns(saved: Path) -> None:
    result = run_cli("status", "-f", str(saved), "-o", "custom-columns=NAME:.name,NONE:.nothing")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "NAME   NONE\ng1     <none>\n"


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        ("jsonpath={.items[", "error: error parsing jsonpath {.items[, unterminated array"),
        ("jsonpath={.a", "error: error parsing jsonpath {.a, unclosed action"),
        ("jsonpath={end}", 'error: error executing jsonpath "{end}": not in range, nothing to end'),
        ("jsonpath=", "error: template format specified but no template given"),
        (
            "jsonpath={.components[9]}",
            'error: error executing jsonpath "{.components[9]}": array index out of bounds: index 9, length',
        ),
        ("jsonpath-file=/no/such/file", "error: error reading --template /no/such/file"),
        ("custom-columns=NAME", "error: unexpected custom-columns spec: NAME, expected"),
        ("custom-columns=", "error: custom-columns format specified but no custom columns"),
        ("yaml=x", "error: Invalid value for '-o'"),
    ],
)
def test_template_errors_are_one_line_exit_2(saved: Path, fmt: str, message: str) -> None:
    result = run_cli("status", "-f", str(saved), "-o", fmt, subprocess=fmt.startswith("jsonpath="))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_render_takes_a_jsonpath(saved: Path) -> None:
    template = "{range .items[*]}{.kind}/{.metadata.name}{'\\n'}{end}"
    result = run_cli("render", "-f", str(saved), "-o", f"jsonpath={template}", subprocess=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all("/" in line for line in lines)
    assert any(line.startswith("Deployment/") or "/g1" in line for line in lines), lines


def test_output_completion_offers_templates_once_typed() -> None:
    result = run_cli("status", "-o", "js", script="kubectl_complete-dgd")
    candidates = [line.split("\t")[0] for line in result.stdout.splitlines()[:-1]]
    assert candidates == ["json", "jsonpath=", "jsonpath-file=", "jsonpath-as-json="]
