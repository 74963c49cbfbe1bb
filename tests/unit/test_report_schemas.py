"""The JSON Schemas of the `-o json` reports (docs/schemas/): generated, current, and true of
what the commands really print."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kubectl_dgd.exitcodes import Exit
from tests.conftest import EXAMPLES, ROOT, run_cli

SCHEMAS = ROOT / "docs" / "schemas"
STATUS_EXAMPLES = sorted((EXAMPLES / "status").glob("*.yaml"))
CLOCK = {"DGD_NOW": "2026-11-30T12:00:00Z"}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "report_schemas", ROOT / "scripts" / "report_schemas.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the models' annotations through it
    spec.loader.exec_module(module)
    return module


def _validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(name: str, data: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in _validator(name).iter_errors(data)]


def test_committed_schemas_are_what_the_generator_writes_byte_for_byte() -> None:
    generated = _generator().schemas()
    assert sorted(generated) == sorted(p.name for p in SCHEMAS.glob("*.json"))
    for name, text in generated.items():
        assert (SCHEMAS / name).read_text(encoding="utf-8") == text, (
            f"docs/schemas/{name} is out of date: run scripts/report_schemas.py"
        )


@pytest.mark.parametrize(
    ("inputs", "code"),
    [
        pytest.param([EXAMPLES / "vllm-agg.yaml"], Exit.OK, id="valid"),
        pytest.param([EXAMPLES / "invalid" / "common-mistakes.yaml"], Exit.FAILED, id="findings"),
        pytest.param(
            [EXAMPLES / "vllm-agg.yaml", EXAMPLES / "missing.yaml"], Exit.USAGE, id="unreadable"
        ),
        pytest.param(sorted(EXAMPLES.glob("*.yaml")), Exit.FAILED, id="every-example"),
    ],
)
def test_validate_json_output_matches_its_schema(inputs: list[Path], code: Exit) -> None:
    result = run_cli("validate", "-o", "json", *map(str, inputs))
    assert result.returncode == code, result.stderr
    data = json.loads(result.stdout)
    assert _errors("validation-report.schema.json", data) == []


def test_the_unreadable_case_really_carries_an_input_error_and_the_findings_case_findings() -> None:
    # The cases above would pass vacuously on empty lists.
    unreadable = run_cli("validate", "-o", "json", str(EXAMPLES / "missing.yaml"))
    assert json.loads(unreadable.stdout)["errors"]
    mistakes = run_cli("validate", "-o", "json", str(EXAMPLES / "invalid" / "common-mistakes.yaml"))
    assert any(item["findings"] for item in json.loads(mistakes.stdout)["items"])


@pytest.mark.parametrize("example", STATUS_EXAMPLES, ids=[p.stem for p in STATUS_EXAMPLES])
def test_status_json_output_matches_its_schema(example: Path) -> None:
    result = run_cli("status", "-f", str(example), "-o", "json", env=CLOCK)
    assert result.returncode == 0, result.stderr
    assert _errors("status.schema.json", json.loads(result.stdout)) == []


def test_status_json_of_several_graphs_matches_its_schema(tmp_path: Path) -> None:
    stream = tmp_path / "all-examples.yaml"
    stream.write_text("".join(f"---\n{p.read_text()}" for p in STATUS_EXAMPLES))
    result = run_cli("status", "-f", str(stream), "-o", "json", env=CLOCK)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["items"]) == len(STATUS_EXAMPLES)
    assert _errors("status.schema.json", data) == []


def test_a_key_added_or_dropped_without_regenerating_fails_the_schema() -> None:
    result = run_cli("validate", "-o", "json", str(EXAMPLES / "invalid" / "common-mistakes.yaml"))
    data = json.loads(result.stdout)
    added = copy.deepcopy(data)
    added["items"][0]["findings"][0]["hint"] = "new"
    dropped = copy.deepcopy(data)
    del dropped["summary"]["skipped"]
    retyped = copy.deepcopy(data)
    retyped["items"][0]["findings"][0]["severity"] = "fatal"
    for broken in (added, dropped, retyped):
        assert _errors("validation-report.schema.json", broken) != []
