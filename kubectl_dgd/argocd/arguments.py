"""The full command line of ``dgd-argocd`` (argparse): help, and one-line errors for anything
else. main.py reads plugin.yaml's own command lines without it (argparse, gettext and the
help formatter's shutil cost some 4 ms of a 20-file generate)."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from kubectl_dgd.exitcodes import Exit


def parse(argv: list[str], prog: str) -> tuple[str, str]:
    """(command, application path) from the command line; exits on bad arguments and --help."""

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            # Argo CD shows stderr verbatim in the application's conditions: no usage text.
            line = f"{prog}: {message} (see {prog} --help)\n"
            sys.stderr.buffer.write(line.encode("utf-8", "replace"))
            sys.stderr.flush()
            sys.exit(int(Exit.USAGE))

    parser = Parser(
        prog=prog,
        description="Argo CD config-management plugin for NVIDIA Dynamo DynamoGraphDeployments.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    gen = commands.add_parser(
        "generate",
        help="validate the application's manifests and print them as one YAML stream",
        description="Read *.yaml, *.yml and *.json below PATH (default: the working directory, "
        "which is the application path under Argo CD), validate every DynamoGraphDeployment "
        "as admission would on create, and print all objects. Parameters come from "
        "ARGOCD_APP_PARAMETERS, PARAM_*, ARGOCD_ENV_DGD_* and DGD_*.",
    )
    gen.add_argument(
        "path",
        nargs="?",
        default=".",
        help="application path (default: .); - reads one YAML stream from standard input, "
        "e.g. the output of helm template or kustomize build",
    )
    par = commands.add_parser(
        "parameters",
        help="print the dynamic parameter announcements (JSON) for Argo CD's UI",
    )
    par.add_argument("path", nargs="?", default=".", help="application path (default: .)")
    args = parser.parse_args(argv)
    return str(args.command), str(args.path)
