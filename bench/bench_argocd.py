"""Argo CD plugin: ``dgd-argocd generate`` vs ``kubectl kustomize`` over the same 200 graph files.

kustomize is Argo CD's native path for plain manifests, so it is the bar. Both run as
subprocesses over one temporary application, alternating, several times; we report the median
wall time of each and their ratio. Memory comes from one extra run of each, sampled every 10 ms:
the peak of the summed proportional set size (PSS) of the process and all its descendants, so
the forked workers of a large application count once each and their shared pages are not
counted twice (the figure a sidecar's memory limit is about); and the largest single process
(ru_maxrss).
Figures only, no assertions:  .venv/bin/python bench/bench_argocd.py [--runs 5] [--graphs 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one child. Reaping it with wait4 gives that child's
    own rusage; getrusage(RUSAGE_CHILDREN) would report the largest child so far."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=devnull, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[0]} failed with exit code {proc.returncode}")
    return elapsed, int(usage.ru_maxrss)


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc; empty when it has gone)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            with open(f"/proc/{current}/task/{current}/children") as fh:
                todo.extend(int(child) for child in fh.read().split())
        except OSError:
            continue
    return found


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _peak_tree_pss(argv: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Peak summed PSS (KiB) of one child and its descendants, sampled every 10 ms."""
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=devnull, stderr=subprocess.DEVNULL)
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, sum(_pss_kib(pid) for pid in _tree(proc.pid)))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample)
        sampler.start()
        proc.wait()
        done.set()
        sampler.join()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--graphs", type=int, default=200)
    parser.add_argument(
        "--workers", type=int, default=0, help="DGD_WORKERS for the plugin (0: its default)"
    )
    args = parser.parse_args()
    from tests.argocd.harness import argocd_env, write_large_repo

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_large_repo(root, args.graphs)
        app = root / "apps" / "large"
        files = sorted(p.name for p in app.glob("*.yaml"))
        (app / "kustomization.yaml").write_text(
            "resources:\n" + "".join(f"  - {name}\n" for name in files)
        )
        size = sum((app / n).stat().st_size for n in files)
        env = argocd_env("apps/large")
        # kustomization.yaml is itself read by generate: keep the plugin's input the graphs only.
        plugin_app = root / "apps" / "plugin"
        plugin_app.mkdir()
        for name in files:
            (plugin_app / name).write_bytes((app / name).read_bytes())
        plugin_env = argocd_env(
            "apps/plugin",
            sidecar_env={"DGD_WORKERS": str(args.workers)} if args.workers else None,
        )
        ours = [str(BIN / "dgd-argocd"), "generate"]
        theirs = [str(BIN / "kubectl"), "kustomize", "."]
        plugin_times, plugin_rss, kust_times, kust_rss = [], [], [], []
        _run(ours, plugin_app, plugin_env)  # warm the file cache and byte code once
        _run(theirs, app, env)
        for _ in range(args.runs):
            t, m = _run(ours, plugin_app, plugin_env)
            plugin_times.append(t)
            plugin_rss.append(m)
            t, m = _run(theirs, app, env)
            kust_times.append(t)
            kust_rss.append(m)
        plugin_pss = _peak_tree_pss(ours, plugin_app, plugin_env)
        kust_pss = _peak_tree_pss(theirs, app, env)
    ours_median = statistics.median(plugin_times)
    theirs_median = statistics.median(kust_times)
    print(
        f"input: {args.graphs} graph files of 5 components, {size / 1024:.0f} KiB; {args.runs} runs"
    )
    print(
        f"{'':22}{'median s':>10}{'min s':>8}{'max s':>8}"
        f"{'peak tree PSS MiB':>19}{'largest process RSS MiB':>25}"
    )
    for label, times, rss, pss in (
        ("dgd-argocd generate", plugin_times, plugin_rss, plugin_pss),
        ("kubectl kustomize", kust_times, kust_rss, kust_pss),
    ):
        print(
            f"{label:22}{statistics.median(times):>10.3f}{min(times):>8.3f}{max(times):>8.3f}"
            f"{pss / 1024:>19.1f}{max(rss) / 1024:>25.1f}"
        )
    print(
        f"ratio generate / kustomize (median): {ours_median / theirs_median:.2f}x (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
