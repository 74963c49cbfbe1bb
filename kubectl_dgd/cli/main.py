"""``kubectl dgd``: the click group. Commands load lazily so start-up pays only for the one used."""

from __future__ import annotations

import sys

from kubectl_dgd.startup import gcpolicy

try:  # a Ctrl-C while the modules load is still an interruption, not a traceback
    import contextlib
    import errno
    import importlib
    import importlib.util
    import io
    import os
    import re
    import signal
    from typing import TYPE_CHECKING, Any

    import click

    from kubectl_dgd import __version__
    from kubectl_dgd.errors import DgdError
    from kubectl_dgd.exitcodes import Exit
except KeyboardInterrupt:  # pragma: no cover - timing dependent
    sys.exit(130)

if TYPE_CHECKING:
    from kubectl_dgd.cli.deps import Deps

# name -> ("module:attribute", one-line summary). A module is imported only when its command
# runs or its own help is asked for; the group's help lists the summaries from here. A new
# command is one line; tests/cli/test_command_table.py checks each summary against the
# command's own help (its first sentence, as click shortens it).
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": (
        "kubectl_dgd.cli.validate:validate",
        "Check DGD manifests as the API server and the Dynamo operator would admit them.",
    ),
    "convert": (
        "kubectl_dgd.cli.convert:convert",
        "Rewrite the nvidia.com/v1alpha1 graphs of FILE as nvidia.com/v1beta1.",
    ),
    "render": (
        "kubectl_dgd.cli.render:render",
        "Preview the children the operator will create from each graph, offline.",
    ),
    "restart": (
        "kubectl_dgd.cli.restart:restart",
        "Request a restart: set spec.restart.id (and the strategy) of a graph.",
    ),
    "status": (
        "kubectl_dgd.cli.status:status",
        "Show a graph's state, components, GPUs, restart and rolling update.",
    ),
    "list": (
        "kubectl_dgd.cli.status:list_graphs",
        "List graphs: one LIST, a row per graph (same as status without NAME).",
    ),
    "rollout": (
        "kubectl_dgd.cli.rollout:rollout",
        "Follow or explain a graph's rollout (managed rolling update, restart, readiness).",
    ),
    "diff": (
        "kubectl_dgd.cli.diff:diff",
        "Compare local graphs with the live ones (same name and namespace) and predict the impact.",
    ),
    "tree": (
        "kubectl_dgd.cli.tree:tree",
        "Show the objects below a graph: components, DynamoComponentDeployments, Deployments "
        "or LeaderWorkerSets, ReplicaSets and pods (component path), or PodCliqueSet, scaling "
        "groups, PodCliques and pods (Grove), with each pod's node, GPUs, restarts and, when "
        "unhealthy, why.",
    ),
    "why": (
        "kubectl_dgd.cli.why:why",
        "Say why a graph is not Ready: root cause first, one finding per problem, each naming "
        "the component, the objects and what to do.",
    ),
    "events": (
        "kubectl_dgd.cli.events:events",
        "Show the Events of a graph and of every object the operator built below it (its "
        "DynamoComponentDeployments, Deployments, ReplicaSets, Grove objects and pods), newest "
        "last; repeats of one Event are one row with their count.",
    ),
    "logs": (
        "kubectl_dgd.cli.logs:logs",
        "Print the logs of a graph's pods (the main container; all components, or COMPONENT), "
        "each line prefixed with its pod.",
    ),
    "gpus": (
        "kubectl_dgd.cli.gpus:gpus",
        "Show every node that offers nvidia.com/gpu or MIG slices (a row per profile): its GPU "
        "product, memory, allocatable, requested and free GPUs, and the graphs whose pods hold "
        "them.",
    ),
    "history": (
        "kubectl_dgd.cli.history:history",
        "List a graph's previous specs, from what the cluster keeps, oldest first.",
    ),
    "undo": (
        "kubectl_dgd.cli.undo:undo",
        "Write a previous spec of the graph back, as kubectl rollout undo does for a Deployment.",
    ),
    "abort": (
        "kubectl_dgd.cli.abort:abort",
        "Stop a managed rolling update by writing the previous worker templates back.",
    ),
    "upgrade-check": (
        "kubectl_dgd.cli.upgrade_check:upgrade_check",
        "Say what upgrading the Dynamo operator to a release does to each graph.",
    ),
    "doctor": (
        "kubectl_dgd.cli.doctor:doctor",
        "Check that the cluster is ready for Dynamo graphs, as Dynamo's pre-deployment check does.",
    ),
    "version": (
        "kubectl_dgd.cli.version:version",
        "Print the versions of the plugin, the API server and the Dynamo operator.",
    ),
    "completion": (
        "kubectl_dgd.cli.completion:completion",
        "Print the completion script of SHELL, for running kubectl-dgd directly.",
    ),
}


class SuggestingGroup(click.Group):
    """A group that answers a mistyped command with the nearest ones, as kubectl (cobra) does."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            from kubectl_dgd.core.near_names import near_names

            close = near_names(name, self.list_commands(ctx))
            message = f"No such command {name!r}."  # click's wording, which scripts may match
            if close:
                message += f" Did you mean {' or '.join(repr(c) for c in close)}?"
            raise click.UsageError(message, ctx)
        cmd_name, command, rest = super().resolve_command(ctx, args)
        if command is not None:  # kubectl's flag syntax for the command's own flags
            from kubectl_dgd.cli.pflag import pflag_args

            where = click.Context(command, info_name=cmd_name, parent=ctx)  # for its errors
            rest = pflag_args(command, where, rest)
        return cmd_name, command, rest


class LazyGroup(SuggestingGroup):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if _available(name))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS or not _available(cmd_name):
            return None
        module_name, attr = COMMANDS[cmd_name][0].split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        gcpolicy.running()
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, from the table's summaries instead of each command's module."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)  # as click's
        rows = [
            (name, click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit))
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _available(name: str) -> bool:
    module_name = COMMANDS[name][0].split(":")[0]
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

    \b
    Examples:
      kubectl dgd validate manifests/
      kubectl dgd status my-graph -n dynamo
      kubectl dgd list -A
      kubectl dgd restart my-graph --parallel --wait
      kubectl dgd diff -f graph.yaml
    """


# kubectl's verbosity flag takes a level (-v=6, --v=8, -v 6, -v6); ours is on or off, so a
# level above 0 is "on" and level 0 (kubectl's default) is dropped. Plain -v stays "on".
_KUBECTL_VERBOSITY = re.compile(r"(?:--?v=|-v)([0-9]+)")
_LEVEL = re.compile(r"([0-9]+)")
_VERBOSITY_FLAGS = ("-v", "--v")


def kubectl_args(argv: list[str]) -> list[str]:
    """Accept kubectl's ``-v=N``, ``--v=N``, ``-v N`` and ``-vN`` spellings (up to a ``--``).
    ``-v N`` takes N as the level, as kubectl does (its -v always has one). The other flags
    get kubectl's syntax per command, from their declarations (cli/pflag.py)."""
    out: list[str] = []
    position = 0
    while position < len(argv):
        arg = argv[position]
        position += 1
        if arg == "--":
            return out + argv[position - 1 :]
        level = _KUBECTL_VERBOSITY.fullmatch(arg)
        if arg in _VERBOSITY_FLAGS and position < len(argv):
            level = _LEVEL.fullmatch(argv[position])
            position += 1 if level else 0
        if level:
            if int(level.group(1)) > 0:
                out.append("-v")
        elif arg == "--v":
            out.append("-v")
        elif arg == "--dry-run":  # kubectl's NoOptDefVal: alone it means client
            out.append("--dry-run=client")
        else:
            out.append(arg)
    return out


# The group's own options; any other flag before the command belongs to a command.
_GROUP_OPTIONS = ("-h", "--help", "--version")


def misplaced_flags(argv: list[str]) -> str | None:
    """``kubectl-dgd -n dynamo status x``: flags before the command, which kubectl refuses for a
    plugin ("flags cannot be placed before plugin name"). The one line saying so, with the
    command line moved into order; None when the first word is the command (or no command
    follows the flags, for click to answer)."""
    if not argv or not argv[0].startswith("-") or argv[0] in _GROUP_OPTIONS:
        return None
    for position, arg in enumerate(argv):
        if arg == "--":
            return None
        if arg in COMMANDS:
            import shlex

            fixed = [*argv[position:], *argv[:position]]
            return f"error: flags go after the command: kubectl dgd {shlex.join(fixed)}"
    return None


def usage_line(err: click.UsageError) -> str:
    """Click's usage error as kubectl prints one: a single line, then where help is."""
    if isinstance(err, click.NoSuchOption) and err.possibilities and len(err.possibilities) > 1:
        # One suggestion, the closest (cluster commands have many flags: --user, --as...).
        import difflib

        best = difflib.get_close_matches(err.option_name, err.possibilities, n=1, cutoff=0)
        err = click.NoSuchOption(err.option_name, possibilities=best, ctx=err.ctx)
    message = " ".join(err.format_message().split())
    where = err.ctx.command_path if err.ctx is not None else "kubectl dgd"
    return f"error: {message} See '{where} --help'."


def main(argv: list[str] | None = None, deps: Deps | None = None) -> Any:
    """The command line (``kubectl_dgd.cli.entry:main``, the console script, adds the start-up
    tricks): every error is one line on stderr with its exit code.

    ``deps``: what the commands may touch (default: this process's streams, clock and
    environment); tests pass a fake.
    """
    if argv is None and deps is None:
        _usable_streams()
    try:
        try:
            return _main(argv, deps)
        finally:
            if argv is None and deps is None:  # what is still buffered fails here, if anywhere
                sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): as kubectl, not an error
        _discard_stdout()
        sys.exit(int(Exit.OK))
    except OSError as err:  # the output could not be written: /dev/full, a closed stdout
        _discard_stdout()
        click.echo(f"error: cannot write the output: {err.strerror or err}", err=True)
        sys.exit(int(Exit.FAILED))


class _ClosedStream(io.TextIOBase):
    """Standing in for a stdout the process was started without: writing fails as it would."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "stdout is closed")


def _usable_streams() -> None:
    """A closed stdout fails on the first write (one line, exit 1); characters the encoding
    cannot write (PYTHONIOENCODING=ascii, a C locale) are written escaped, not a traceback."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _discard_stdout() -> None:
    """Nothing more can reach stdout: let the interpreter's own last flush find nothing."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _main(argv: list[str] | None, deps: Deps | None) -> Any:
    # Ctrl-C ends a watch or wait with 130 even when the parent started us with SIGINT ignored
    # (a script's background job, some CI runners): Python then leaves it ignored, and `status
    # --watch` would never end. kubectl's watches do the same (Go's signal.Notify un-ignores it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    argv = sys.argv[1:] if argv is None else argv
    out, err_stream = (deps.stdout, deps.stderr) if deps is not None else (None, None)
    if argv[:1] == ["__complete"]:  # Cobra's hidden command: what the completion scripts call
        from kubectl_dgd.cli.complete import answer

        click.echo(answer(argv[1:], deps), nl=False, file=out)
        sys.exit(int(Exit.OK))
    misplaced = misplaced_flags(argv)
    if misplaced:
        click.echo(misplaced, file=err_stream, err=True)
        sys.exit(int(Exit.USAGE))
    args = kubectl_args(argv)
    try:
        result = cli.main(args=args, prog_name="kubectl dgd", standalone_mode=False, obj=deps)
    except DgdError as err:  # raised outside a command's own handling
        click.echo(f"error: {err}", file=err_stream, err=True)
        sys.exit(int(err.exit_code))
    except click.exceptions.NoArgsIsHelpError as err:  # `kubectl dgd`, `kubectl dgd rollout`
        click.echo(err.format_message(), file=out)  # as kubectl: the help, on stdout, exit 0
        sys.exit(int(Exit.OK))
    except click.UsageError as err:
        click.echo(usage_line(err), file=err_stream, err=True)
        sys.exit(int(Exit.USAGE))
    except click.ClickException as err:  # e.g. an unreadable click.File argument
        click.echo(f"error: {err.format_message()}", file=err_stream, err=True)
        sys.exit(int(Exit.USAGE))
    except (KeyboardInterrupt, click.exceptions.Abort):
        sys.exit(int(Exit.INTERRUPTED))
    except BrokenPipeError:
        sys.exit(int(Exit.OK))
    # --help and --version return their exit code; a command that returns normally succeeded.
    sys.exit(result if isinstance(result, int) else int(Exit.OK))
