"""``dgd-argocd``: the commands plugin.yaml runs inside the repo-server sidecar.

Only this module touches stdout, stderr and the exit code. Exit codes:
0 manifests printed; 1 the application's sources are invalid (error findings, unreadable or
malformed files, a symbolic link leaving the repository, no manifests at all); 2 the plugin is
misconfigured (a bad parameter value, malformed ARGOCD_APP_PARAMETERS, bad arguments).
Errors never dump usage text: Argo CD shows stderr verbatim in the application's conditions.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

try:  # a Ctrl-C while the modules load is an interruption, not a traceback
    from kubectl_dgd.errors import DgdError, UsageError
    from kubectl_dgd.exitcodes import Exit
    from kubectl_dgd.startup import gcpolicy
except KeyboardInterrupt:  # pragma: no cover - timing dependent
    sys.exit(130)

PROG = "dgd-argocd"
COMMANDS = ("generate", "parameters")


def _emit_stderr(lines: list[str]) -> None:
    if lines:
        sys.stderr.buffer.write(("\n".join(lines) + "\n").encode("utf-8", "replace"))
        sys.stderr.flush()


def _emit_stdout(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def _plain_command(argv: list[str]) -> tuple[str, str] | None:
    """plugin.yaml's command lines (``generate``, ``parameters``, each with an optional path
    that is not an option), read without argparse; anything else goes to arguments.py."""
    if not argv or argv[0] not in COMMANDS or len(argv) > 2:
        return None
    if len(argv) == 2 and argv[1].startswith("-"):
        return None
    return argv[0], argv[1] if len(argv) == 2 else "."


def main(argv: list[str] | None = None) -> None:
    """The commands (``kubectl_dgd.argocd.entry:main``, the console script, adds the start-up tricks)."""
    given = sys.argv[1:] if argv is None else argv
    plain = _plain_command(given)
    if plain is None:
        from kubectl_dgd.argocd.arguments import parse

        plain = parse(given, PROG)
    command, path = plain
    env = dict(os.environ)
    try:
        if command == "generate":
            _generate(Path(path), env)
        else:
            from kubectl_dgd.argocd.parameters import announcements
            from kubectl_dgd.output.serialize import to_json

            gcpolicy.running()
            _emit_stdout(to_json(announcements(Path(path), env)))
    except UsageError as err:
        _emit_stderr([f"{PROG}: {err}"])
        sys.exit(int(Exit.USAGE))
    except DgdError as err:
        _emit_stderr([f"{PROG}: {err}"])
        sys.exit(int(Exit.FAILED))
    except KeyboardInterrupt:
        sys.exit(int(Exit.INTERRUPTED))


def _generate(app_dir: Path, env: dict[str, str]) -> None:
    from kubectl_dgd.argocd.generate import MAX_ERRORS_SHOWN, MAX_WARNINGS_SHOWN, capped, generate
    from kubectl_dgd.output.manifest_yaml import dump_stream

    gcpolicy.running()
    outcome = generate(app_dir, env)
    warnings = capped(outcome.warnings, MAX_WARNINGS_SHOWN, "warnings")
    if not outcome.ok:
        # Errors first: Argo CD shows the whole of stderr in one condition message.
        count = len(outcome.errors)
        _emit_stderr(
            [
                *capped(outcome.errors, MAX_ERRORS_SHOWN, "errors"),
                f"{PROG}: {count} error{'s' if count != 1 else ''}; no manifests generated",
                *warnings,
            ]
        )
        sys.exit(int(Exit.FAILED))
    _emit_stderr(warnings)
    # The same bytes as `-o yaml` of the objects (a `---` before each), without the view and
    # printer modules (7 ms of imports) that the other commands' formats need.
    _emit_stdout(dump_stream([e.obj for e in outcome.entries]))
