"""``list -w`` in a real terminal (tmux) at 80x24 and 200x50, and across a resize (issue 20,
item 5): rows appended as ``kubectl get -w`` appends them, in columns that keep their widths (a
graph that starts restarting stays in line), the header again only above a row too wide for
them (a longer name), and each row's OBSERVED time in the terminal's TZ (Europe/Paris here:
12:00 UTC is 13:00:00); a resize counts at the next row, under a header of the columns that fit. Goldens: tests/golden/watch/list-*.txt (UPDATE_GOLDEN=1).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, graph
from tests.cluster.test_watch_rollout import _env
from tests.cluster.test_watch_screens import Terminal
from tests.conftest import BIN, assert_golden

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

LONG = "a-longer-graph-name"


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def _rt(server: ApiServer) -> Any:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return rt


def _list_watch(
    apiserver: ApiServer, terminals: list[Terminal], columns: int, rows: int
) -> Terminal:
    env = {
        k: v
        for k, v in _env(apiserver).items()
        if k in ("KUBECONFIG", "HOME", "NO_COLOR", "DGD_NOW", "PATH", "PYTHONFAULTHANDLER")
    }
    env.update({"TZ": "Europe/Paris", "LANG": "C.UTF-8", "TERM": "screen"})
    terminal = Terminal([str(BIN / "kubectl-dgd"), "list", "-w"], env, columns, rows)
    terminals.append(terminal)
    return terminal


def _restarting(apiserver: ApiServer, name: str) -> None:
    rt = _rt(apiserver)
    status = apiserver.store.get(rt, NS, name)["status"]
    restart = {"observedID": "r2", "phase": "Restarting", "inProgress": ["decode"]}
    apiserver.store.write_status(rt, NS, name, {**status, "restart": restart})


def _changes(apiserver: ApiServer, terminal: Terminal) -> str:
    """The first listing, a graph that starts restarting (its row stays in line), then one
    with a longer name (the header again, at wider columns)."""
    terminal.wait_for(lambda s: "first" in s and "second" in s)
    _restarting(apiserver, "second")
    terminal.wait_for(lambda s: s.count("second") == 2)
    apiserver.store.create(_rt(apiserver), NS, graph(LONG, status={}))
    return terminal.wait_for(lambda s: LONG in s)


def _lined_up(screen: str) -> None:
    """Every row starts its cells where the header above it starts its columns."""

    def starts(line: str) -> list[int]:
        return [i for i, c in enumerate(line) if c != " " and (i == 0 or line[i - 1] == " ")]

    header = ""
    for line in screen.splitlines():
        if line.startswith("NAME"):
            header = line
        elif line:
            assert starts(line) == starts(header), (header, line)


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (200, 50)])
def test_list_watch_keeps_its_columns_and_stamps_each_row(
    apiserver: ApiServer, terminals: list[Terminal], columns: int, rows: int
) -> None:
    apiserver.seed(graph("first"), graph("second"))
    shown = _changes(apiserver, _list_watch(apiserver, terminals, columns, rows))
    _lined_up(shown)
    # the header twice: at the first rows, and above the longer name only
    assert shown.count("OBSERVED") == 2 and shown.count(" 13:00:00") == 4
    assert max(len(line) for line in shown.splitlines()) <= columns
    assert_golden(f"watch/list-{columns}x{rows}.txt", shown)


def test_a_resize_counts_at_the_next_row_with_a_header_saying_which_columns(
    apiserver: ApiServer, terminals: list[Terminal]
) -> None:
    apiserver.seed(graph("first"), graph("second"))
    terminal = _list_watch(apiserver, terminals, 80, 24)
    small = terminal.wait_for(lambda s: "second" in s)
    assert "RESTART" not in small  # 80 columns: RESTART gives way, as in `list`
    terminal.resize(200, 50)
    _restarting(apiserver, "second")
    wide = terminal.wait_for(lambda s: s.count("second") == 2)
    header, row = wide.splitlines()[-2:]
    assert header.startswith("NAME") and "RESTART" in header and "Restarting" in row
    _lined_up(wide)
