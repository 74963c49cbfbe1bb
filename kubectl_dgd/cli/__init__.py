"""The kubectl plugin front end."""

from __future__ import annotations

from typing import Any


def main() -> Any:
    """The ``kubectl-dgd`` console script: ``cli.main.main`` with the start-up tricks
    (kubectl_dgd/startup/process.py); importing this package has no effect."""
    from kubectl_dgd.startup.process import run

    def load() -> Any:
        from kubectl_dgd.cli.main import main

        return main

    def tricks() -> None:
        from kubectl_dgd.adapters import cel_extension

        cel_extension.install()

    return run(load, tricks=tricks)
