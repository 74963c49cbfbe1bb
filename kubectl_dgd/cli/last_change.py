"""The ``Last change: 12:03:04 UTC (5s ago)`` line under a ``--watch`` screen on a terminal.

A watch redraws only when the graph changes, so a quiet screen cannot tell "nothing happened"
from "the connection is stuck"; the line says when the screen last changed, and a timer moves
its age on every second (rewriting that one line, never the screen). The clock is the deps'
(``Deps.now``): fixed in tests, never read by ``core``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TextIO

from kubectl_dgd.core.timefmt import human_age

# Cursor home, then clear: each --watch redraw on a terminal starts from a clean screen.
CLEAR_SCREEN = "\x1b[H\x1b[2J"
# Cursor up a line, to its start, and erase it: where the last-change line was drawn.
UP_AND_CLEAR = "\x1b[1A\r\x1b[2K"


def last_change_line(changed: datetime, now: datetime) -> str:
    ago = human_age(int((now - changed).total_seconds()))
    return f"Last change: {changed.astimezone(UTC):%H:%M:%S} UTC ({ago} ago)"


class LastChange:
    """Draws what changed with the last-change line under it, and keeps the line's age current
    (every ``refresh`` seconds; 0: never, as tests want)."""

    def __init__(self, stream: TextIO, now: Callable[[], datetime], refresh: float) -> None:
        self.stream = stream
        self.now = now
        self.refresh = refresh
        self.changed: datetime | None = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.timer: threading.Thread | None = None

    def screen(self, text: str) -> None:
        """A new screen: cleared, ``text``, the line."""
        self._draw(CLEAR_SCREEN + text)

    def lines(self, text: str) -> None:
        """More lines (rollout status): the old line erased, ``text``, the line again."""
        self._draw((UP_AND_CLEAR if self.changed else "") + text)

    def _draw(self, text: str) -> None:
        with self.lock:
            self.changed = self.now()
            self.stream.write(text + last_change_line(self.changed, self.changed) + "\n")
            self.stream.flush()
        if self.refresh > 0 and self.timer is None:
            # Kept only once started: a Ctrl-C in between must not leave close() an unstarted
            # thread to join (a daemon started but not kept ends on ``stopped`` anyway).
            timer = threading.Thread(target=self._tick, daemon=True)
            timer.start()
            self.timer = timer

    def _tick(self) -> None:
        while not self.stopped.wait(self.refresh):
            with self.lock:
                if self.stopped.is_set() or self.changed is None:
                    return
                try:
                    self.stream.write(UP_AND_CLEAR + last_change_line(self.changed, self.now()))
                    self.stream.write("\n")
                    self.stream.flush()
                except (OSError, ValueError):  # the terminal went away
                    return

    def close(self) -> None:
        self.stopped.set()
        if self.timer is not None and self.timer.is_alive():
            self.timer.join(timeout=1)

    def __enter__(self) -> LastChange:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
