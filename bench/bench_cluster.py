"""Live-command figures: API requests per command (and for tree, events and why again at 10x
the pods: the counts must not grow), and ``kubectl dgd status NAME`` against
``kubectl get dgd NAME -o json`` on the same test API server (interleaved, min of RUNS; target
<= 2.0x), with the breakdown of its start-up: the interpreter, urllib3 (the client's transport),
what ``adapters/kubeclient.py`` loads of ``kubernetes`` against ``import kubernetes``, and the
collector settings (``kubectl_dgd/startup/gcpolicy.py``) against Python's defaults, in time and memory.

Figures only, no assertions on time. Run: ``.venv/bin/python bench/run.py cluster``.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from measure import (  # noqa: E402
    BIN,
    ROOT,
    RUNS,
    Row,
    child_env,
    modes,
    peak_rss,
    side_by_side,
    spread,
    target,
    with_plain,
)

COMMANDS: list[tuple[str, list[str]]] = [
    ("status NAME", ["status", "my-graph"]),
    ("list", ["list"]),
    ("list -A", ["list", "-A"]),
    ("rollout status NAME (settled)", ["rollout", "status", "my-graph"]),
    ("status NAME --events", ["status", "my-graph", "--events"]),
    # before the restart: a restart the operator has not picked up is a finding (exit 1)
    ("why NAME", ["why", "my-graph"]),
    ("restart NAME --parallel", ["restart", "my-graph", "--parallel"]),
    ("tree NAME", ["tree", "my-graph"]),
    ("events NAME", ["events", "my-graph"]),
    ("gpus -A", ["gpus", "-A"]),
]
# Commands whose request count must not grow with the pods: counted again at 10x the pods.
PER_POD_BOUNDED = ("tree NAME", "events NAME", "why NAME")

# What a live command loads of the client (adapters/kubeclient.py), in a bare interpreter.
KUBECLIENT = "from kubectl_dgd.adapters.kubeclient import kube; kube()"
# The same command with Python's own collector settings: the CLI's gcpolicy hooks made no-ops.
DEFAULT_GC = (
    "import sys, kubectl_dgd.startup.gcpolicy as g; g.loading = lambda: None; "
    "sys.argv = ['kubectl-dgd', *sys.argv[1:]]; from kubectl_dgd.cli.entry import main; main()"
)


def _run(argv: list[str], env: dict[str, str]) -> None:
    proc = subprocess.run(argv, capture_output=True, env=env, check=False, timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.decode()}")


def _counts(server: Any, env: dict[str, str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for label, args in COMMANDS:
        if label in PER_POD_BOUNDED:
            server.clear_log()
            _run([str(BIN / "kubectl-dgd"), *args], env)
            found[label] = [r.verb for r in server.request_log]
    return found


def _pods_type() -> Any:
    return importlib.import_module("tests.apiserver.resources").PODS


def _scale_decode(server: Any, sim: Any, factor: int) -> None:
    """decode's replicas times ``factor``, and the simulated operator's pods for them."""
    dgd = importlib.import_module("tests.apiserver.resources").DGD

    def scale(obj: dict[str, Any]) -> dict[str, Any]:
        for component in obj["spec"]["components"]:
            if component["name"] == "decode":
                component["replicas"] = int(component.get("replicas", 1)) * factor
        return obj

    server.store.patch(dgd, "dynamo", "my-graph", scale)
    sim.settle()


def _phases(env: dict[str, str]) -> list[Row]:
    """status NAME phase by phase in one process (bench/status_phases.py), min of RUNS each;
    what the process spends outside them (the interpreter's start-up and exit) is its wall
    time less their sum, run by run."""
    script = str(Path(__file__).resolve().parent / "status_phases.py")
    runs, outside = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, script, "my-graph"], capture_output=True, env=env, check=True
        )
        wall = (time.perf_counter() - started) * 1000
        runs.append(json.loads(proc.stdout))
        outside.append(wall - runs[-1]["in process, all of the above"])
    best = {label: min(run[label] for run in runs) for label in runs[0]}
    rows: list[Row] = [(f"  status NAME in phases, in process (min of {RUNS} runs each):", "")]
    rows.extend((f"    {label}", f"{value:.1f} ms") for label, value in best.items())
    rows.append(("    outside them: the interpreter's start-up and exit", f"{min(outside):.1f} ms"))
    return rows


def run() -> list[Row]:
    server_mod: Any = importlib.import_module("tests.apiserver.server")
    graphs: Any = importlib.import_module("tests.cluster.conftest")
    server = server_mod.ApiServer().start()
    rows: list[Row] = []
    try:
        kubeconfig = Path(tempfile.mkdtemp()) / "kubeconfig"
        server.write_kubeconfig(kubeconfig, namespace="dynamo")
        server.seed(graphs.graph())
        children: Any = importlib.import_module("tests.apiserver.children")
        for name in ("gpu-a", "gpu-b", "gpu-c"):  # the scheduler places pods; gpus lists them
            server.seed(children.gpu_node(name, 8))
        # the children the operator builds (pods included), so that tree lists real objects
        sim: Any = importlib.import_module("tests.apiserver.operator_sim").OperatorSim(
            server.store, children=True
        )
        sim.settle()
        env = child_env({"KUBECONFIG": str(kubeconfig), "NO_COLOR": "1"})

        rows.append(("API requests per command (discovery included):", ""))
        for label, args in COMMANDS:
            server.clear_log()
            _run([str(BIN / "kubectl-dgd"), *args], env)
            verbs = [r.verb for r in server.request_log]
            rows.append((f"  {label}", f"{len(verbs)}  ({', '.join(verbs)})"))
        sim.settle()  # the operator takes up the restart: the graph is Ready again
        counts = {label: len(verbs) for label, verbs in _counts(server, env).items()}
        few = sum(1 for _ in server.store.list(_pods_type(), "dynamo")[0])
        _scale_decode(server, sim, 10)
        many = sum(1 for _ in server.store.list(_pods_type(), "dynamo")[0])
        for label, count in _counts(server, env).items():
            rows.append(
                (
                    f"  {label}: {few} pods -> {many} pods",
                    f"{counts[label]} -> {len(count)} requests",
                )
            )

        ours = "kubectl dgd status my-graph"
        theirs = "kubectl get dgd my-graph -o json"
        default_gc = "  the same with Python's default GC settings"
        bare, transport = 'python -c "pass"', 'python -c "import urllib3"'
        slim, full = "python -c <kubeclient.kube()>", 'python -c "import kubernetes"'
        commands, envs = with_plain(
            {
                ours: [str(BIN / "kubectl-dgd"), "status", "my-graph"],
                theirs: [str(BIN / "kubectl"), "get", "dgd", "my-graph", "-o", "json"],
                default_gc: [sys.executable, "-c", DEFAULT_GC, "status", "my-graph"],
                bare: [sys.executable, "-c", "pass"],
                transport: [sys.executable, "-c", "import urllib3"],
                slim: [sys.executable, "-c", KUBECLIENT],
                full: [sys.executable, "-c", "import kubernetes"],
            },
            [ours],
            env,
        )
        times = side_by_side(commands, env=env, envs=envs)
        rows.extend((name, spread(values)) for name, values in times.items())
        rows.append(modes(times, ours))
        rows.append(
            target(
                "live: status NAME / kubectl get -o json (min/min)",
                min(times[ours]) / min(times[theirs]),
                2.0,
            )
        )
        floor = min(times[bare])
        over = {name: (min(times[name]) - floor) * 1000 for name in (transport, slim, full)}
        rows.append(
            (
                "  over bare python: urllib3; kubeclient.kube() (urllib3 included); "
                "import kubernetes",
                f"{over[transport]:.0f} ms; {over[slim]:.0f} ms; {over[full]:.0f} ms",
            )
        )
        rows.append(
            (
                "  status NAME less bare python and kube(): our modules, the request, the output",
                f"{(min(times[ours]) - min(times[slim])) * 1000:.0f} ms",
            )
        )
        rows.extend(_phases(env))
        ours_rss = peak_rss([str(BIN / "kubectl-dgd"), "status", "my-graph"], env)
        default_rss = peak_rss([sys.executable, "-c", DEFAULT_GC, "status", "my-graph"], env)
        rows.append(
            (
                "  peak RSS of status NAME: gcpolicy; Python's default GC",
                f"{ours_rss:.1f} MiB; {default_rss:.1f} MiB",
            )
        )
    finally:
        server.stop()
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for label, value in run():
        print(f"{label:70} {value}")
