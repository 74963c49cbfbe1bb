"""Offline core benchmarks, each measured side by side with its baseline in the same run.

1. Start-up: ``kubectl-dgd validate one.yaml`` against ``python -c "import click, pydantic,
   ruamel.yaml"`` (the libraries any such CLI loads), interleaved, median of RUNS each.
   Target: at most 1.3x. The slowest imports of the validate command are listed beside it.
2. Throughput: validating 500 five-component graphs in one stream against parsing the same
   stream with ruamel's C-based safe loader (``YAML(typ="safe", pure=False).load_all``).
   Target: at most 3x. Where the time goes (parse, then each layer) is timed in-process.

Run alone: ``.venv/bin/python bench/bench_core.py``; ``BENCH_RUNS`` sets the start-up runs.
"""

from __future__ import annotations

import io
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ONE_GRAPH = ROOT / "manifests" / "examples" / "vllm-agg.yaml"
STARTUP_RUNS = int(os.environ.get("BENCH_RUNS", "15"))
STREAM_RUNS = 3
GRAPHS = 500

Row = tuple[str, str]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _wall(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def _interleaved(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall time per command; the commands take turns so that drift hits all alike."""
    for argv in commands.values():  # warm the page cache
        _wall(argv)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(_wall(argv))
    return {name: statistics.median(values) for name, values in times.items()}


def slowest_imports(argv: list[str], top: int = 10) -> list[tuple[str, float, float]]:
    """(module, self ms, cumulative ms) of the imports with the most time of their own."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, check=False
    )
    entries = []
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if match:
            self_us, cumulative_us, module = match.groups()
            entries.append((module, int(self_us) / 1000, int(cumulative_us) / 1000))
    return sorted(entries, key=lambda e: -e[1])[:top]


def startup() -> list[Row]:
    validate = [str(BIN / "kubectl-dgd"), "validate", str(ONE_GRAPH)]
    commands = {
        "kubectl-dgd validate one.yaml": validate,
        'python -c "import click, pydantic, ruamel.yaml"': [
            sys.executable,
            "-c",
            "import click, pydantic, ruamel.yaml",
        ],
        'python -c "pass"': [sys.executable, "-c", "pass"],
        "kubectl-dgd --version": [str(BIN / "kubectl-dgd"), "--version"],
    }
    medians = _interleaved(commands, STARTUP_RUNS)
    rows = [(f"{name} (median of {STARTUP_RUNS})", _ms(t)) for name, t in medians.items()]
    ratio = (
        medians["kubectl-dgd validate one.yaml"]
        / medians['python -c "import click, pydantic, ruamel.yaml"']
    )
    rows.append(("start-up ratio, validate / imports (target <= 1.3x)", f"{ratio:.2f}x"))
    script = [str(BIN / "kubectl-dgd"), "validate", str(ONE_GRAPH)]
    rows.append(("slowest imports of validate (python -X importtime, one run):", ""))
    for module, self_ms, cumulative_ms in slowest_imports(script):
        rows.append(
            (f"  {module}", f"self {self_ms:.1f} ms, with its imports {cumulative_ms:.1f} ms")
        )
    return rows


# --- throughput ------------------------------------------------------------------------------

_COMPONENT = """\
    - name: {name}
      type: {type}
      replicas: {replicas}
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.{patch}
              command: ["python3", "-m", "{module}"]
              args:
                - --model
                - Qwen/Qwen3-0.6B
              env:
                - name: DYN_LOG
                  value: info
              resources:
                limits:
                  memory: 32Gi
                  nvidia.com/gpu: "{gpus}"
"""
_SHAPES = [
    ("Frontend", "frontend", "dynamo.frontend", 0),
    ("Planner", "planner", "dynamo.planner.planner_sla", 0),
    ("VllmPrefillWorker", "prefill", "dynamo.vllm", 1),
    ("VllmDecodeWorker", "decode", "dynamo.vllm", 2),
    ("VllmAggWorker", "worker", "dynamo.vllm", 1),
]


def graph_stream(count: int = GRAPHS) -> str:
    """``count`` five-component graphs as one ``---``-separated stream (about 1.4 MB for 500)."""
    parts = []
    for i in range(count):
        head = (
            f"---\napiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n"
            f"metadata:\n  name: graph-{i}\n  namespace: team-{i % 7}\n"
            f"  labels:\n    team: team-{i % 7}\n"
            f"spec:\n  backendFramework: vllm\n  env:\n    - name: DYN_NAMESPACE_PREFIX\n"
            f"      value: g{i}\n  components:\n"
        )
        components = "".join(
            _COMPONENT.format(
                name=name,
                type=kind,
                module=module,
                gpus=gpus,
                replicas=1 + i % 3,
                patch=i % 10,
            )
            for name, kind, module, gpus in _SHAPES
        )
        parts.append(head + components)
    return "".join(parts)


def _ruamel_safe_c(text: str) -> int:
    from ruamel.yaml import YAML

    return len(list(YAML(typ="safe", pure=False).load_all(io.StringIO(text))))


def _ours(text: str) -> tuple[int, int]:
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.adapters.yamlload import load_text
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.usecases.validate import validate_documents

    report = validate_documents(load_text(text, "stream.yaml"), bundled_schemas(), Profile())
    return report.summary.graphs, report.summary.valid


def _median_time(func: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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
    """Parse, then each pipeline stage, timed inside one in-process run."""
    from contextlib import ExitStack

    from kubectl_dgd.adapters import yamlload
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.core.validate import cel, lint, pipeline, schema, webhook
    from kubectl_dgd.usecases import validate as usecase

    totals: dict[str, float] = {}
    stages = [
        (yamlload, "load_text", "parse (C composer + line maps)"),
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
        docs = yamlload.load_text(text, "stream.yaml")
        usecase.validate_documents(docs, bundled_schemas(), Profile())
        total = time.perf_counter() - started
    rows = [(f"  {label}", f"{_ms(totals.get(label, 0.0))}") for _, _, label in stages]
    rest = total - sum(totals.values())
    rows.append(("  other (report, line lookup, glue)", _ms(rest)))
    rows.append(("  total in-process", _ms(total)))
    return rows


def throughput() -> list[Row]:
    text = graph_stream()
    _ours(text)  # warm: bundled schema, compiled CEL rules
    ruamel_times: list[float] = []
    our_times: list[float] = []
    graphs = valid = 0
    for _ in range(STREAM_RUNS):  # interleaved, as for start-up
        ruamel_times.append(_median_time(lambda: _ruamel_safe_c(text), 1))
        started = time.perf_counter()
        graphs, valid = _ours(text)
        our_times.append(time.perf_counter() - started)
    ruamel_s, ours_s = statistics.median(ruamel_times), statistics.median(our_times)
    with tempfile.TemporaryDirectory() as tmp:
        stream_file = Path(tmp) / "stream.yaml"
        stream_file.write_text(text)
        cli_s = _wall([str(BIN / "kubectl-dgd"), "validate", str(stream_file)])
    size = f"{len(text.encode()) / 1e6:.2f} MB"
    rows = [
        (f"stream: {GRAPHS} graphs x 5 components", f"{size}; {graphs} validated, {valid} valid"),
        (f"ruamel safe C loader, load_all (median of {STREAM_RUNS})", _ms(ruamel_s)),
        (f"validate in-process: parse + all layers (median of {STREAM_RUNS})", _ms(ours_s)),
        ("throughput ratio, validate / C safe load (target <= 3x)", f"{ours_s / ruamel_s:.2f}x"),
        ("kubectl-dgd validate stream.yaml (one run, with start-up)", _ms(cli_s)),
        ("where the time goes (one in-process run):", ""),
    ]
    rows.extend(breakdown(text))
    return rows


def run() -> list[Row]:
    return [*startup(), ("", ""), *throughput()]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for label, value in run():
        print(f"{label:70} {value}")
