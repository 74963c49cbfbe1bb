"""Argo CD plugin: ``dgd-argocd generate`` vs ``kubectl kustomize`` over the same 200 graph files.

kustomize is Argo CD's native path for plain manifests, so it is the bar. Both run as
subprocesses over one temporary application, alternating, several times; we report the median
wall time of each, their ratio, and the peak resident memory of each child process.
Figures only, no assertions:  .venv/bin/python bench/bench_argocd.py [--runs 5] [--graphs 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--graphs", type=int, default=200)
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
        plugin_env = argocd_env("apps/plugin")
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
    ours_median = statistics.median(plugin_times)
    theirs_median = statistics.median(kust_times)
    print(
        f"input: {args.graphs} graph files of 5 components, {size / 1024:.0f} KiB; {args.runs} runs"
    )
    print(f"{'':22}{'median s':>10}{'min s':>8}{'max s':>8}{'peak RSS MiB':>14}")
    for label, times, rss in (
        ("dgd-argocd generate", plugin_times, plugin_rss),
        ("kubectl kustomize", kust_times, kust_rss),
    ):
        print(
            f"{label:22}{statistics.median(times):>10.3f}{min(times):>8.3f}{max(times):>8.3f}"
            f"{max(rss) / 1024:>14.1f}"
        )
    print(
        f"ratio generate / kustomize (median): {ours_median / theirs_median:.2f}x (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
