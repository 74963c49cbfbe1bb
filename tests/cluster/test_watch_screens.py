"""Watch screens in a real terminal (tmux): ``status --watch`` of a graph mid rolling update at
80x24 and 200x50, a resize from one to the other, a screen taller than the terminal, and the
durations ticking on a quiet screen (issue 20, item 5).

tmux renders what the console script wrote (its escapes, its redraws) into the screen a user
sees; ``capture-pane`` reads that screen back. Goldens: tests/golden/watch/ (UPDATE_GOLDEN=1).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, component
from tests.cluster.test_watch_rollout import _env
from tests.conftest import BIN, assert_golden
from tests.unit.status_fixtures import saved

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

IN_PROGRESS = re.compile(r"Managed rolling update InProgress for (\S+) ")


class Terminal:
    """A tmux session of its own (a private server socket) running one command."""

    def __init__(self, command: list[str], env: dict[str, str], columns: int, rows: int) -> None:
        self.socket = f"kdgd-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
        line = f"env -i {exports} {shlex.join(command)}; sleep 30"
        self._tmux("new-session", "-d", "-x", str(columns), "-y", str(rows), "-s", "watch", line)
        self._tmux("set-option", "-g", "status", "off")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        """What the terminal shows, trailing blanks dropped."""
        text = self._tmux("capture-pane", "-p", "-t", "watch")
        return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n") + "\n"

    def wait_for(self, check: Callable[[str], bool], timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if check(shown) or time.monotonic() > deadline:
                return shown
            time.sleep(0.1)

    def resize(self, columns: int, rows: int) -> None:
        self._tmux("resize-window", "-t", "watch", "-x", str(columns), "-y", str(rows))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def _rolling_graph() -> dict[str, object]:
    obj = saved("rolling-update-in-progress")
    obj["metadata"]["namespace"] = NS
    obj["metadata"].pop("resourceVersion", None)
    return obj


def _watch(
    apiserver: ApiServer, terminals: list[Terminal], columns: int, rows: int, fixed: bool = True
) -> Terminal:
    env = {
        k: v
        for k, v in _env(apiserver).items()
        if k in ("KUBECONFIG", "HOME", "NO_COLOR", "DGD_NOW", "PATH", "PYTHONFAULTHANDLER")
    }
    env.update({"TZ": "UTC", "LANG": "C.UTF-8", "TERM": "screen"})
    if not fixed:
        del env["DGD_NOW"]  # the real clock: durations must move
    terminal = Terminal(
        [str(BIN / "kubectl-dgd"), "status", "sglang-disagg", "--watch"], env, columns, rows
    )
    terminals.append(terminal)
    return terminal


def _drawn(shown: str) -> bool:
    return "Last change:" in shown


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (200, 50)])
def test_a_watch_screen_fits_the_terminal_keeping_its_header(
    apiserver: ApiServer, terminals: list[Terminal], columns: int, rows: int
) -> None:
    apiserver.seed(_rolling_graph())
    shown = _watch(apiserver, terminals, columns, rows).wait_for(_drawn)
    lines = shown.splitlines()
    assert lines[0].startswith("Name:"), shown  # the header is on screen
    assert len(lines) <= rows - 1 and max(len(line) for line in lines) <= columns
    assert_golden(f"watch/status-rolling-{columns}x{rows}.txt", shown)


def test_a_resize_lays_the_screen_out_again_at_the_new_size(
    apiserver: ApiServer, terminals: list[Terminal]
) -> None:
    apiserver.seed(_rolling_graph())
    terminal = _watch(apiserver, terminals, 80, 24)
    small = terminal.wait_for(_drawn)
    assert "more lines (the terminal has 24 rows)" in small
    terminal.resize(200, 50)
    large = terminal.wait_for(lambda s: _drawn(s) and "the terminal has 24 rows" not in s)
    # the same screen a 200x50 terminal shows from the start
    assert_golden("watch/status-rolling-200x50.txt", large)
    terminal.resize(80, 24)
    again = terminal.wait_for(lambda s: _drawn(s) and "the terminal has 24 rows" in s)
    assert_golden("watch/status-rolling-80x24.txt", again)


def test_durations_tick_on_a_quiet_screen(apiserver: ApiServer, terminals: list[Terminal]) -> None:
    obj = _rolling_graph()
    # started a little before now, so that the duration is in seconds and visibly moves
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 5))
    obj["status"]["rollingUpdate"]["startTime"] = stamp  # type: ignore[index]
    apiserver.seed(obj)
    terminal = _watch(apiserver, terminals, 200, 50, fixed=False)
    first = IN_PROGRESS.search(terminal.wait_for(lambda s: bool(IN_PROGRESS.search(s))))
    assert first is not None
    later = terminal.wait_for(
        lambda s: (m := IN_PROGRESS.search(s)) is not None and m.group(1) != first.group(1),
        timeout=10,
    )
    moved = IN_PROGRESS.search(later)
    assert moved is not None and moved.group(1) != first.group(1), later
    assert re.search(r"Last change: \d\d:\d\d:\d\d UTC \([1-9]\d*s ago\)", later), later


def test_many_components_are_cut_below_the_header_not_above_it(
    apiserver: ApiServer, terminals: list[Terminal]
) -> None:
    obj = _rolling_graph()
    components = obj["spec"]["components"]  # type: ignore[index]
    components += [component(f"extra{i}", "worker") for i in range(30)]
    apiserver.seed(obj)
    shown = _watch(apiserver, terminals, 80, 24).wait_for(_drawn)
    lines = shown.splitlines()
    assert lines[0].startswith("Name:")
    assert re.fullmatch(r"\.\.\. \d+ more lines \(the terminal has 24 rows\)", lines[-2])
    assert lines[-1].startswith("Last change:")
