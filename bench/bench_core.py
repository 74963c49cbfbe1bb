"""Offline figures of issue 13, each a ratio measured side by side with its yardstick.

1. Start-up (subprocesses, interleaved, min of RUNS): ``validate one.yaml`` (target <= 1.0x),
   ``--help`` (<= 0.6x), ``render -f one.yaml`` (<= 0.95x) and ``status -f saved.yaml``
   (<= 1.3x), each against ``python -c "import click, pydantic, ruamel.yaml"``; then the
   slowest imports of validate (``-X importtime``, min over the runs).
2. Throughput (in-process, min of RUNS): validating the 1000-graph stream against PyYAML's
   ``CSafeLoader`` parsing the same text (target <= 1.5x; wall time, and CPU time beside it,
   which the other processes of a shared machine disturb less); the 5000-graph stream for the
   scaling exponent; where the time goes, stage by stage; and the YAML front ends measured
   side by side: our reader (the C parser's events built into values and line maps in one
   loop), the bare event streams of ruamel's and PyYAML's C parsers, and the node composers.
3. Memory (subprocesses): peak RSS of ``kubectl-dgd validate`` on the 5000-graph stream
   (target <= 100 MiB), with the CLI's garbage-collector settings and with Python's defaults,
   which is what those settings cost; and of ``render -f`` on the 1000- and 5000-graph
   streams (flat when the output streams).

Run alone: ``.venv/bin/python bench/run.py core``.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from corpus import graph_stream  # noqa: E402
from measure import (  # noqa: E402
    BIN,
    ROOT,
    RUNS,
    Row,
    child_env,
    exponent,
    modes,
    ms,
    side_by_side,
    spread,
    target,
    with_plain,
)

ONE_GRAPH = ROOT / "manifests" / "examples" / "vllm-agg.yaml"
SAVED = ROOT / "manifests" / "examples" / "status" / "healthy.yaml"
FLOOR = 'python -c "import click, pydantic, ruamel.yaml"'
SMALL, LARGE = 1000, 5000
LARGE_RUNS = 3  # the 5000-graph stream gives an exponent, not a target: fewer runs

# A run with Python's own collector settings: the CLI's gcpolicy hooks made no-ops.
DEFAULT_GC = (
    "import sys, kubectl_dgd.startup.gcpolicy as g; g.loading = lambda: None; "
    "from kubectl_dgd.cli.entry import main; sys.argv[0] = 'kubectl-dgd'; main()"
)


def _kubectl_dgd(*args: str) -> list[str]:
    return [str(BIN / "kubectl-dgd"), *args]


def slowest_imports(argv: list[str], runs: int, top: int = 8) -> list[tuple[str, float, float]]:
    """(module, self ms, cumulative ms), each the minimum over ``runs`` runs."""
    best: dict[str, tuple[float, float]] = {}
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", *argv],
            capture_output=True,
            text=True,
            check=False,
            env=child_env(),
        )
        for line in proc.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
            if match:
                own, cumulative = int(match[1]) / 1000, int(match[2]) / 1000
                old = best.get(match[3], (own, cumulative))
                best[match[3]] = (min(old[0], own), min(old[1], cumulative))
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])[:top]
    return [(name, own, cumulative) for name, (own, cumulative) in ranked]


def startup() -> list[Row]:
    commands = {
        FLOOR: [sys.executable, "-c", "import click, pydantic, ruamel.yaml"],
        "validate one.yaml": _kubectl_dgd("validate", str(ONE_GRAPH)),
        "--help": _kubectl_dgd("--help"),
        "render -f one.yaml": _kubectl_dgd("render", "-f", str(ONE_GRAPH)),
        "status -f saved.yaml": _kubectl_dgd("status", "-f", str(SAVED)),
        'python -c "pass"': [sys.executable, "-c", "pass"],
    }
    ours = ["validate one.yaml", "--help", "render -f one.yaml", "status -f saved.yaml"]
    commands, envs = with_plain(commands, ours)
    times = side_by_side(commands, envs=envs)
    floor = min(times[FLOOR])
    rows = [(f"{name}", spread(values)) for name, values in times.items()]
    rows.append(("start-up tricks on and off (DGD_PLAIN_STARTUP=1), side by side:", ""))
    rows.extend(modes(times, name) for name in ours)
    for name, limit in (
        ("validate one.yaml", 1.0),
        ("--help", 0.6),
        ("render -f one.yaml", 0.95),
        ("status -f saved.yaml", 1.3),
    ):
        rows.append(
            target(f"start-up: {name} / imports floor (min/min)", min(times[name]) / floor, limit)
        )
    rows.append((f"slowest imports of validate one.yaml (-X importtime, min of {RUNS}):", ""))
    for module, own, cumulative in slowest_imports(
        [str(BIN / "kubectl-dgd"), "validate", str(ONE_GRAPH)], RUNS
    ):
        rows.append((f"  {module}", f"self {own:.1f} ms, with its imports {cumulative:.1f} ms"))
    return rows


# --- throughput ------------------------------------------------------------------------------


def _pyyaml_c(text: str) -> int:
    import yaml  # type: ignore[import-untyped]

    return len(list(yaml.load_all(text, Loader=yaml.CSafeLoader)))


def _pyyaml_c_compose(text: str) -> int:
    """PyYAML's C parser composing nodes (each with its start line): a front end's raw cost."""
    import yaml

    return len(list(yaml.compose_all(text, Loader=yaml.CSafeLoader)))


def _ruamel_c_compose(text: str) -> int:
    """ruamel's C composer, as ``adapters.yamlload``'s node path drives it (nodes only)."""
    from ruamel.yaml.cyaml import CSafeLoader

    loader = CSafeLoader(io.StringIO(text))
    count = 0
    while loader.check_node():
        loader.get_node()
        count += 1
    return count


def _ruamel_c_events(text: str) -> int:
    """ruamel's C parser's events alone: the floor of our reader, which builds from them."""
    from ruamel.yaml.cyaml import CSafeLoader
    from ruamel.yaml.events import StreamEndEvent

    loader = CSafeLoader(text)
    count = 0
    while type(loader.get_event()) is not StreamEndEvent:
        count += 1
    loader.dispose()
    return count


def _pyyaml_c_events(text: str) -> int:
    """PyYAML's C parser's events alone (with marks): the other candidate front end."""
    import yaml

    parser = yaml.CSafeLoader(text)
    count = 0
    while parser.check_event():
        parser.get_event()
        count += 1
    parser.dispose()
    return count


def _our_reader(text: str) -> int:
    """``adapters.yamlload``: documents with their values and line maps (no layers)."""
    from kubectl_dgd.adapters.yamlload import iter_text

    return sum(1 for _ in iter_text(text, "stream.yaml"))


def _ruamel_c_load(text: str) -> int:
    from ruamel.yaml import YAML

    return len(list(YAML(typ="safe", pure=False).load_all(io.StringIO(text))))


def _ours(text: str) -> tuple[int, int]:
    """What ``validate`` does with one stream: documents read one at a time, each through
    every layer, then dropped."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.adapters.yamlload import iter_text
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.usecases.validate import validate_documents

    report = validate_documents(iter_text(text, "stream.yaml"), bundled_schemas(), Profile())
    return report.summary.graphs, report.summary.valid


def _timed_runs(
    funcs: dict[str, Callable[[], object]],
    runs: int,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(runs):
        for name, func in funcs.items():
            started = clock()
            func()
            times[name].append(clock() - started)
    return times


@contextmanager
def _timed(owner: Any, attr: str, totals: dict[str, float], label: str) -> Iterator[None]:
    original = getattr(owner, attr)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[label] = totals.get(label, 0.0) + time.perf_counter() - started

    setattr(owner, attr, wrapper)
    try:
        yield
    finally:
        setattr(owner, attr, original)


def breakdown(text: str) -> list[Row]:
    """Parse, then each pipeline stage, timed inside one in-process run (stages do not nest)."""
    from kubectl_dgd.adapters import yamlload
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.core.validate import cel, lint, pipeline, schema, webhook
    from kubectl_dgd.usecases import validate as usecase

    totals: dict[str, float] = {}
    stages = [
        (yamlload, "load_text", "parse (C parser events -> values + line maps)"),
        (pipeline, "apply_defaults", "defaults (structural + mutating webhook)"),
        (schema, "check", "schema layer"),
        (cel, "check", "cel layer"),
        (webhook, "check_create", "webhook layer"),
        (lint, "check", "lint layer"),
    ]
    with ExitStack() as stack:
        for owner, attr, label in stages:
            if hasattr(owner, attr):
                stack.enter_context(_timed(owner, attr, totals, label))
        started = time.perf_counter()
        docs = yamlload.load_text(text, "stream.yaml")  # parsed whole here, to be timed apart
        usecase.validate_documents(docs, bundled_schemas(), Profile())
        total = time.perf_counter() - started
    rows = [(f"  {label}", ms(totals.get(label, 0.0))) for _, _, label in stages]
    rows.append(("  other (report, line lookup, glue)", ms(total - sum(totals.values()))))
    rows.append(("  total in-process", ms(total)))
    return rows


def throughput() -> list[Row]:
    small, large = graph_stream(SMALL), graph_stream(LARGE)
    graphs, valid = _ours(small)  # warm: bundled schema, compiled CEL rules, caches
    validate, floor = "validate (parse + every layer)", "PyYAML CSafeLoader load_all"
    reader, events = "our reader (events -> values + line maps)", "ruamel C parser events alone"
    times = _timed_runs(
        {
            validate: lambda: _ours(small),
            floor: lambda: _pyyaml_c(small),
            reader: lambda: _our_reader(small),
            events: lambda: _ruamel_c_events(small),
            "PyYAML C parser events alone": lambda: _pyyaml_c_events(small),
            "ruamel C composer (nodes, marks)": lambda: _ruamel_c_compose(small),
            "PyYAML CSafeLoader compose_all (nodes, marks)": lambda: _pyyaml_c_compose(small),
            "ruamel YAML(typ=safe) C load_all": lambda: _ruamel_c_load(small),
        },
        RUNS,
    )
    cpu = _timed_runs(
        {validate: lambda: _ours(small), floor: lambda: _pyyaml_c(small)}, RUNS, time.process_time
    )
    big = _timed_runs(
        {"validate": lambda: _ours(large), "PyYAML": lambda: _pyyaml_c(large)},
        LARGE_RUNS,
        time.process_time,
    )
    ours, pyyaml = min(times[validate]), min(times[floor])
    ours_big, pyyaml_big = min(big["validate"]), min(big["PyYAML"])
    ours_cpu, pyyaml_cpu = min(cpu[validate]), min(cpu[floor])
    rows: list[Row] = [
        (
            f"stream: {SMALL} graphs x 5 components",
            f"{len(small.encode()) / 1e6:.2f} MB; {graphs} validated, {valid} valid",
        ),
    ]
    rows.extend((f"{SMALL}: {name}", spread(values)) for name, values in times.items())
    rows.append(
        target(f"throughput: validate / PyYAML CSafeLoader, {SMALL} graphs", ours / pyyaml, 1.5)
    )
    rows.append(
        (
            f"  the same in CPU time (process_time, min of {RUNS})",
            f"{ms(ours_cpu)} / {ms(pyyaml_cpu)} = {ours_cpu / pyyaml_cpu:.2f}x",
        )
    )
    rows.append(
        (
            f"{LARGE}: validate / PyYAML (CPU time, min of {LARGE_RUNS})",
            f"{ms(ours_big)} / {ms(pyyaml_big)} = {ours_big / pyyaml_big:.2f}x",
        )
    )
    rows.append(
        (
            f"scaling exponent {SMALL} -> {LARGE} graphs, CPU time (1.0 = linear)",
            f"validate {exponent(SMALL, ours_cpu, LARGE, ours_big):.2f}, "
            f"PyYAML {exponent(SMALL, pyyaml_cpu, LARGE, pyyaml_big):.2f}",
        )
    )
    read, parsed = min(times[reader]), min(times[events])
    rows.append(
        (
            "front end: ruamel C parser events + our one-loop builder (values, line map)",
            f"{ms(parsed)} + {ms(read - parsed)} = {ms(read)} ({read / pyyaml:.2f}x of PyYAML); "
            f"PyYAML's events instead: {ms(min(times['PyYAML C parser events alone']))}",
        )
    )
    stages = breakdown(small)
    parse_ms = float(stages[0][1].removesuffix(" ms")) / 1000
    rows.append(
        (
            "  validate / PyYAML if the parse cost nothing (the layers alone)",
            f"{(ours - parse_ms) / pyyaml:.2f}x",
        )
    )
    rows.append((f"where the time goes ({SMALL} graphs, one in-process run):", ""))
    rows.extend(stages)
    return rows


# --- memory ----------------------------------------------------------------------------------


# Run by a fresh small interpreter: Linux carries the RSS of the process that execs into the
# child's ru_maxrss (the exec'ing child shares or copies its parent's memory first), so a child
# spawned by this benchmark, by then hundreds of MiB, would report this process's size.
_PROBE = (
    "import os, subprocess, sys, time; started = time.perf_counter(); "
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
    "_, _, usage = os.wait4(p.pid, 0); print(usage.ru_maxrss, time.perf_counter() - started)"
)


def _peak_rss_mib(argv: list[str]) -> tuple[float, float]:
    """Peak RSS (MiB) and wall seconds of one child, as its own rusage (wait4) gives them."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        capture_output=True,
        text=True,
        check=True,
        env=child_env(),
    )
    kib, seconds = proc.stdout.split()
    return int(kib) / 1024, float(seconds)


def memory() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        stream = Path(tmp) / "stream.yaml"
        stream.write_text(graph_stream(LARGE))
        tuned, tuned_s = _peak_rss_mib(_kubectl_dgd("validate", str(stream)))
        default, default_s = _peak_rss_mib(
            [sys.executable, "-c", DEFAULT_GC, "validate", str(stream)]
        )
        small = Path(tmp) / "small.yaml"
        small.write_text(graph_stream(SMALL))
        rendered = {
            n: _peak_rss_mib(_kubectl_dgd("render", "-f", str(p)))
            for n, p in ((SMALL, small), (LARGE, stream))
        }
    return [
        target(f"peak RSS, kubectl-dgd validate one {LARGE}-graph stream", tuned, 100, " MiB"),
        (
            "  the same with Python's default GC settings (cost of the CLI's settings)",
            f"{default:.0f} MiB; wall {tuned_s:.1f} s tuned vs {default_s:.1f} s default (one run)",
        ),
        (
            f"peak RSS, kubectl-dgd render -f one {SMALL}- and one {LARGE}-graph stream",
            f"{rendered[SMALL][0]:.0f} MiB and {rendered[LARGE][0]:.0f} MiB "
            f"(wall {rendered[SMALL][1]:.1f} s and {rendered[LARGE][1]:.1f} s; one run each)",
        ),
    ]


def run() -> list[Row]:
    return [*startup(), ("", ""), *throughput(), ("", ""), *memory()]


if __name__ == "__main__":
    for label, value in run():
        print(f"{label:70} {value}")
