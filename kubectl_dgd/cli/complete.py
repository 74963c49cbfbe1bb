"""``kubectl_complete-dgd``: shell completion for ``kubectl dgd <TAB>``.

kubectl (1.26+) completes a plugin's words by running ``kubectl_complete-<plugin>`` with the
words after the plugin name, the last one being the word under the cursor, and reads Cobra's
``__complete`` answer: one candidate per line (``value<TAB>description``), then ``:<directive>``.
``kubectl-dgd __complete WORDS...`` gives the same answer to the scripts of ``kubectl dgd
completion SHELL``. Candidates come from the click command tree itself (its commands, flags,
choices and the ``shell_complete=`` callbacks of ``cli/completers.py``), so they never drift
from the commands.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from click.shell_completion import ShellComplete

# Cobra's ShellCompDirective bits.
DEFAULT = 0  # the shell may complete file names
ERROR = 1
NO_SPACE = 2
NO_FILE_COMPLETION = 4
FILTER_FILE_EXT = 8  # the candidates are file extensions to filter file names by
FILTER_DIRS = 16


def completions(words: list[str], obj: Any = None) -> tuple[list[str], int]:
    """Candidate lines and the directive for the words after ``kubectl dgd``; ``obj``: the
    root context's object (the command's dependencies; tests give a fake)."""
    from kubectl_dgd.cli.main import cli, kubectl_args

    args, incomplete = (kubectl_args(words[:-1]), words[-1]) if words else ([], "")
    if args and _takes_value(_command_of(cli, args), args[-1]):
        # `-n <TAB>`: asked as `-n=<TAB>`, since click parses the line before the cursor and a
        # dangling option would lose the words already typed (NAME, -f, --context...).
        args, incomplete = args[:-1], f"{args[-1]}={incomplete}"
    completer = ShellComplete(cli, {"obj": obj}, "kubectl dgd", "_KUBECTL_DGD_COMPLETE")
    try:
        items = completer.get_completions(args, incomplete)
    except click.ClickException:  # e.g. an unknown command before the cursor: nothing to offer
        return [], NO_FILE_COMPLETION
    types = {item.type for item in items}
    if "ext" in types:
        return [str(item.value) for item in items if item.type == "ext"], FILTER_FILE_EXT
    if "file" in types:
        return [], DEFAULT
    if "dir" in types:
        return [], FILTER_DIRS
    lines = [
        f"{item.value}\t{_one_line(item.help)}" if item.help else str(item.value)
        for item in items
        if item.type in ("plain", "nospace")
    ]
    directive = NO_FILE_COMPLETION | (NO_SPACE if "nospace" in types else 0)
    return lines, directive


def _command_of(cli: click.Group, args: list[str]) -> click.Command:
    """The (sub)command the words name: ``rollout status`` -> the status command."""
    command: click.Command = cli
    ctx = click.Context(cli)
    for word in args:
        if not isinstance(command, click.Group) or word.startswith("-"):
            break
        found = command.get_command(ctx, word)
        if found is None:
            break
        command = found
    return command


def _takes_value(command: click.Command, word: str) -> bool:
    """Whether ``word`` is one of the command's options that needs a value after it."""
    return any(
        isinstance(param, click.Option)
        and not (param.is_flag or param.count)
        and word in (*param.opts, *param.secondary_opts)
        for param in command.params
    )


def _one_line(text: str) -> str:
    """A description fits on its candidate's line (the protocol is one candidate per line)."""
    return " ".join(str(text).split())


def answer(words: list[str], obj: Any = None) -> str:
    """The whole ``__complete`` answer; never raises (a broken completion must not print a
    traceback into the user's command line)."""
    try:
        lines, directive = completions(words, obj)
    except Exception:  # Cobra's "error" directive: the shell offers nothing
        lines, directive = [], ERROR
    return "".join(f"{line}\n" for line in lines) + f":{directive}\n"


def main() -> None:
    sys.stdout.write(answer(sys.argv[1:]))
