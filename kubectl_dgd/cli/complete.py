"""``kubectl_complete-dgd``: shell completion for ``kubectl dgd <TAB>``.

kubectl (1.26+) completes a plugin's words by running ``kubectl_complete-<plugin>`` with the
words after the plugin name, the last one being the word under the cursor, and reads Cobra's
``__complete`` answer: one candidate per line (``value<TAB>description``), then ``:<directive>``.
Candidates come from the click command tree itself, so they never drift from the commands.
"""

from __future__ import annotations

import sys

from click.shell_completion import ShellComplete

from kubectl_dgd.cli.main import cli

# Cobra's ShellCompDirective bits.
DEFAULT = 0
NO_FILE_COMPLETION = 4


def completions(words: list[str]) -> tuple[list[str], int]:
    """Candidate lines and the directive for the words after ``kubectl dgd``."""
    args, incomplete = (words[:-1], words[-1]) if words else ([], "")
    if incomplete.startswith("-") and "=" in incomplete:
        return [], DEFAULT  # --flag=value: let the shell complete the value
    completer = ShellComplete(cli, {}, "kubectl dgd", "_KUBECTL_DGD_COMPLETE")
    items = completer.get_completions(args, incomplete)
    wants_files = any(item.type in ("file", "dir") for item in items)
    lines = [
        f"{item.value}\t{item.help}" if item.help else str(item.value)
        for item in items
        if item.type == "plain"
    ]
    return lines, DEFAULT if wants_files else NO_FILE_COMPLETION


def main() -> None:
    lines, directive = completions(sys.argv[1:])
    sys.stdout.write("".join(f"{line}\n" for line in lines) + f":{directive}\n")
