"""Shared test helpers: run the console script, compare golden files."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "manifests" / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
BIN = Path(sys.executable).parent


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def run_cli(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | str | None = None,
    script: str = "kubectl-dgd",
    timeout: float = 120,
) -> Result:
    """Run an installed console script as a user would (fixed width, no colour)."""
    full_env = {
        k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_", "PARAM_", "KUBECONFIG"))
    }
    full_env.update({"NO_COLOR": "1", "COLUMNS": "120", "TZ": "UTC"})
    if env:
        full_env.update(env)
    proc = subprocess.run(  # noqa: PLW1510 - callers assert on the return code
        [str(BIN / script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


def assert_golden(name: str, actual: str) -> None:
    """Compare with tests/golden/NAME; UPDATE_GOLDEN=1 re-records (`make golden`)."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        return
    assert path.exists(), f"golden file {path} missing: run `make golden`"
    assert actual == path.read_text(), (
        f"output differs from {path}; re-record with `make golden` and read the diff"
    )


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


from tests.apiserver.fixtures import apiserver, operator_sim  # noqa: E402, F401  (live-cluster tests)
