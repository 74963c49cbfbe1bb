"""Argo CD ``generate`` against ``kubectl kustomize`` up the 20 / 200 / 2000-file ladder.

Each rung runs ``bench_argocd.py --graphs N --runs RUNS`` (that module owns the application,
the two commands and their memory figures; this one only reads its table), then the ratio of the
two minimums goes next to its target (<= 1.2x at 20 files, <= 1.0x at 200) and the scaling
exponent of each tool between rungs is printed (1.0 = linear).

Run: ``.venv/bin/python bench/run.py ladder``; ``BENCH_LADDER=20,200`` picks rungs.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from measure import RUNS, Row, child_env, exponent, target  # noqa: E402

# bench_argocd.py is measured here, rung by rung: `make bench` does not run it a second time.
DRIVES = ["bench_argocd"]
RUNGS = [int(n) for n in os.environ.get("BENCH_LADDER", "20,200,2000").split(",")]
TARGETS = {20: 1.2, 200: 1.0}
_ROW = re.compile(
    r"^(dgd-argocd generate|kubectl kustomize)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
)


def rung(files: int) -> dict[str, tuple[float, float, float, float]]:
    """{tool: (median s, min s, max s, peak tree PSS MiB)} of one rung."""
    script = Path(__file__).resolve().parent / "bench_argocd.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--graphs", str(files), "--runs", str(RUNS)],
        capture_output=True,
        text=True,
        check=False,
        env=child_env(),
    )
    found: dict[str, tuple[float, float, float, float]] = {}
    for line in proc.stdout.splitlines():
        match = _ROW.match(line.strip())
        if match:
            found[match[1]] = (float(match[2]), float(match[3]), float(match[4]), float(match[5]))
    if len(found) != 2:
        raise RuntimeError(f"bench_argocd.py --graphs {files}: no table ({proc.stderr[-300:]})")
    return found


def run() -> list[Row]:
    rows: list[Row] = []
    mins: dict[int, tuple[float, float]] = {}
    for files in RUNGS:
        try:
            figures = rung(files)
        except RuntimeError as err:
            rows.append((f"{files} files", f"TODO: not measured: {err}"))
            continue
        ours, theirs = figures["dgd-argocd generate"], figures["kubectl kustomize"]
        mins[files] = (ours[1], theirs[1])
        for tool, (median, low, high, pss) in figures.items():
            rows.append(
                (
                    f"{files} files: {tool}",
                    f"min {low * 1000:.0f} ms (median {median * 1000:.0f}, max {high * 1000:.0f}; "
                    f"{RUNS} runs); peak tree PSS {pss:.0f} MiB",
                )
            )
        label = f"Argo CD: generate / kustomize, {files} files (min/min)"
        if files in TARGETS:
            rows.append(target(label, ours[1] / theirs[1], TARGETS[files]))
        else:
            rows.append((label, f"{ours[1] / theirs[1]:.2f}x  (no target)"))
    measured = sorted(mins)
    for small, large in itertools.pairwise(measured):
        (o1, k1), (o2, k2) = mins[small], mins[large]
        rows.append(
            (
                f"scaling exponent {small} -> {large} files (1.0 = linear)",
                f"generate {exponent(small, o1, large, o2):.2f}, "
                f"kustomize {exponent(small, k1, large, k2):.2f}",
            )
        )
    return rows
