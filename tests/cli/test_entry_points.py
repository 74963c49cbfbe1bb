"""The real entry points: each console script and ``python -m kubectl_dgd`` answer as the in-process
runs that the other tests use (same stdout, stderr and exit code), on this checkout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.apiserver.fixtures import kubectl_env, sample_dgd
from tests.apiserver.server import ApiServer
from tests.conftest import EXAMPLES, ROOT, checkout_env, run_cli, run_script

GRAPH = str(sorted(EXAMPLES.glob("*.yaml"))[0])

CASES = [
    ("kubectl-dgd", ("validate", GRAPH)),  # a command that succeeds
    ("kubectl-dgd", ("--help",)),  # help wraps at COLUMNS in both
    ("kubectl-dgd", ("status", "--nope")),  # a usage error: one line, exit 2
    ("kubectl-dgd", ("render", str(ROOT / "no-such-file.yaml"))),  # an input error
    ("kubectl_complete-dgd", ("st",)),
    ("dgd-argocd", ("render",)),  # argparse's usage error, exit 2
]


@pytest.mark.parametrize(("script", "args"), CASES, ids=[" ".join(c[1])[:40] for c in CASES])
def test_console_script_answers_as_the_in_process_run(script: str, args: tuple[str, ...]) -> None:
    real = run_script(*args, script=script)
    assert run_cli(*args, script=script) == real
    assert "Traceback" not in real.stderr


def test_python_m_runs_the_checkout_on_the_path(tmp_path: Path) -> None:
    """`python -m kubectl_dgd` with this checkout first on PYTHONPATH (no install needed)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import kubectl_dgd; print(kubectl_dgd.__file__)"],
        capture_output=True,
        text=True,
        env=checkout_env(),
        cwd=tmp_path,
        check=True,
    )
    assert Path(probe.stdout.strip()).is_relative_to(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "kubectl_dgd", "validate", GRAPH],
        capture_output=True,
        text=True,
        env=checkout_env(),
        cwd=tmp_path,
        check=False,
    )
    in_process = run_cli("validate", GRAPH, cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        in_process.returncode,
        in_process.stdout,
        in_process.stderr,
    )


def test_an_in_process_run_that_outlives_its_timeout_is_stopped(apiserver: ApiServer) -> None:
    """run_cli's timeout holds in-process too (SIGALRM), and the process is left as it was."""
    apiserver.seed(sample_dgd("my-graph"))
    before = (dict(os.environ), os.getcwd(), signal.getsignal(signal.SIGINT), sys.argv)
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_cli("status", "my-graph", "--watch", env=kubectl_env(apiserver), timeout=1)
    assert time.monotonic() - started < 10
    assert (dict(os.environ), os.getcwd(), signal.getsignal(signal.SIGINT), sys.argv) == before
    assert run_cli("--version").returncode == 0  # the next run works
