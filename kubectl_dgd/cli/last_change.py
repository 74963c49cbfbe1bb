"""A ``--watch`` screen on a terminal, with ``Last change: 12:03:04 UTC (5s ago)`` under it.

A watch redraws only when the graph changes, so a quiet screen cannot tell "nothing happened"
from "the connection is stuck"; the line says when the screen last changed. Like ``watch`` and
``kubectl argo rollouts get -w``, the screen lives on between changes: every ``refresh`` seconds
it is drawn again from what was read (``draw``: its ages and durations move on, at the
terminal's size then), in place, without clearing (only the line is rewritten when nothing else
moved); a resize (SIGWINCH) redraws it at once, cleared. A screen taller than the terminal keeps
its top (the header) and says how many lines it left out. The clock is the deps' (``Deps.now``):
fixed in tests, never read by ``core``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TextIO

from kubectl_dgd.core.timefmt import human_age

# Cursor home, then clear: each --watch redraw on a terminal starts from a clean screen.
CLEAR_SCREEN = "\x1b[H\x1b[2J"
# Cursor home without clearing: a redraw in place (each line erased to its end, then below).
HOME = "\x1b[H"
ERASE_LINE_END = "\x1b[K"
ERASE_BELOW = "\x1b[J"
# Cursor up a line, to its start, and erase it: where the last-change line was drawn.
UP_AND_CLEAR = "\x1b[1A\r\x1b[2K"

# The terminal's rows, or None when unknown (nothing is clipped then).
Rows = Callable[[], int | None]


def last_change_line(changed: datetime, now: datetime) -> str:
    ago = human_age(int((now - changed).total_seconds()))
    return f"Last change: {changed.astimezone(UTC):%H:%M:%S} UTC ({ago} ago)"


def clip(text: str, rows: int | None) -> str:
    """``text`` in ``rows - 2`` lines (the last-change line takes the next row, and the cursor
    rests on the last one: a line more would scroll the header away): its top kept, the cut
    said on the last kept line."""
    lines = text.splitlines()
    if rows is None or rows < 4 or len(lines) <= rows - 2:
        return text
    kept = lines[: rows - 3]
    left = len(lines) - len(kept)
    return "\n".join([*kept, f"... {left} more lines (the terminal has {rows} rows)"]) + "\n"


def _in_place(text: str) -> str:
    return "".join(line + ERASE_LINE_END + "\n" for line in text.splitlines())


class LastChange:
    """Draws what changed with the last-change line under it, and keeps the screen current
    (every ``refresh`` seconds; 0: only on a resize, as tests want)."""

    def __init__(
        self,
        stream: TextIO,
        now: Callable[[], datetime],
        refresh: float,
        rows: Rows = lambda: None,
    ) -> None:
        self.stream = stream
        self.now = now
        self.refresh = refresh
        self.rows = rows
        self.changed: datetime | None = None
        self.draw: Callable[[], str] | None = None  # the screen, drawn now (None: lines mode)
        self.text = ""  # the screen as last drawn
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.wake = threading.Event()  # a resize: redraw now
        self.resized = False
        self.on_resize = False  # inside resizes(): a timer waits for SIGWINCH even with refresh 0
        self.timer: threading.Thread | None = None

    def screen(self, text: str) -> None:
        """A new screen: cleared, ``text``, the line."""
        self.show(lambda: text)

    def show(self, draw: Callable[[], str]) -> None:
        """A new screen, ``draw()`` giving its text at the current time and size."""
        with self.lock:
            self.draw = draw
            self.changed = self.now()
            self.text = clip(draw(), self.rows())
            self._write(CLEAR_SCREEN + self.text + last_change_line(self.changed, self.changed))
        self._start()

    def lines(self, text: str) -> None:
        """More lines (rollout status): the old line erased, ``text``, the line again."""
        with self.lock:
            self._write((UP_AND_CLEAR if self.changed else "") + text + self._stamp())
        self._start()

    def _stamp(self) -> str:
        self.changed = self.now()
        return last_change_line(self.changed, self.changed)

    def _write(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def _start(self) -> None:
        if (self.refresh > 0 or self.on_resize) and self.timer is None:
            # Kept only once started: a Ctrl-C in between must not leave close() an unstarted
            # thread to join (a daemon started but not kept ends on ``stopped`` anyway).
            timer = threading.Thread(target=self._tick, daemon=True)
            timer.start()
            self.timer = timer

    def _tick(self) -> None:
        while True:
            self.wake.wait(self.refresh if self.refresh > 0 else None)
            self.wake.clear()
            with self.lock:
                if self.stopped.is_set() or self.changed is None:
                    return
                try:
                    self._redraw()
                except (OSError, ValueError):  # the terminal went away
                    return

    def _redraw(self) -> None:
        assert self.changed is not None
        line = last_change_line(self.changed, self.now())
        if self.draw is None:
            self._write(UP_AND_CLEAR + line)
            return
        text = clip(self.draw(), self.rows())
        if self.resized:  # the terminal reflowed what was there: start from a clean screen
            self.resized = False
            self._write(CLEAR_SCREEN + text + line)
        elif text != self.text:
            self._write(HOME + _in_place(text) + line + ERASE_LINE_END)
            self.stream.write(ERASE_BELOW)  # what a longer screen left below
            self.stream.flush()
        else:
            self._write(UP_AND_CLEAR + line)
        self.text = text

    def resize(self, *_: Any) -> None:
        """SIGWINCH: redraw at the new size (from the timer's thread: a handler must not write
        while the main thread may hold the stream)."""
        self.resized = True
        self.wake.set()

    @contextmanager
    def resizes(self) -> Iterator[None]:
        """Redraw on SIGWINCH while inside (where the platform has it and this is the main
        thread; elsewhere only the timer redraws)."""
        winch = getattr(signal, "SIGWINCH", None)
        if winch is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(winch, self.resize)
        self.on_resize = True
        try:
            yield
        finally:
            signal.signal(winch, previous)

    def erase(self) -> None:
        """Take the last-change line away (a follow that succeeded: the result is the last
        line, as kubectl leaves it)."""
        self.close()
        with self.lock:
            if self.changed is not None:
                self.stream.write(UP_AND_CLEAR)
                self.stream.flush()

    def close(self) -> None:
        self.stopped.set()
        self.wake.set()
        if self.timer is not None and self.timer.is_alive():
            self.timer.join(timeout=1)

    def __enter__(self) -> LastChange:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
