"""``-o jsonpath-file=`` and ``-o custom-columns-file=``: the file is read once, when the flags are
read (a stream such as ``/dev/stdin`` or ``<(...)`` has nothing left for a second read), and
bounded and refused as a manifest is: a device or FIFO is not read, a file over the manifest
limit is refused, each as one ``error:`` line with exit 2 and nothing on stdout."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kubectl_dgd.adapters.yamlload import MAX_FILE_BYTES
from tests.conftest import BIN, cli_env, run_cli

SAVED = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: {name: g1, namespace: dynamo}
spec:
  backendFramework: vllm
  components: [{name: Frontend, type: frontend, replicas: 1}]
"""


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "g.yaml"
    path.write_text(SAVED)
    return path


def _shell(command: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = cli_env({"PATH": f"{BIN}{os.pathsep}/usr/bin:/bin"})
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_template_on_standard_input_is_read_once(saved: Path) -> None:
    result = _shell(
        "kubectl-dgd status -f g.yaml -o jsonpath-file=/dev/stdin",
        saved.parent,
        stdin="{.metadata.name}",
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "g1", "")


def test_a_process_substitution_is_read_once(saved: Path) -> None:
    columns = "<(printf 'NAME KIND\\n.metadata.name .kind\\n')"
    result = _shell(f"kubectl-dgd status -f g.yaml -o custom-columns-file={columns}", saved.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["NAME", "KIND", "g1", "DynamoGraphDeployment"]


@pytest.mark.parametrize("fmt", ["jsonpath-file", "custom-columns-file", "go-template-file"])
def test_a_device_is_refused_not_read(saved: Path, fmt: str) -> None:
    result = run_cli("status", "-f", str(saved), "-o", f"{fmt}=/dev/zero", timeout=30)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "/dev/zero, " in result.stderr and "not a regular file" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_fifo_is_refused_without_waiting_for_a_writer(saved: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "template.fifo"
    os.mkfifo(fifo)
    result = run_cli("status", "-f", str(saved), "-o", f"jsonpath-file={fifo}", timeout=30)
    assert result.returncode == 2
    assert "not a regular file (a FIFO, socket or device)" in result.stderr


def test_a_template_over_the_manifest_limit_is_refused(saved: Path, tmp_path: Path) -> None:
    huge = tmp_path / "huge.jsonpath"
    with huge.open("wb") as fh:  # sparse: no disk is used
        fh.truncate(MAX_FILE_BYTES + 1)
    result = run_cli("status", "-f", str(saved), "-o", f"jsonpath-file={huge}", timeout=60)
    assert result.returncode == 2
    assert f"larger than the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit" in result.stderr


def test_a_missing_template_file_says_so_before_reading_the_manifest(tmp_path: Path) -> None:
    result = run_cli("status", "-f", "absent.yaml", "-o", "jsonpath-file=none", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: error reading --template none, ")
    assert "absent.yaml" not in result.stderr


def test_dash_is_a_file_named_dash_as_for_kubectl(saved: Path) -> None:
    (saved.parent / "-").write_text("{.kind}")
    result = run_cli("status", "-f", "g.yaml", "-o", "jsonpath-file=-", cwd=saved.parent)
    assert (result.returncode, result.stdout) == (0, "DynamoGraphDeployment")
