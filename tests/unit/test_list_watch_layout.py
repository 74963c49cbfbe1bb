"""``list -w``'s rows (output/graph_list.WatchRows, issue 20 item 5): columns keep the widths of
the first paint, a wider value brings the header back at grown widths instead of pushing its row
out of line, and every row ends with the local time it was seen, from the injected clock."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from kubectl_dgd.core.listing import graph_row
from kubectl_dgd.core.views import GraphList
from kubectl_dgd.output.graph_list import WatchRows
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import PLAIN
from tests.cluster.conftest import NOW, graph
from tests.fakes import FakeCluster, FakeDeps, invoke

MOMENT = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _listing(*objects: dict[str, Any], all_namespaces: bool = False) -> GraphList:
    return GraphList([graph_row(o, MOMENT) for o in objects], list(objects), all_namespaces)


def _options(width: int = 200, headers: bool = True) -> Options:
    return Options(PLAIN, headers, width=width)


def _restarting(name: str) -> dict[str, Any]:
    obj = graph(name, restart={"id": "r2"})
    obj["status"]["restart"] = {"observedID": "r2", "phase": "Restarting", "inProgress": ["a"]}
    return obj


def _starts(line: str) -> list[int]:
    """Where each word of ``line`` starts (no cell here holds a space)."""
    return [i for i, ch in enumerate(line) if ch != " " and (i == 0 or line[i - 1] == " ")]


def _lined_up(header: str, row: str) -> bool:
    """Every cell of ``row`` starts where its column's header starts."""
    return _starts(row) == _starts(header)


def test_a_value_that_widens_within_its_known_values_keeps_the_row_in_line() -> None:
    rows = WatchRows(wide=False)
    first = rows.draw(_listing(graph("first")), ["ADDED"], "12:00:00", _options())
    header, row = first.splitlines()
    # RESTART and ROLLOUT are as wide as "Restarting" and "InProgress" from the first row on
    assert header == (
        "NAME    STATE          READY   REPLICAS   GPUS   RESTART      ROLLOUT      AGE     "
        "OBSERVED"
    )
    assert row.endswith("-            -            120m    12:00:00")
    later = rows.draw(_listing(_restarting("first")), ["MODIFIED"], "12:00:07", _options())
    assert later.count("\n") == 1  # no header: nothing had to move
    assert later.startswith("first   successful     3/3     4/4        4      Restarting   -")
    assert _lined_up(header, later) and later.rstrip().endswith("12:00:07")


def test_a_wider_value_brings_the_header_back_at_the_grown_widths_which_never_shrink() -> None:
    rows = WatchRows(wide=False)
    rows.draw(_listing(graph("a")), ["ADDED"], "12:00:00", _options())
    wider = rows.draw(_listing(graph("a-much-longer-name")), ["ADDED"], "12:00:01", _options())
    header, row = wider.splitlines()
    assert header.startswith("NAME                 STATE")
    assert row.startswith("a-much-longer-name   successful") and _lined_up(header, row)
    # back to a short name: the grown width stays, so the row lines up under the new header
    short = rows.draw(_listing(graph("a")), ["MODIFIED"], "12:00:02", _options())
    assert short.count("\n") == 1 and short.startswith("a                    successful")


def test_without_headers_no_header_ever_comes_and_nothing_is_cut() -> None:
    rows = WatchRows(wide=False)
    bare = _options(headers=False)
    # as wide as the header would be: the same columns and widths as with headers
    assert rows.draw(_listing(graph("a")), ["ADDED"], "12:00:00", bare).startswith("a      succ")
    wider = rows.draw(_listing(graph("a-much-longer-name")), ["ADDED"], "12:00:01", bare)
    assert wider.count("\n") == 1 and wider.startswith("a-much-longer-name   successful")


def test_the_event_column_comes_first_and_observed_last() -> None:
    rows = WatchRows(wide=False, events=True)
    text = rows.draw(_listing(graph("a"), graph("b")), ["ADDED", "ADDED"], "12:00:00", _options())
    header, *lines = text.splitlines()
    assert header.startswith("EVENT      NAME   STATE") and header.endswith("OBSERVED")
    assert [line[:12] for line in lines] == ["ADDED      a", "ADDED      b"]
    deleted = rows.draw(_listing(graph("a")), ["DELETED"], "12:00:03", _options())
    assert deleted.startswith("DELETED    a   ") and _lined_up(header, deleted)


def test_a_narrower_terminal_counts_at_the_next_header_only() -> None:
    rows = WatchRows(wide=False)
    first = rows.draw(_listing(graph("a")), ["ADDED"], "12:00:00", _options(200))
    assert "RESTART" in first
    # the terminal narrowed: the row would leave out columns, so the header says which
    narrow = rows.draw(_listing(graph("a")), ["MODIFIED"], "12:00:01", _options(60))
    header, row = narrow.splitlines()
    assert "RESTART" not in header and max(len(header), len(row)) <= 60
    assert _lined_up(header, row)


def test_wide_keeps_every_column_whatever_the_width() -> None:
    rows = WatchRows(wide=True)
    header = rows.draw(_listing(graph("a")), ["ADDED"], "12:00:00", _options(40)).split("\n")[0]
    assert header.split()[-4:] == ["PROVIDER", "BACKEND", "REASON", "OBSERVED"]
    assert "RESTART" in header


def _moving_clock(fake: FakeDeps, *stamps: str) -> None:
    times = iter(datetime.fromisoformat(s.replace("Z", "+00:00")) for s in stamps)
    last = [MOMENT]

    def clock() -> datetime:
        last[0] = next(times, last[0])
        return last[0]

    fake.wall_clock = clock


def test_each_row_carries_the_local_time_it_was_seen_in_the_injected_clock_and_tz() -> None:
    changed = copy.deepcopy(graph("first"))
    changed["metadata"]["resourceVersion"] = "2"
    changed["status"]["state"] = "pending"
    cluster = FakeCluster([graph("first")], watch_scripts=[[("MODIFIED", changed)]])
    fake = FakeDeps(cluster, environ={"TZ": "Asia/Kolkata"}, now=NOW)
    # each row's rows and its time read the clock: the listing at 12:00:00, the change at 12:00:05
    _moving_clock(fake, "2026-11-01T12:00:00Z", "2026-11-01T12:00:00Z", "2026-11-01T12:00:05Z")
    assert invoke(fake, "list", "-w") == 130
    header, first, second = fake.out.splitlines()
    assert header.endswith("OBSERVED")
    assert first.endswith(" 17:30:00") and second.endswith(" 17:30:05")  # UTC+05:30
    assert second.startswith("first   pending   ") and _lined_up(header, second)


def test_a_tz_that_is_no_zone_name_falls_back_to_the_process_zone() -> None:
    cluster = FakeCluster([graph("first")], watch_scripts=[])
    fake = FakeDeps(cluster, environ={"TZ": "UTC0"}, now=NOW)  # a POSIX rule: the suite's UTC
    assert invoke(fake, "list", "-w") == 130
    assert fake.out.splitlines()[1].endswith(" 12:00:00")
