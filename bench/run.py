"""``make bench``: run every ``bench/bench_*.py`` module and print its figures as one table each.

The interface a benchmark module offers (all of it):

    def run() -> list[tuple[str, str]]:
        '''Measure, then return rows of (what was measured, the figure as text).'''

A row is a figure ("validate one.yaml, median of 15: 182 ms") or a ratio measured side by
side in the same run ("start-up ratio (target <= 1.3x): 1.21x"). Benchmarks report; they do
not assert, and a slow figure never fails the run. A module without ``run()`` but with a
``main()`` is called as a script would be and prints for itself.

A module may name others it runs itself (``DRIVES = ["bench_argocd"]``): those are left out
of the default set, so nothing is measured twice. Every row whose figure names a target
(``measure.target``) is repeated in one closing table, the figures of issue 13 side by side.
Children run with the byte-code cache on (``PYTHONDONTWRITEBYTECODE`` dropped), as installed.

Usage: ``.venv/bin/python bench/run.py [core cluster ladder ...]`` (default: every module).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import sysconfig
import time
import traceback
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

Row = tuple[str, str]


PURELIB = sysconfig.get_paths()["purelib"]
TARGETS: list[Row] = []


def modules(selected: list[str]) -> list[str]:
    names = sorted(p.stem for p in BENCH.glob("bench_*.py"))
    if selected:
        wanted = {s.removeprefix("bench_") for s in selected}
        return [n for n in names if n.removeprefix("bench_") in wanted]
    driven = {d for n in names for d in getattr(importlib.import_module(n), "DRIVES", [])}
    return [n for n in names if n not in driven]


def table(title: str, rows: list[Row]) -> str:
    width = max((len(label) for label, _ in rows), default=0)
    lines = [title, "-" * len(title)]
    lines.extend(f"  {label.ljust(width)}  {value}" for label, value in rows)
    return "\n".join(lines)


def run_module(name: str) -> None:
    module = importlib.import_module(name)
    started = time.perf_counter()
    runner: Callable[[], list[Row]] | None = getattr(module, "run", None)
    try:
        if runner is not None:
            rows = runner()
            TARGETS.extend(row for row in rows if "(target <=" in row[1])
            title = f"{name} ({time.perf_counter() - started:.1f} s)"
            print(table(title, rows), flush=True)
        elif hasattr(module, "main"):
            print(f"{name}\n{'-' * len(name)}", flush=True)
            saved, sys.argv = sys.argv, [str(BENCH / f"{name}.py")]  # as if run as a script
            try:
                module.main()
            finally:
                sys.argv = saved
        else:
            print(f"{name}: no run() or main(); skipped")
    except (Exception, SystemExit) as err:  # one failing benchmark does not hide the others
        print(f"{name}: failed: {err}")
        traceback.print_exc(limit=3)
    print()


def main(argv: list[str]) -> None:
    sys.path[:0] = [str(BENCH), str(ROOT)]
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # Byte code for the project and every installed package, as an install has it: a venv made
    # under PYTHONDONTWRITEBYTECODE has none, and each first import would time the compiler.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", str(ROOT / "kubectl_dgd"), PURELIB],
        stdout=subprocess.DEVNULL,
        check=False,
    )
    names = modules(argv)
    if not names:
        raise SystemExit(f"no benchmark matches {argv}; have: {', '.join(modules([]))}")
    for name in names:
        run_module(name)
    if TARGETS:
        print(table("Targets of issue 13 (ratios of minimums, measured side by side)", TARGETS))


if __name__ == "__main__":
    main(sys.argv[1:])
