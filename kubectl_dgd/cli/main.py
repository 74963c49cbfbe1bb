"""``kubectl dgd``: the click group. Commands load lazily so start-up pays only for the one used."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

import click

from kubectl_dgd import __version__
from kubectl_dgd.errors import DgdError
from kubectl_dgd.exitcodes import Exit

# name -> "module:attribute"; a module is imported only when its command runs or help lists it.
COMMANDS: dict[str, str] = {
    "validate": "kubectl_dgd.cli.validate:validate",
    "render": "kubectl_dgd.cli.render:render",
    "restart": "kubectl_dgd.cli.restart:restart",
    "status": "kubectl_dgd.cli.status:status",
    "list": "kubectl_dgd.cli.status:list_graphs",
    "rollout": "kubectl_dgd.cli.rollout:rollout",
    "diff": "kubectl_dgd.cli.diff:diff",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if _available(name))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None or not _available(cmd_name):
            return None
        module_name, attr = target.split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        return command


def _available(name: str) -> bool:
    module_name = COMMANDS[name].split(":")[0]
    return importlib.util.find_spec(module_name) is not None


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", prog_name="kubectl-dgd")
def cli() -> None:
    """Validate, render, restart and inspect NVIDIA Dynamo DynamoGraphDeployments (DGDs).

    Offline commands work on files (-f); the same commands given a NAME talk to the cluster
    of your kubeconfig, like kubectl. Exit codes: 0 ok, 1 findings/failure, 2 usage or
    input error, 3 not found, 4 API error, 130 interrupted.
    """


def main(argv: list[str] | None = None) -> Any:
    """Console-script entry point: map our errors to one line on stderr and an exit code."""
    try:
        return cli.main(args=argv, prog_name="kubectl dgd", standalone_mode=True)
    except DgdError as err:  # raised outside a command's own handling
        click.echo(f"error: {err}", err=True)
        sys.exit(int(err.exit_code))
    except KeyboardInterrupt:
        sys.exit(int(Exit.INTERRUPTED))
