"""``dgd-argocd``: the commands plugin.yaml runs inside the repo-server sidecar.

Only this module touches stdout, stderr and the exit code. Exit codes:
0 manifests printed; 1 the application's sources are invalid (error findings, unreadable or
malformed files, a symbolic link leaving the repository, no manifests at all); 2 the plugin is
misconfigured (a bad parameter value, malformed ARGOCD_APP_PARAMETERS, bad arguments).
Errors never dump usage text: Argo CD shows stderr verbatim in the application's conditions.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn

from kubectl_dgd import gcpolicy
from kubectl_dgd.errors import DgdError, UsageError
from kubectl_dgd.exitcodes import Exit

gcpolicy.loading()  # before the command's modules load (they are imported where used)

PROG = "dgd-argocd"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _emit_stderr([f"{PROG}: {message} (see {PROG} --help)"])
        sys.exit(int(Exit.USAGE))


def _emit_stderr(lines: list[str]) -> None:
    if lines:
        sys.stderr.buffer.write(("\n".join(lines) + "\n").encode("utf-8", "replace"))
        sys.stderr.flush()


def _emit_stdout(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def _parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        description="Argo CD config-management plugin for NVIDIA Dynamo DynamoGraphDeployments.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    gen = commands.add_parser(
        "generate",
        help="validate the application's manifests and print them as one YAML stream",
        description="Read *.yaml, *.yml and *.json below PATH (default: the working directory, "
        "which is the application path under Argo CD), validate every DynamoGraphDeployment "
        "as admission would on create, and print all objects. Parameters come from "
        "ARGOCD_APP_PARAMETERS, PARAM_*, ARGOCD_ENV_DGD_* and DGD_*.",
    )
    gen.add_argument("path", nargs="?", default=".", help="application path (default: .)")
    par = commands.add_parser(
        "parameters",
        help="print the dynamic parameter announcements (JSON) for Argo CD's UI",
    )
    par.add_argument("path", nargs="?", default=".", help="application path (default: .)")
    return parser


def main(argv: list[str] | None = None) -> None:
    try:
        _main(argv)
    finally:
        if argv is None:  # the process ends here (called with argv, it is embedded: a test)
            gcpolicy.exiting()


def _main(argv: list[str] | None) -> None:
    args = _parser().parse_args(argv)
    env = dict(os.environ)
    try:
        if args.command == "generate":
            _generate(Path(args.path), env)
        else:
            from kubectl_dgd.argocd.parameters import announcements
            from kubectl_dgd.output.serialize import to_json

            gcpolicy.running()
            _emit_stdout(to_json(announcements(Path(args.path), env)))
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
    from kubectl_dgd.core.views import ManifestStream
    from kubectl_dgd.output.printer import format_view

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
    _emit_stdout(format_view(ManifestStream([e.obj for e in outcome.entries]), "yaml"))
