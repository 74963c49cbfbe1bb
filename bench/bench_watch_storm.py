"""Watch storm: requests per second that ``status --watch`` and ``restart --wait`` send to a server
(the test API server) that answers every ``?watch=true`` with an empty 200, as a proxy closing
idle streams does. Target: under 2 per second after the first few (issue 12; before the reflector
style backoff, 1,600 and 2,200 per second).

Figures only. Run: ``.venv/bin/python bench/bench_watch_storm.py [seconds]`` or ``make bench``.
"""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FIRST_FEW = 3  # requests not counted in the steady rate: the first watches before backoff grows


def _rate(server: Any, argv: list[str], env: dict[str, str], seconds: float) -> tuple[int, float]:
    """Run ``argv`` for ``seconds``; return (watch requests, steady requests per second)."""
    server.clear_log()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    started = time.monotonic()
    stamps: list[float] = []
    seen = 0
    while time.monotonic() - started < seconds and proc.poll() is None:
        time.sleep(0.05)
        watches = len(server.requests("watch"))
        stamps.extend([time.monotonic()] * (watches - seen))
        seen = watches
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    ended = time.monotonic()
    if len(stamps) <= FIRST_FEW:
        return len(stamps), 0.0
    return len(stamps), (len(stamps) - FIRST_FEW) / (ended - stamps[FIRST_FEW - 1])


def run(seconds: float = 20.0) -> list[tuple[str, str]]:
    sys.path.insert(0, str(ROOT))
    server_mod: Any = importlib.import_module("tests.apiserver.server")
    faults: Any = importlib.import_module("tests.apiserver.faults")
    graphs: Any = importlib.import_module("tests.cluster.conftest")
    server = server_mod.ApiServer().start()
    rows: list[tuple[str, str]] = []
    try:
        kubeconfig = Path(tempfile.mkdtemp()) / "kubeconfig"
        server.write_kubeconfig(kubeconfig, namespace="dynamo")
        server.seed(graphs.graph())
        server.faults.respond(faults.empty_watch, faults.matching(verb="watch"))
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "NO_COLOR": "1"}
        dgd = str(BIN / "kubectl-dgd")
        cases = [
            ("status --watch", [dgd, "status", "my-graph", "--watch"]),
            (
                "restart --wait",
                [dgd, "restart", "my-graph", "--parallel", "--wait", "--timeout", f"{seconds}s"],
            ),
            ("rollout status", [dgd, "rollout", "status", "my-graph", "--timeout", f"{seconds}s"]),
        ]  # rollout status waits for the restart that restart --wait requested (no operator)
        for label, argv in cases:
            total, rate = _rate(server, argv, env, seconds)
            rows.append(
                (
                    f"{label}, {seconds:g} s against empty watches",
                    f"{total} watch requests; {rate:.2f}/s after the first {FIRST_FEW}"
                    " (target < 2/s)",
                )
            )
    finally:
        server.stop()
    return rows


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    for label, value in run(seconds):
        print(f"  {label:45} {value}")


if __name__ == "__main__":
    main()
