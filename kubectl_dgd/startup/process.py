"""What a console script's process does around its main: the start-up tricks, unless
``DGD_PLAIN_STARTUP=1``. The console scripts call this (``kubectl_dgd.cli.entry:main``,
``kubectl_dgd.argocd.entry:main``); importing the front ends' modules, or calling their ``main`` from
another program, changes nothing of the caller's interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubectl_dgd.startup import dataclass_code, gcpolicy, plain
from kubectl_dgd.startup.deferred import defer


def run(
    load: Callable[[], Callable[[], Any]],
    deferred: tuple[str, ...] = (),
    tricks: Callable[[], None] = lambda: None,
) -> Any:
    """``load()()``: the command's main, loaded and called with the tricks in place: the
    modules ``deferred`` entered deferred, the dataclass cache, the collector's policy, and
    the front end's own ``tricks`` (called once its main is loaded)."""
    if plain():
        return load()()
    for name in deferred:
        defer(name)
    dataclass_code.install()  # before the command's dataclasses are created
    gcpolicy.loading()  # before click and the command's modules load
    try:
        main = load()
        tricks()
        return main()
    finally:
        gcpolicy.exiting()
