"""The "Last change" line of a real ``status --watch`` on a terminal (a pty): it is drawn under
the screen and its age moves on while the graph stays quiet (issue 10)."""

from __future__ import annotations

import os
import re
import subprocess
import time

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import graph
from tests.cluster.test_watch_rollout import _env, _interrupt
from tests.conftest import BIN

AGO = re.compile(rb"Last change: \d\d:\d\d:\d\d UTC \((\d+)s ago\)")


def test_a_quiet_watch_screen_keeps_saying_how_long_ago_it_changed(apiserver: ApiServer) -> None:
    import pty

    apiserver.seed(graph())
    env = _env(apiserver)
    del env["DGD_NOW"]  # the real clock: the age must move
    env["COLUMNS"] = "80"
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "kubectl-dgd"), "status", "my-graph", "--watch"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(follower)
    try:
        seen = b""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            seen += os.read(leader, 65536)
            ages = [int(age) for age in AGO.findall(seen)]
            if ages and max(ages) >= 2:
                break
    finally:
        _interrupt(proc)
        os.close(leader)
    assert proc.returncode == 130
    assert seen.count(b"\x1b[H\x1b[2J") == 1  # one screen: the line moved on, not the screen
    assert ages[0] == 0 and max(ages) >= 2, seen[-300:]
    assert b"\x1b[1A\r\x1b[2K" in seen  # only the line was rewritten
