"""What every benchmark module shares: side-by-side wall times, spreads, targets, exponents.

Times on a loaded machine move by tens of percent from run to run, so a figure is the minimum
of ``RUNS`` runs (at least 7; ``BENCH_RUNS`` raises it) with the median and maximum beside it,
and a target is judged on a ratio of two minimums measured side by side (interleaved) in the
same run, so that drift in the machine's load hits both alike.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RUNS = max(7, int(os.environ.get("BENCH_RUNS", "7")))

Row = tuple[str, str]


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a measured child: byte code cached, as an installed package has it.

    ``PYTHONDONTWRITEBYTECODE`` (set in some shells and CI images) would make every run
    recompile every module of the project and time the compiler instead of the command."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra or {})
    return env


def wall(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env or child_env(),
        cwd=cwd,
        check=False,
    )
    return time.perf_counter() - started


def peak_rss(argv: list[str], env: dict[str, str] | None = None, runs: int = 3) -> float:
    """The smallest peak resident set (MiB) of ``runs`` runs of the command (``ru_maxrss``)."""
    peaks = []
    for _ in range(runs):
        proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or child_env()
        )
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped here: Popen must not wait for it again
        peaks.append(usage.ru_maxrss / 1024)
    return min(peaks)


def side_by_side(
    commands: dict[str, list[str]],
    runs: int = RUNS,
    env: dict[str, str] | None = None,
    envs: dict[str, dict[str, str]] | None = None,
) -> dict[str, list[float]]:
    """Wall times of each command, taking turns; one warm-up run each (page cache, byte code).
    ``envs``: a command's own environment, in place of ``env`` (the plain start-up's)."""
    own = envs or {}
    for name, argv in commands.items():
        wall(argv, own.get(name, env))
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(wall(argv, own.get(name, env)))
    return times


PLAIN = " (plain)"  # the same command with DGD_PLAIN_STARTUP=1: every start-up trick off


def plain_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (or the children's default) with every start-up trick off."""
    return {**(env or child_env()), "DGD_PLAIN_STARTUP": "1"}


def with_plain(
    commands: dict[str, list[str]], names: list[str], env: dict[str, str] | None = None
) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    """``commands`` plus each of ``names`` again in plain mode, right after it, and the
    environments of those (for ``side_by_side``)."""
    out: dict[str, list[str]] = {}
    envs: dict[str, dict[str, str]] = {}
    for name, argv in commands.items():
        out[name] = argv
        if name in names:
            out[name + PLAIN] = argv
            envs[name + PLAIN] = plain_env(env)
    return out, envs


def modes(times: dict[str, list[float]], name: str) -> Row:
    """One command in both modes side by side: what the start-up tricks save."""
    quick, plain = min(times[name]), min(times[name + PLAIN])
    return (
        f"  {name}: tricks / plain (min/min)",
        f"{quick * 1000:.0f} / {plain * 1000:.0f} ms = {quick / plain:.2f}x "
        f"(the tricks save {(plain - quick) * 1000:.0f} ms)",
    )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def spread(times: list[float]) -> str:
    """``min 84 ms (median 120, max 200; 7 runs)``."""
    return (
        f"min {ms(min(times))} (median {statistics.median(times) * 1000:.0f}, "
        f"max {max(times) * 1000:.0f}; {len(times)} runs)"
    )


def target(label: str, ratio: float, limit: float, unit: str = "x") -> Row:
    """A ratio next to its target (issue 13), marked met or missed."""
    verdict = "met" if ratio <= limit else "MISSED"
    figure = f"{ratio:.0f}" if unit.strip() == "MiB" else f"{ratio:.2f}"
    return (label, f"{figure}{unit}  (target <= {limit:g}{unit}: {verdict})")


def exponent(n1: float, t1: float, n2: float, t2: float) -> float:
    """The scaling exponent k of t ~ n**k between two sizes (1.0: linear)."""
    return math.log(t2 / t1) / math.log(n2 / n1)
