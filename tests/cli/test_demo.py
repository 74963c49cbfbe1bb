"""``make demo``: the install says nothing unless it fails (no pip or setuptools banners), and
each command is shown as a user types it, ``$ kubectl dgd ...``, before its output: through
kubectl's own plugin lookup when a kubectl is at hand, else by kubectl-dgd, saying so."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BIN, ROOT, assert_installed_checkout

# What pip and setuptools print around an install, which is not the demo.
BUILD_NOISE = re.compile(
    r"setuptools|BuildBackendWarning|Editable install|^\s*!!|\*{10}|pip install"
    r"|^(Obtaining|Collecting|Requirement already|Successfully|Building|Installing build)",
    re.M,
)


def _run(*args: str, path: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path, "HOME": os.environ.get("HOME", "/tmp")}
    env.pop("MAKEFLAGS", None)
    return subprocess.run(
        list(args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _commands(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("$ ")]


def _assert_demo_output(output: str) -> None:
    commands = _commands(output)
    assert len(commands) >= 7, output
    for command in commands:
        assert command.startswith(("$ kubectl dgd ", "$ cp ")), command
    assert "kubectl-dgd" not in "\n".join(commands)
    lines = output.splitlines()
    shown = lines.index("$ kubectl dgd version --client")
    assert lines[shown + 1 : shown + 3] == ["Client Version: 0.1.0", "(exit 0)"]  # its output
    validated = lines.index("$ kubectl dgd validate manifests/examples/invalid/")
    assert lines[validated + 1].startswith("manifests/examples/invalid/common-mistakes.yaml:")
    assert not BUILD_NOISE.search(output), BUILD_NOISE.search(output)


def test_demo_runs_each_command_through_kubectl_plugin_lookup() -> None:
    assert_installed_checkout()
    if not (BIN / "kubectl").exists():
        pytest.skip("kubectl is not installed in the virtualenv (the dev extras bring it)")
    done = _run("bash", "scripts/demo.sh", str(BIN), path=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 0, done.stderr
    assert "no kubectl found" not in done.stdout
    _assert_demo_output(done.stdout)


def test_demo_without_kubectl_runs_kubectl_dgd_and_says_so(tmp_path: Path) -> None:
    """A PATH with the tools the script needs but no kubectl anywhere."""
    assert_installed_checkout()
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "cp", "mktemp", "rm", "head", "dirname", "cat", "sha256sum", "cut"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    (tools / "kubectl-dgd").symlink_to(BIN / "kubectl-dgd")
    done = _run(str(tools / "bash"), "scripts/demo.sh", str(tools), path=str(tools))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "(no kubectl found: each `kubectl dgd` below runs kubectl-dgd, which kubectl would run)"
    )
    _assert_demo_output(done.stdout)


def test_make_demo_installs_without_output_when_the_venv_is_current() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make")
    path = os.environ["PATH"]
    venv = f"VENV={BIN.parent}"  # the same target name in both calls: -q of a path the
    # Makefile has no rule for would call any existing file up to date
    if _run(make, "-q", venv, f"{BIN.parent}/.installed", path=path).returncode != 0:
        pytest.skip("the venv is older than pyproject.toml: make demo would reinstall into it")
    done = _run(make, "--no-print-directory", "demo", venv, path=path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("\n$ kubectl dgd version --client\n"), done.stdout[:300]
    _assert_demo_output(done.stdout)


def test_make_demo_shows_the_install_output_only_when_it_fails(tmp_path: Path) -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make")
    venv = tmp_path / "venv"
    done = _run(
        make,
        "--no-print-directory",
        "demo",
        f"VENV={venv}",
        "PYTHON=/nonexistent/python3",
        path=os.environ["PATH"],
    )
    assert done.returncode != 0
    assert done.stdout == f"Installing kubectl-dgd into {venv} ...\n"
    assert done.stderr.startswith(f"installing kubectl-dgd into {venv} failed (exit 2):\n")
    assert "/nonexistent/python3" in done.stderr  # the install's own words, kept for the failure
    assert "$ kubectl dgd" not in done.stdout  # no demo after a failed install
