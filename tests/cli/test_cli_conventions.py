"""kubectl's conventions for the plugin as a whole: help, usage errors, flags, interruption."""

from __future__ import annotations

import re

import click
import pytest

from kubectl_dgd.cli import main as cli_main
from tests.conftest import ROOT, run_cli

USAGE = 2


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand path, from the click tree itself."""
    ctx = click.Context(group)
    paths: list[tuple[str, ...]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        paths.append((*prefix, name))
        if isinstance(command, click.Group):
            paths += _commands(command, (*prefix, name))
    return paths


COMMANDS = _commands(cli_main.cli)


def _readme_table() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme.split("## Commands", 1)[1].split("\n## ", 1)[0]


def test_the_command_tree_is_what_the_readme_lists() -> None:
    assert {"status", "list", "restart", "diff", "rollout"} <= {p[0] for p in COMMANDS}
    assert ("rollout", "status") in COMMANDS and ("rollout", "explain") in COMMANDS
    # Both ways: the README's table lists no command the tree lacks, and no command is missing.
    table = _readme_table()
    top = {p[0] for p in COMMANDS}
    assert set(re.findall(r"`kubectl dgd ([a-z][a-z-]*)", table)) == top
    for group in sorted({p[0] for p in COMMANDS if len(p) == 2}):
        listed = set(re.findall(rf"`(?:kubectl dgd )?{group} ([a-z]+)", table))
        assert listed == {p[1] for p in COMMANDS if len(p) == 2 and p[0] == group}, group


def test_the_top_level_help_lists_every_command() -> None:
    top = run_cli("--help")
    assert top.returncode == 0
    listed = [
        line.split()[0] for line in top.stdout.split("Commands:")[1].splitlines() if line.strip()
    ]
    assert "validate" in listed
    assert sorted(listed) == sorted(p[0] for p in COMMANDS if len(p) == 1)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_has_help_with_a_kubectl_dgd_example(path: tuple[str, ...]) -> None:
    result = run_cli(*path, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Usage: kubectl dgd {' '.join(path)} "), result.stdout
    assert "Examples:" in result.stdout, f"kubectl dgd {' '.join(path)} --help has no examples"
    examples = result.stdout.split("Examples:", 1)[1]
    assert f"kubectl dgd {' '.join(path)}" in examples, examples


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_is_in_the_readme_command_table(path: tuple[str, ...]) -> None:
    # a row may name a second form after the first: `kubectl dgd rollout status NAME` / `rollout explain NAME`
    words = r"\s+".join(re.escape(word) for word in path)
    assert re.search(rf"`(kubectl dgd )?{words}\b", _readme_table()), (
        f"README.md's command table does not list `kubectl dgd {' '.join(path)}`"
    )


def test_top_level_help_has_examples_and_no_command_prints_it() -> None:
    top = run_cli("--help")
    assert "Examples:" in top.stdout and "kubectl dgd status my-graph" in top.stdout
    bare = run_cli()
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout == top.stdout
    group = run_cli("rollout")
    assert group.returncode == 0 and group.stdout.startswith("Usage: kubectl dgd rollout ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("status", "my-graph", "--bogus"), "No such option '--bogus'"),
        (("statuss",), "No such command 'statuss'"),
        (("list", "-o", "bogus"), "'bogus' is not one of"),
        (("diff",), "Missing option '-f'"),
        (("rollout", "status"), "Missing argument 'NAME'"),
        (("status", "a", "b"), "unexpected extra argument (b)"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_help_to_read(
    args: tuple[str, ...], message: str
) -> None:
    result = run_cli(*args)
    assert result.returncode == USAGE
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0]
    where = "kubectl dgd" + ("" if args[0] == "statuss" else f" {' '.join(args[:1])}")
    if args[0] == "rollout":
        where = "kubectl dgd rollout status"
    assert lines[0].endswith(f"See '{where} --help'."), lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("status", "--events"), "--events needs a graph NAME"),
        (("status", "my-graph", "-A"), "-A/--all-namespaces lists graphs"),
        (("status", "my-graph", "-l", "a=b"), "-l/--selector lists graphs"),
        # (status NAME --no-headers was refused here; issue 10 gives every table --no-headers)
        (("status", "my-graph", "--watch", "-o", "name"), "--watch cannot be used with -o name"),
        (("status", "-f", "x.yaml", "--watch"), "--watch is for live graphs"),
        (("status", "-f", "x.yaml", "-n", "prod"), "-n/--namespace is for live graphs"),
        (("status", "-f", "x.yaml", "--context", "c"), "--context is for live graphs"),
        (("restart", "my-graph", "--timeout", "5m"), "--timeout applies to --wait"),
        (("restart", "my-graph", "--name", "x"), "--name picks a graph in -f FILE"),
        (("restart", "-f", "x.yaml", "--wait"), "--wait follows a live restart"),
    ],
)
def test_a_flag_the_command_would_ignore_is_refused(args: tuple[str, ...], message: str) -> None:
    """Nothing is silently ignored: no cluster is contacted, no file is read."""
    result = run_cli(*args, env={"KUBECONFIG": "/nonexistent"})
    assert result.returncode == USAGE, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {message}"), result.stderr


def test_ctrl_c_while_a_command_loads_exits_130_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Click would print "Aborted!" and exit 1 for an interrupt outside the command itself."""

    def interrupted(self: click.Group, ctx: click.Context, name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main.LazyGroup, "get_command", interrupted)
    with pytest.raises(SystemExit) as exited:
        cli_main.main(["status", "my-graph"])
    assert exited.value.code == 130
    assert capsys.readouterr().err.strip() == ""  # at most the newline after a terminal's ^C


def test_kubectl_verbosity_flags_become_our_verbose_flag() -> None:
    assert cli_main.kubectl_args(["status", "x", "-v=6"]) == ["status", "x", "-v"]
    assert cli_main.kubectl_args(["status", "--v=10", "x"]) == ["status", "-v", "x"]
    assert cli_main.kubectl_args(["validate", "--", "-v=6"]) == ["validate", "--", "-v=6"]
    assert cli_main.kubectl_args(["status", "-vx"]) == ["status", "-vx"]


def test_boolean_flags_take_a_value_only_after_an_equals_sign_as_in_kubectl() -> None:
    from kubectl_dgd.cli.pflag import pflag_args
    from kubectl_dgd.cli.rollout import rollout

    command = rollout.commands["status"]

    def args(*given: str) -> list[str]:
        return pflag_args(command, click.Context(command), list(given))

    assert args("x", "--watch=false")[-1] == "--no-watch"
    assert args("x", "-w=False")[-1] == "--no-watch"
    assert args("x", "--watch=true")[-1] == "--watch"
    # `-w NAME`: NAME is the graph, not the flag's value
    result = run_cli("rollout", "status", "-w", "ghost", env={"KUBECONFIG": "/nonexistent"})
    assert "not a valid boolean" not in result.stderr
    assert "kubeconfig" in result.stderr  # it got as far as connecting for the graph "ghost"


def test_help_lists_only_kubectl_flag_names_for_the_connection() -> None:
    text = run_cli("status", "--help").stdout
    for flag in ("--kubeconfig", "--context", "-n, --namespace", "--request-timeout", "-A"):
        assert flag in text
    assert not re.search(r"--ns\b", text)
