"""cli/main.py's command table: ``kubectl dgd --help`` lists its summaries without importing the
commands' modules, so each summary must say what the command's own help says."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import click
import pytest

from kubectl_dgd.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]


def _command(name: str) -> click.Command:
    module_name, attr = cli_main.COMMANDS[name][0].split(":")
    command = getattr(importlib.import_module(module_name), attr)
    assert isinstance(command, click.Command)
    return command


@pytest.mark.parametrize("name", sorted(cli_main.COMMANDS))
def test_each_summary_is_the_commands_own_short_help(name: str) -> None:
    """For any width: click shortens the command's help to its first sentence and then to the
    room left; the table's summary must come out the same."""
    command = _command(name)
    assert not command.hidden and not command.deprecated  # the listing does not handle them
    summary = cli_main.COMMANDS[name][1]
    expected = command.get_short_help_str(10_000)
    assert summary == expected, f'COMMANDS["{name}"] summary should be: {expected!r}'
    for limit in (10, 30, 45, 60, 80, 120):
        listed = click.Command(name, help=summary).get_short_help_str(limit)
        assert listed == command.get_short_help_str(limit), limit


def test_help_lists_what_click_would_list_from_the_commands() -> None:
    """The group's help equals click's own listing, which imports every command for it."""

    class Eager(click.Group):  # click's listing over the real commands
        def list_commands(self, ctx: click.Context) -> list[str]:
            return sorted(cli_main.COMMANDS)

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            return _command(cmd_name) if cmd_name in cli_main.COMMANDS else None

    eager = Eager(
        name=cli_main.cli.name,
        params=cli_main.cli.params,
        help=cli_main.cli.help,
        context_settings=cli_main.cli.context_settings,
    )
    settings = cli_main.cli.context_settings  # -h, and the width cap, as the real run has them
    for width in (40, 80, 100, 200):
        ours = click.Context(
            cli_main.cli, info_name="kubectl dgd", terminal_width=width, **settings
        )
        theirs = click.Context(eager, info_name="kubectl dgd", terminal_width=width, **settings)
        text = cli_main.cli.get_help(ours)
        assert text == eager.get_help(theirs), width
        assert "-h, --help" in text and "Commands:" in text


def test_help_imports_no_command_module() -> None:
    code = (
        "import sys, io, contextlib\n"
        "sys.argv = ['kubectl-dgd', '--help']\n"
        "from kubectl_dgd.cli.main import main, COMMANDS\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try: main()\n"
        "    except SystemExit: pass\n"
        "mods = {t.split(':')[0] for t, _ in COMMANDS.values()}\n"
        "print(sorted(m for m in mods if m in sys.modules))\n"
        "print('Commands:' in out.getvalue())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )
    assert proc.stdout.split("\n")[:2] == ["[]", "True"], proc.stderr
