"""`kubectl dgd <TAB>`: kubectl runs kubectl_complete-dgd and reads Cobra's __complete answer."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import BIN, assert_installed_checkout, run_cli


def _complete(*words: str) -> tuple[list[str], str]:
    result = run_cli(*words, script="kubectl_complete-dgd")
    assert result.returncode == 0, result.stderr
    *candidates, directive = result.stdout.splitlines()
    return [c.split("\t")[0] for c in candidates], directive


def test_command_names_complete_without_file_completion() -> None:
    candidates, directive = _complete("st")
    assert candidates == ["status"]
    assert directive == ":4"


def test_flags_and_choices_complete_from_the_command_tree() -> None:
    assert "--output" in _complete("status", "--out")[0]
    assert _complete("status", "-o", "")[0] == ["text", "wide", "json", "yaml", "name"]
    assert sorted(_complete("rollout", "")[0]) == ["explain", "status"]


def test_path_arguments_leave_completion_to_the_shell() -> None:
    assert _complete("validate", "") == ([], ":0")


def test_real_kubectl_delegates_plugin_completion_to_us() -> None:
    assert_installed_checkout()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    proc = subprocess.run(
        [str(BIN / "kubectl"), "__complete", "dgd", "rest"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].split("\t")[0] == "restart"
