"""Flags before the command (``kubectl-dgd -n dynamo status x``): kubectl refuses them for a
plugin; we say so in one line that shows the command line in order, exit 2, nothing sent."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

USAGE = 2


@pytest.mark.parametrize(
    ("args", "fixed"),
    [
        (("-n", "dynamo", "status", "x"), "kubectl dgd status x -n dynamo"),
        (
            ("--namespace=dynamo", "tree", "x", "-o", "json"),
            "kubectl dgd tree x -o json --namespace=dynamo",
        ),
        (("-v=6", "-n", "a b", "why", "x"), "kubectl dgd why x -v=6 -n 'a b'"),
    ],
)
def test_flags_before_the_command_name_the_command_line_in_order(
    args: tuple[str, ...], fixed: str
) -> None:
    # no kubeconfig exists: had a request been attempted, the error would be another one
    result = run_cli(*args, env={"KUBECONFIG": "/nonexistent"}, subprocess=True)
    assert (result.returncode, result.stdout) == (USAGE, "")
    assert result.stderr == f"error: flags go after the command: {fixed}\n"


def test_the_corrected_command_line_runs() -> None:
    wrong = run_cli(
        "-o", "json", "validate", "manifests/examples/sglang-disagg.yaml", subprocess=True
    )
    fixed = wrong.stderr.removeprefix("error: flags go after the command: kubectl dgd ").split()
    assert fixed == ["validate", "manifests/examples/sglang-disagg.yaml", "-o", "json"]
    assert run_cli(*fixed, subprocess=True).returncode == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bogus",), "error: No such option '--bogus'."),  # no command follows: click's line
        (("--version",), ""),
    ],
)
def test_the_groups_own_options_and_a_lone_flag_keep_their_answers(
    args: tuple[str, ...], message: str
) -> None:
    result = run_cli(*args, subprocess=True)
    assert "flags go after the command" not in result.stderr
    assert result.stderr.startswith(message)
