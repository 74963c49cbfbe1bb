"""Ctrl-C while the Last change timer starts: close() must not fail on a thread never started
(the status --watch screen exited 1 with "cannot join thread before it is started")."""

from __future__ import annotations

import io
import threading
from datetime import UTC, datetime

import pytest

from kubectl_dgd.cli.last_change import LastChange


def test_an_interrupt_as_the_timer_starts_leaves_close_nothing_to_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(self: threading.Thread) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", interrupted)
    stream = io.StringIO()
    with pytest.raises(KeyboardInterrupt), LastChange(stream, lambda: datetime.now(UTC), 1.0) as s:
        s.screen("view\n")
    assert "view\nLast change: " in stream.getvalue()
