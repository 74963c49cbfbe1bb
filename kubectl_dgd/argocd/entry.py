"""The ``dgd-argocd`` console script's function (``[project.scripts]``): the front end's
``main`` with the start-up tricks (kubectl_dgd/startup/process.py). A module of its own: a
function ``main`` in the package would be replaced by the submodule ``main`` once imported."""

from __future__ import annotations

import sys
from typing import Any


def main() -> Any:
    """``argocd.main.main`` with the start-up tricks; importing this module has no effect."""
    try:  # a Ctrl-C while the first modules load is an interruption, not a traceback
        return _run()
    except KeyboardInterrupt:  # (the command's own interruptions are handled inside it)
        sys.exit(130)  # Exit.INTERRUPTED (exitcodes.py), perhaps not loaded yet


def _run() -> Any:
    from kubectl_dgd.startup.process import run

    def load() -> Any:
        from kubectl_dgd.argocd.main import main

        return main

    def tricks() -> None:
        from kubectl_dgd.adapters import cel_extension

        cel_extension.install()

    # dataclasses imports inspect (with ast, dis and tokenize: some 4 ms) for the docstring of
    # a class that has none, and every class of ours has one: a generate never runs it.
    return run(load, deferred=("inspect",), tricks=tricks)
