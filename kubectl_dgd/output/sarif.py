"""``validate -o sarif``: SARIF 2.1.0, the format GitHub code scanning and other
analysis dashboards read.

One run; the driver's rules are the finding codes seen, with the id ``layer/code`` (a CRD
validation rule: ``cel/SCHEMA-PATH:DIGEST``, each rule its own), each described
(output/rule_docs.py). Each
finding is a result at its file and line (severity error -> ``error``, warning -> ``warning``,
info -> ``note``) with the field path as a logical location. An unreadable input is an
``input/unreadable`` error result, and the invocation is marked unsuccessful.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from kubectl_dgd import __version__
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.output.ci_report import (
    finding_text,
    located,
    require_report,
    rule_id,
    unreadable,
)
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.rule_docs import RuleDoc, describe, describe_finding

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
UNREADABLE_RULE = "input/unreadable"


def artifact_uri(source: str) -> str:
    """A URI reference for a source path: relative paths stay relative (to the checkout, as
    code scanning expects), absolute ones become file URIs."""
    path = PurePath(source)
    if path.is_absolute():
        return "file://" + quote(path.as_posix())
    return quote(path.as_posix())


def render(view: Any, options: Options) -> str:
    report = require_report(view, "sarif")
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []

    def rule_index(rule: str, layer: str, code: str, doc: RuleDoc) -> int:
        if rule not in rules:
            rules[rule] = {
                "id": rule,
                "name": code,
                "shortDescription": {"text": doc.short},
                "fullDescription": {"text": doc.full},
                **({"helpUri": doc.help_uri} if doc.help_uri else {}),
                "properties": {"layer": layer},
            }
        return list(rules).index(rule)

    for item in report.items:
        for loc in located(item):
            finding = loc.finding
            rule = sarif_rule_id(finding)
            doc = describe_finding(finding)
            result: dict[str, Any] = {
                "ruleId": rule,
                "ruleIndex": rule_index(rule, finding.layer, finding.code, doc),
                "level": LEVELS[finding.severity],
                "message": {"text": finding_text(finding)},
                "locations": [_location(loc.source, loc.line, finding.path)],
                "properties": {"graph": item.name, "namespace": item.namespace},
            }
            results.append(result)
    for err in report.input_errors:
        bad = unreadable(err)
        results.append(
            {
                "ruleId": UNREADABLE_RULE,
                "ruleIndex": rule_index(
                    UNREADABLE_RULE, "input", "unreadable", describe("input", "unreadable")
                ),
                "level": "error",
                "message": {"text": bad.message},
                "locations": [_location(bad.source, bad.line, "")],
            }
        )
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "kubectl-dgd",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": list(rules.values()),
                    }
                },
                "invocations": [{"executionSuccessful": not report.input_errors}],
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"


def sarif_rule_id(finding: Finding) -> str:
    """``layer/code``; a CRD rule's own stable id (``cel/SCHEMA-PATH:DIGEST``) for a failed CEL
    rule, where the code alone (``cel-rule``) would lump every rule of the CRD together."""
    if finding.rule is not None:
        return f"{finding.layer}/{finding.rule.id}"
    return rule_id(finding)


def _location(source: str, line: int | None, field_path: str) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(source)}}
    if line is not None:
        physical["region"] = {"startLine": line}
    location: dict[str, Any] = {"physicalLocation": physical}
    if field_path:
        location["logicalLocations"] = [{"fullyQualifiedName": field_path, "kind": "member"}]
    return location
