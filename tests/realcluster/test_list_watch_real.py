"""``list -w`` through the console script against the real API server, as the namespace-scoped
``dev`` user: a graph created while watching is reconciled by the simulated operator, and each
change of its status is a row appended under the one header, in line with it, ending with the
time it was seen (issue 20, item 5)."""

from __future__ import annotations

import re
import subprocess

from tests.cluster.test_watch_rollout import Lines, _interrupt
from tests.conftest import BIN, assert_installed_checkout, cli_env
from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace

TIME = re.compile(r"\d\d:\d\d:\d\d")
PAUSED = "kdgd.test/operator"  # tests/realcluster/operator.py skips a graph so annotated


def _starts(line: str) -> list[int]:
    return [i for i, c in enumerate(line) if c != " " and (i == 0 or line[i - 1] == " ")]


def test_list_watch_appends_a_row_per_status_change_in_line_with_its_time(
    real_ns: RealNamespace,
) -> None:
    assert_installed_checkout()
    env = cli_env({"KUBECONFIG": str(real_ns.kubeconfigs["dev"]), "COLUMNS": "200"})
    proc = subprocess.Popen(
        [str(BIN / "kubectl-dgd"), "list", "-w"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines = Lines(proc)
    # A graph the operator leaves alone, longer-named than healthy (so no header again): once
    # its row is out, the watch runs from the list's resourceVersion and sees every change.
    waiting = scenarios.healthy(real_ns.name)
    waiting["metadata"]["name"] = "a-graph-left-alone"
    waiting["metadata"]["annotations"][PAUSED] = "paused"
    try:
        real_ns.create(waiting)
        lines.until("a-graph-left-alone", timeout=60)
        real_ns.create(scenarios.healthy(real_ns.name))
        # the operator reports it, its pods come up, it becomes Ready: a row for each change
        lines.until("successful     2/2", timeout=90)
    finally:
        _, err = _interrupt(proc)
    assert proc.returncode == 130, err
    header, alone, *rows = lines.all().splitlines()
    assert alone.startswith("a-graph-left-alone   initializing")
    assert header.split() == [
        "NAME", "STATE", "READY", "REPLICAS", "GPUS", "RESTART", "ROLLOUT", "AGE", "OBSERVED",
    ]  # fmt: skip
    assert len(rows) >= 3 and not any(r.startswith("NAME") for r in rows), rows
    states = [r.split()[1] for r in rows if r.startswith("healthy ")]
    assert states[0] == "initializing" and states[-1] == "successful", rows
    for row in rows:
        # the state widened from "pending" to "initializing" and back: never out of line
        assert _starts(row) == _starts(header), (header, row)
        assert TIME.fullmatch(row.split()[-1]), row
    times = [r.split()[-1] for r in rows]
    assert times == sorted(times)  # seen in order (one test, well within a day)
