"""``validate -o tap``: TAP version 13 (as kubeconform's ``-output tap``).

One test point per graph, ``not ok`` when it has an error finding, followed by a YAML
diagnostic block listing its findings (warnings and notes too, so an ``ok`` graph may carry
one). An unreadable input is a ``not ok`` point of its own. Strings in the YAML block are
written as JSON strings, which every YAML parser reads as double-quoted scalars.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kubectl_dgd.output.ci_report import (
    case_name,
    finding_text,
    located,
    one_line,
    require_report,
    rule_id,
    unreadable,
)
from kubectl_dgd.output.findings import summary_line
from kubectl_dgd.output.printer import Options


def render(view: Any, options: Options) -> str:
    report = require_report(view, "tap")
    lines = ["TAP version 13", f"1..{len(report.items) + len(report.input_errors)}"]
    number = 0
    for item in report.items:
        number += 1
        status = "ok" if item.valid else "not ok"
        lines.append(f"{status} {number} - {_description(f'{item.source} {case_name(item)}')}")
        findings = [
            {
                "severity": loc.finding.severity,
                "rule": rule_id(loc.finding),
                "file": loc.source,
                "line": loc.line,
                "message": finding_text(loc.finding),
            }
            for loc in located(item)
        ]
        if findings:
            errors = sum(1 for f in findings if f["severity"] == "error")
            lines += _diagnostics(
                {"message": f"{errors} errors, {len(findings) - errors} other findings"},
                findings,
            )
    for err in report.input_errors:
        number += 1
        bad = unreadable(err)
        lines.append(f"not ok {number} - {_description(bad.source)}")
        lines += _diagnostics(
            {"message": bad.message, "file": bad.source}
            | ({"line": bad.line} if bad.line is not None else {}),
            [],
        )
    lines.append(f"# {summary_line(report)}")
    return "\n".join(lines) + "\n"


# What YAML does not allow unescaped in a double-quoted scalar beyond what JSON escapes.
_NOT_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def _scalar(value: Any) -> str:
    """A JSON scalar that YAML reads back as the same value."""
    text = json.dumps(value, ensure_ascii=False)
    return _NOT_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _description(text: str) -> str:
    # "#" would start a directive (# SKIP, # TODO); TAP's escape is a backslash.
    return one_line(text).replace("\\", "\\\\").replace("#", "\\#")


def _diagnostics(head: dict[str, Any], findings: list[dict[str, Any]]) -> list[str]:
    block = ["  ---"]
    block += [f"  {key}: {_scalar(value)}" for key, value in head.items()]
    if findings:
        block.append("  findings:")
        for finding in findings:
            first = True
            for key, value in finding.items():
                block.append(f"    {'- ' if first else '  '}{key}: {_scalar(value)}")
                first = False
    block.append("  ...")
    return block
