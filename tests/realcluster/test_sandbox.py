"""``make sandbox`` as a user runs it: it starts, serves the README's scenarios, the README's
live examples come out of it as printed there, and Ctrl-C stops it without leaving a process.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_env, run_cli
from tests.realcluster.controlplane import find_binaries

README = ROOT / "README.md"
# The commands whose output the README's sandbox section shows, in its order.
SHOWN = (("list",), ("why", "gpu-starved"), ("why", "crashloop"), ("gpus",))


def readme_examples() -> dict[str, str]:
    """``$ kubectl dgd CMD`` blocks of the README's sandbox section: command -> output."""
    text = README.read_text()
    section = text.split("### Try it on a local cluster: the sandbox", 1)[1]
    section = re.split(r"\n##+ ", section, maxsplit=1)[0]
    blocks = re.findall(r"```\n\$ kubectl dgd (.+?)\n(.*?)```", section, re.S)
    return {cmd: out for cmd, out in blocks}


def normalized(text: str) -> list[str]:
    """What differs from run to run: ages, generated name suffixes (worker hash, ReplicaSet
    hash, pod), which of the two identical nodes the scheduler picked, and so the line order."""
    text = re.sub(r"-[0-9a-f]{8}-[0-9a-f]{8,10}-[a-z0-9]{5}\b", "-NAME", text)
    text = re.sub(r"\bgpu-node-[01]\b", "gpu-node-N", text)
    text = re.sub(r"\b\d+[smh]\b", "AGE", text)
    return sorted(re.sub(r" +", " ", line).strip() for line in text.splitlines() if line.strip())


def _start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], Path]:
    ready = tmp_path / "ready"
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "scripts" / "sandbox.py"),
            "--state",
            str(tmp_path / "state"),
            "--ready-file",
            str(ready),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "KDGD_REAL_STATE"},
    )
    end = time.monotonic() + 240
    while not ready.exists():
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        assert time.monotonic() < end, "the sandbox did not become ready"
        time.sleep(0.5)
    return proc, Path(ready.read_text())


def _stop(proc: subprocess.Popen[str], state: Path) -> str:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    left = subprocess.run(["pgrep", "-f", str(state)], capture_output=True, text=True, check=False)
    assert left.stdout == "", f"processes left running: {left.stdout}"
    return out


def _wait_for(kubeconfig: Path, args: tuple[str, ...], want: str) -> str:
    """The command's output once the scenario has settled (pods take a few seconds)."""
    env = {**cli_env(), "KUBECONFIG": str(kubeconfig), "COLUMNS": "100"}
    end = time.monotonic() + 90
    while True:
        done = run_cli(*args, env=env)
        if want in done.stdout or time.monotonic() > end:
            return done.stdout
        time.sleep(1)


def test_the_sandbox_on_the_real_control_plane_serves_the_readme_examples_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    if find_binaries() is None:
        if os.environ.get("KDGD_REQUIRE_REAL_CLUSTER") == "1":
            pytest.fail("real control plane required (KDGD_REQUIRE_REAL_CLUSTER=1)")
        pytest.skip("no real control plane: binaries not built")
    proc, kubeconfig = _start(tmp_path)
    try:
        examples = readme_examples()
        assert set(examples) == {" ".join(a) for a in SHOWN}
        settled = {
            "list": "InProgress",
            "why gpu-starved": "InsufficientGPU",
            "why crashloop": "CrashLoop",
            "gpus": "waiting:",
        }
        for args in SHOWN:
            key = " ".join(args)
            got = _wait_for(kubeconfig, args, settled[key])
            assert normalized(got) == normalized(examples[key]), f"kubectl dgd {key}:\n{got}"
        # container logs are real pods/log requests, which kwok answers from one file
        logs = run_cli("logs", "healthy", env={**cli_env(), "KUBECONFIG": str(kubeconfig)})
        assert logs.returncode == 0, logs.stderr
        lines = logs.stdout.splitlines()
        assert len(lines) == 2, lines  # the frontend's pod and the worker's
        assert all(
            line.endswith("serves this line as every container's log (no container runs here)")
            for line in lines
        ), lines
    finally:
        out = _stop(proc, tmp_path / "state")
    assert out.splitlines()[0].startswith("sandbox: real control plane")
    assert "export KUBECONFIG=" in out


def test_the_sandbox_on_the_test_api_server_says_so_and_stops_cleanly(tmp_path: Path) -> None:
    proc, kubeconfig = _start(tmp_path, "--emulated")
    try:
        done = run_cli("list", env={**cli_env(), "KUBECONFIG": str(kubeconfig)})
        assert done.returncode == 0
        assert {line.split()[0] for line in done.stdout.splitlines()[1:]} == {
            "crashloop",
            "gpu-starved",
            "healthy",
            "stuck-rollout",
        }
    finally:
        out = _stop(proc, tmp_path / "state")
    assert out.splitlines()[0].startswith("sandbox: the project's test API server")
