"""Garbage-collector settings for a short-lived command-line process (both console scripts).

The cyclic collector exists for long-running programs. A command here loads its modules (which
create no garbage cycles worth a collection, yet trigger dozens of passes that walk every new
object), does one job, and exits, where the interpreter's final collection walks the whole heap
once more. So: no collections while loading; once the command's modules are in, freeze them (a
frozen object is never scanned again) and collect the command's own garbage with a young
generation of RUN_THRESHOLD objects instead of 700; at exit, freeze everything left, as the
process's memory goes back to the system whole. ``make bench`` measures both the time and the
memory this costs (the peak on the 5000-graph stream, against the default settings).

Only a process started by a console script has this policy (``startup.process.run`` calls
``loading``); until then ``running`` and ``exiting`` do nothing, so a program that imports the
front ends and calls their ``main`` keeps its own collector settings.
"""

from __future__ import annotations

import gc

RUN_THRESHOLD = 50_000

_active: list[bool] = []  # loading() was called: this process is a console script's


def loading() -> None:
    """Modules are being imported: no collections."""
    _active[:] = [True]
    gc.disable()


def running() -> None:
    """The command's modules are loaded: freeze them, then collect with a larger young generation."""
    if not _active:
        return
    gc.freeze()
    gc.set_threshold(RUN_THRESHOLD, 10, 10)
    gc.enable()


def exiting() -> None:
    """The process ends: spare the interpreter's final walk over the heap."""
    if _active:
        gc.freeze()
