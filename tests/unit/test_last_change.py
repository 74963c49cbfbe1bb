"""The "Last change" line of a --watch screen on a terminal (issue 10): when, how long ago, and
its age moved on by a timer without redrawing the screen."""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime, timedelta

from kubectl_dgd.cli.last_change import CLEAR_SCREEN, UP_AND_CLEAR, LastChange, last_change_line
from tests.cluster.conftest import NOW, graph
from tests.fakes import FakeCluster, FakeDeps, invoke

T0 = datetime(2026, 11, 30, 12, 3, 4, tzinfo=UTC)


def test_the_line_says_when_and_how_long_ago() -> None:
    assert last_change_line(T0, T0 + timedelta(seconds=5)) == "Last change: 12:03:04 UTC (5s ago)"
    later = T0 + timedelta(minutes=3, seconds=20)
    assert last_change_line(T0, later) == "Last change: 12:03:04 UTC (3m20s ago)"


def test_a_screen_is_cleared_and_lines_replace_the_old_line() -> None:
    out = io.StringIO()
    with LastChange(out, lambda: T0, refresh=0) as screen:
        screen.screen("Name: g\n")
        assert out.getvalue() == CLEAR_SCREEN + "Name: g\nLast change: 12:03:04 UTC (0s ago)\n"
    out = io.StringIO()
    with LastChange(out, lambda: T0, refresh=0) as screen:
        screen.lines("one\n")
        screen.lines("two\n")
    line = "Last change: 12:03:04 UTC (0s ago)\n"
    assert out.getvalue() == "one\n" + line + UP_AND_CLEAR + "two\n" + line


def test_the_timer_moves_the_age_on_without_redrawing() -> None:
    clock = [T0]
    out = io.StringIO()
    with LastChange(out, lambda: clock[0], refresh=0.01) as screen:
        screen.screen("Name: g\n")
        clock[0] = T0 + timedelta(seconds=7)
        deadline = time.monotonic() + 10
        while "(7s ago)" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    text = out.getvalue()
    assert text.count(CLEAR_SCREEN) == 1  # the screen was drawn once
    assert UP_AND_CLEAR + "Last change: 12:03:04 UTC (7s ago)\n" in text
    stopped = len(out.getvalue())
    time.sleep(0.05)
    assert len(out.getvalue()) == stopped  # closed: the timer writes no more


def test_status_watch_on_a_terminal_ends_each_frame_with_the_line() -> None:
    changed = graph()
    changed["metadata"]["resourceVersion"] = "2"
    cluster = FakeCluster([graph()], watch_scripts=[[("MODIFIED", changed)]])
    fake = FakeDeps(cluster, now=NOW, tty=True)
    assert invoke(fake, "status", "my-graph", "--watch") == 130
    frames = fake.out.split(CLEAR_SCREEN)[1:]
    assert len(frames) == 2
    assert all(f.endswith("\nLast change: 12:00:00 UTC (0s ago)\n") for f in frames)


def test_piped_watch_and_json_carry_no_such_line() -> None:
    changed = graph()
    changed["metadata"]["resourceVersion"] = "2"
    cluster = FakeCluster([graph()], watch_scripts=[[("MODIFIED", changed)]])
    fake = FakeDeps(cluster, now=NOW)  # piped
    assert invoke(fake, "status", "my-graph", "--watch") == 130
    assert "Last change" not in fake.out


def test_rollout_status_on_a_terminal_keeps_the_line_under_its_lines_until_it_succeeds() -> None:
    obj = graph()
    obj["metadata"]["generation"] = 2
    settled = graph()
    settled["metadata"].update(generation=2, resourceVersion="2")
    settled["status"]["observedGeneration"] = 2
    cluster = FakeCluster([obj], watch_scripts=[[("MODIFIED", settled)]])
    fake = FakeDeps(cluster, now=NOW, tty=True, environ={"NO_COLOR": "1"})
    assert invoke(fake, "rollout", "status", "my-graph") == 0
    line = "Last change: 12:00:00 UTC (0s ago)\n"
    # The fake cluster has no operator: why's root cause stands under the waiting line.
    waiting, blocked = fake.out.split("  blocked by OperatorLagging: ")
    assert waiting == (
        'Waiting for dgd "my-graph" rollout to finish: generation 2 not yet observed by\n'
        "  the operator...\n"
    )
    # Rolled out: the line is erased, the result is the last line (as kubectl leaves it).
    assert blocked.endswith(
        "observed 1).\n"
        + line
        + UP_AND_CLEAR
        + 'dgd "my-graph" successfully rolled out\n'
        + line
        + UP_AND_CLEAR
    )
