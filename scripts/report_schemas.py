"""Write the JSON Schemas of the `-o json` reports CI consumers parse, into docs/schemas/.

    .venv/bin/python scripts/report_schemas.py          # rewrite the files
    .venv/bin/python scripts/report_schemas.py --check  # exit 1 when a file is out of date

pydantic derives them from types, so a schema cannot drift from the code without
tests/unit/test_report_schemas.py noticing: `status -o json` from the view models themselves
(plain dataclasses, read by pydantic's TypeAdapter), `validate -o json` from the models below,
which spell out ValidationReport.to_dict() (it adds `valid` and renames `input_errors`).
Every key is always printed (null kept), so every property is required and no other is allowed.
pydantic is a dev dependency: nothing under kubectl_dgd imports it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from kubectl_dgd.core.findings import Layer, Severity
from kubectl_dgd.core.status import StatusView

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FindingData(_Closed):
    """One problem found in a graph."""

    severity: Severity
    layer: Layer
    path: str
    message: str
    line: int | None
    code: str


class ItemData(_Closed):
    """The findings of one graph of the input; `valid` is false when one is an error."""

    source: str
    line: int
    name: str
    namespace: str
    valid: bool
    findings: list[FindingData]


class InputErrorData(_Closed):
    """An input that could not be read (its graphs are not in `items`)."""

    source: str
    line: int | None
    message: str


class SummaryData(_Closed):
    """Counts of documents and graphs by outcome."""

    documents: int
    graphs: int
    valid: int
    invalid: int
    skipped: int
    unreadable: int


class ValidationReportData(_Closed):
    """What `kubectl dgd validate -o json` prints."""

    items: list[ItemData]
    errors: list[InputErrorData]
    summary: SummaryData


class StatusItems(_Closed):
    """`status -o json` for more than one graph."""

    items: list[StatusView]


def _close(node: Any) -> None:
    """Every object lists all its properties as required and allows no other; pydantic's
    titles and defaults go (the output never omits a key, so a default is never seen)."""
    if isinstance(node, dict):
        node.pop("title", None)
        node.pop("default", None)
        properties = node.get("properties")
        if isinstance(properties, dict):
            node["required"] = list(properties)
            node["additionalProperties"] = False
            for value in properties.values():
                _close(value)
        for key, value in node.items():
            if key != "properties":
                _close(value)
    elif isinstance(node, list):
        for value in node:
            _close(value)


def _document(name: str, title: str, schema: dict[str, Any]) -> str:
    _close(schema)
    head = {"$schema": DRAFT, "$id": f"{name}", "title": title}
    return json.dumps({**head, **schema}, indent=2, ensure_ascii=False) + "\n"


def schemas() -> dict[str, str]:
    """File name under docs/schemas/ -> its text."""
    report = ValidationReportData.model_json_schema(mode="serialization")
    status = TypeAdapter(StatusView | StatusItems).json_schema(mode="serialization")
    return {
        "validation-report.schema.json": _document(
            "validation-report.schema.json", "kubectl dgd validate -o json", report
        ),
        "status.schema.json": _document(
            "status.schema.json",
            "kubectl dgd status -o json (one graph, or {items: [...]} for several)",
            status,
        ),
    }


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    stale = []
    for name, text in schemas().items():
        path = OUT / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not check:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(stale)} (run scripts/report_schemas.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
