"""The start-up machinery (kubectl_dgd/startup/) acts only for a console script's process:
an embedding program keeps its interpreter as it was; DGD_PLAIN_STARTUP=1 turns every trick
off with the same output; and the package runs from a zip archive. Each case runs in a fresh
interpreter (the collector's settings are process-wide)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "manifests" / "examples" / "vllm-agg.yaml"
INVALID = ROOT / "manifests" / "examples" / "invalid"

# What the process looks like after the command: the collector, the dataclass cache, the CEL
# loader. `how` is "embedded" (the front ends' main called with argv) or "script" (the console
# scripts' functions, with sys.argv).
PROBE = """
import gc, io, json, sys
how, command, *argv = sys.argv[1:]
if how == "embedded":
    gc.set_threshold(1234, 5, 6)
    if command == "off":
        gc.disable()
code = 0
try:
    if how == "embedded":
        if command == "argocd":
            from kubectl_dgd.argocd.main import main
        else:
            from kubectl_dgd.cli.main import main
        main(argv)
    else:
        sys.argv = ["kubectl-dgd", *argv]
        from kubectl_dgd.cli.entry import main
        main()
except SystemExit as exc:
    code = exc.code
import dataclasses
from kubectl_dgd.core.validate import cel_env
report = {
    "code": code,
    "enabled": gc.isenabled(),
    "threshold": list(gc.get_threshold()),
    "frozen": gc.get_freeze_count() > 0,
    "dataclass_cache": "exec" in vars(dataclasses),
    "cel_loader": bool(cel_env._LOADER),
}
print(json.dumps(report), file=sys.stderr)
"""


def probe(how: str, command: str, *argv: str, env: dict[str, str] | None = None) -> Any:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("DGD_", "PYTHON"))}
    full_env.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "80", **(env or {})})
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, how, command, *argv],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
        check=False,
    )
    *_, last = proc.stderr.splitlines() or [""]
    assert last.startswith("{"), proc.stderr
    report: dict[str, Any] = json.loads(last)
    report["stdout"] = proc.stdout
    return report


@pytest.mark.parametrize(
    ("command", "argv", "code"),
    [
        pytest.param("cli", ["validate", str(EXAMPLE)], 0, id="kubectl-dgd-validate"),
        pytest.param("cli", ["validate", str(INVALID)], 1, id="kubectl-dgd-findings"),
        pytest.param("argocd", ["parameters", str(ROOT / "manifests")], 0, id="dgd-argocd"),
    ],
)
def test_an_embedding_program_keeps_its_collector_and_dataclasses(
    command: str, argv: list[str], code: int
) -> None:
    report = probe("embedded", command, *argv)
    assert report["code"] == code, report
    assert report["enabled"] is True
    assert report["threshold"] == [1234, 5, 6]
    assert report["frozen"] is False
    assert report["dataclass_cache"] is False and report["cel_loader"] is False


def test_an_embedding_program_with_the_collector_off_keeps_it_off() -> None:
    report = probe("embedded", "off", "validate", str(EXAMPLE))
    assert (report["code"], report["enabled"], report["frozen"]) == (0, False, False)


def test_the_console_script_applies_the_tricks_and_the_switch_turns_them_off() -> None:
    """The same output either way; only the process's settings differ."""
    tricks = probe("script", "cli", "validate", str(INVALID))
    plain = probe("script", "cli", "validate", str(INVALID), env={"DGD_PLAIN_STARTUP": "1"})
    assert tricks["code"] == plain["code"] == 1
    assert tricks["stdout"] == plain["stdout"] and "error" in plain["stdout"]
    assert tricks["threshold"] == [50_000, 10, 10] and tricks["frozen"] is True
    assert tricks["dataclass_cache"] is True and tricks["cel_loader"] is True
    assert plain["threshold"] == [700, 10, 10] and plain["frozen"] is False
    assert plain["dataclass_cache"] is False and plain["cel_loader"] is False


def test_the_package_runs_from_a_zip_archive(tmp_path: Path) -> None:
    """Package data comes through importlib.resources when the modules are not files: the
    bundled CRD schemas load and validate finds what it finds unpacked."""
    archive = tmp_path / "kubectl_dgd.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted((ROOT / "kubectl_dgd").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, path.relative_to(ROOT).as_posix())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DGD_", "PYTHON"))}
    env.update({"NO_COLOR": "1", "COLUMNS": "80"})
    runs = {}
    for where in (str(archive), str(ROOT)):
        proc = subprocess.run(
            [sys.executable, "-m", "kubectl_dgd", "validate", str(INVALID)],
            capture_output=True,
            text=True,
            env={**env, "PYTHONPATH": where},
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        runs[where] = (proc.returncode, proc.stdout, proc.stderr)
    zipped, unpacked = runs[str(archive)], runs[str(ROOT)]
    assert zipped == unpacked and zipped[0] == 1, zipped
