"""Live-command benchmark: API requests per command, and ``kubectl dgd status NAME`` against
``kubectl get dgd NAME -o json`` on the same test API server (median of N runs, side by side).

Figures only, no assertions on time. Run: ``.venv/bin/python bench/bench_cluster.py [N]``.
"""

from __future__ import annotations

import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COMMANDS: list[tuple[str, list[str]]] = [
    ("status NAME", ["status", "my-graph"]),
    ("list", ["list"]),
    ("list -A", ["list", "-A"]),
    ("rollout status NAME (settled)", ["rollout", "status", "my-graph"]),
    ("status NAME --events", ["status", "my-graph", "--events"]),
    ("restart NAME --parallel", ["restart", "my-graph", "--parallel"]),
    ("tree NAME", ["tree", "my-graph"]),
    ("events NAME", ["events", "my-graph"]),
]


def _run(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, env=env, check=False, timeout=120)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode()}")
    return elapsed


def main(runs: int = 11) -> None:
    sys.path.insert(0, str(ROOT))
    server_mod: Any = importlib.import_module("tests.apiserver.server")
    graphs: Any = importlib.import_module("tests.cluster.conftest")
    server = server_mod.ApiServer().start()
    try:
        kubeconfig = Path(tempfile.mkdtemp()) / "kubeconfig"
        server.write_kubeconfig(kubeconfig, namespace="dynamo")
        server.seed(graphs.graph())
        # the children the operator builds (pods included), so that tree lists real objects
        sim: Any = importlib.import_module("tests.apiserver.operator_sim")
        sim.OperatorSim(server.store, children=True).settle()
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "NO_COLOR": "1"}

        print("API requests per command (discovery included):")
        for label, args in COMMANDS:
            server.clear_log()
            _run([str(BIN / "kubectl-dgd"), *args], env)
            verbs = [r.verb for r in server.request_log]
            print(f"  {label:32} {len(verbs)}  ({', '.join(verbs)})")

        ours_argv = [str(BIN / "kubectl-dgd"), "status", "my-graph"]
        kubectl_argv = [str(BIN / "kubectl"), "get", "dgd", "my-graph", "-o", "json"]
        (
            _run(ours_argv, env),
            _run(kubectl_argv, env),
        )  # warm the page cache and kubectl's discovery cache
        ours, theirs = [], []
        for _ in range(runs):
            ours.append(_run(ours_argv, env))
            theirs.append(_run(kubectl_argv, env))
        ours_ms, theirs_ms = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
        print(f"\nWall time, median of {runs} runs, side by side on the same server:")
        print(f"  kubectl dgd status my-graph        {ours_ms:7.0f} ms")
        print(f"  kubectl get dgd my-graph -o json   {theirs_ms:7.0f} ms")
        print(f"  ratio                              {ours_ms / theirs_ms:7.2f}x  (target <= 2x)")
    finally:
        server.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
