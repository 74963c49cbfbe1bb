"""The design card's libraries: what each costs to import, and what pydantic would add where
it was a candidate (the README's "Dependencies" section quotes these figures).

CPU time (user + system of the child), not wall time: the figures must hold on a machine other
engineers keep busy. Import costs are measured inside a fresh interpreter around the import
alone (median of RUNS); start-ups are whole commands taking turns, min and median of RUNS.

    .venv/bin/python bench/bench_libraries.py      (BENCH_RUNS=15 for the README's figures)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import BIN, ROOT, RUNS, Row, child_env

PY = str(BIN / "python")
EXAMPLES = ROOT / "manifests" / "examples"

IMPORTS = {
    "click": "import click",
    "ruamel.yaml": "from ruamel.yaml import YAML",
    "kubernetes": "from kubernetes import client, config",
    "deepdiff": "from deepdiff import DeepDiff",
    "semver": "import semver",
    "pydantic": "from pydantic import BaseModel",
    "pytest": "import pytest",
}

# What taking the Argo CD parameters through pydantic costs at the least: the import, one model
# of the seven parameters, one validation (what read_settings does with the hand-written table).
PYDANTIC_SETTINGS = """
from typing import Literal
from pydantic import BaseModel, ConfigDict
class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    restart_id: str | None = None
    restart_strategy: Literal["Sequential", "Parallel"] | None = None
    provider: Literal["grove", "component"] | None = None
    operator_version: str = "1.4"
    lpx: bool = False
    strict: bool = False
    children: Literal["none", "preview"] = "none"
Settings.model_validate({"restart_id": "r1", "lpx": True})
"""


def cpu(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    """User + system CPU seconds of one run of ``argv``."""
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env or child_env(),
        cwd=cwd,
    )
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped here
    return usage.ru_utime + usage.ru_stime


def import_cost(statement: str, runs: int) -> list[float]:
    """CPU seconds of ``statement`` alone, in a fresh interpreter each run."""
    probe = f"import time\nt = time.process_time()\n{statement}\nprint(time.process_time() - t)"
    subprocess.run([PY, "-c", probe], capture_output=True, env=child_env(), check=False)  # warm
    return [
        float(
            subprocess.run(
                [PY, "-c", probe], capture_output=True, text=True, env=child_env(), check=True
            ).stdout
        )
        for _ in range(runs)
    ]


def interleaved(
    commands: dict[str, list[str]], runs: int, env: dict[str, str]
) -> dict[str, list[float]]:
    for argv in commands.values():
        cpu(argv, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(cpu(argv, env))
    return times


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def run() -> list[Row]:
    runs = max(RUNS, 15)
    rows: list[Row] = []
    for name, statement in IMPORTS.items():
        times = import_cost(statement, runs)
        rows.append(
            (f"import {name}", f"median {_ms(statistics.median(times))} ms CPU ({runs} runs)")
        )
    times = import_cost(PYDANTIC_SETTINGS, runs)
    rows.append(
        (
            "pydantic: import + Argo CD Settings model + one validation",
            f"median {_ms(statistics.median(times))} ms CPU ({runs} runs)",
        )
    )

    with tempfile.TemporaryDirectory() as tmp:
        app = Path(tmp)
        (app / "graph.yaml").write_text((EXAMPLES / "vllm-agg.yaml").read_text())
        env = child_env(
            {
                "ARGOCD_APP_NAME": "bench",
                "ARGOCD_APP_NAMESPACE": "dynamo",
                "ARGOCD_APP_PARAMETERS": '[{"name": "lpx", "string": "true"}]',
                "NO_COLOR": "1",
            }
        )
        generate = "from kubectl_dgd.argocd.entry import main; import sys; sys.argv = ['dgd-argocd', 'generate', %r]; main()"
        commands = {
            "dgd-argocd generate (as is)": [PY, "-c", generate % str(app)],
            "dgd-argocd generate + pydantic Settings": [
                PY,
                "-c",
                PYDANTIC_SETTINGS + "\n" + generate % str(app),
            ],
            "validate -o json one graph": [
                str(BIN / "kubectl-dgd"),
                "validate",
                "-o",
                "json",
                str(EXAMPLES / "vllm-agg.yaml"),
            ],
            "status -f -o json": [
                str(BIN / "kubectl-dgd"),
                "status",
                "-f",
                str(EXAMPLES / "status" / "healthy.yaml"),
                "-o",
                "json",
            ],
        }
        startups = interleaved(commands, runs, env)
    for name, values in startups.items():
        rows.append(
            (
                name,
                f"CPU min {_ms(min(values))} ms, median {_ms(statistics.median(values))} ms "
                f"({runs} interleaved runs)",
            )
        )
    return rows


if __name__ == "__main__":
    for label, value in run():
        print(f"{label:60s}  {value}")
