"""``validate -o junit``: JUnit XML as CI systems read it (Jenkins, GitLab, Azure, the
GitHub test-report actions), in the shape kubeconform writes.

One ``<testsuite>`` per input file, one ``<testcase>`` per graph, a ``<failure>`` per error
finding (``type`` is the rule id ``layer/code``); warnings and notes go to the case's
``<system-out>``. An unreadable input is a case with an ``<error>``: it could not be checked.
``failures`` and ``errors`` count test cases, as the readers do, not findings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree as ET

from kubectl_dgd.output.ci_report import (
    case_name,
    finding_text,
    located,
    require_report,
    rule_id,
    unreadable,
    where,
)
from kubectl_dgd.output.printer import Options

SUITES_NAME = "kubectl-dgd validate"

# Characters XML 1.0 cannot carry at all, not even escaped (a manifest may quote any byte).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass
class _Suite:
    """A <testsuite> being filled."""

    element: ET.Element
    tests: int = 0
    failures: int = 0
    errors: int = 0


def render(view: Any, options: Options) -> str:
    report = require_report(view, "junit")
    suites: dict[str, _Suite] = {}

    def suite(source: str) -> _Suite:
        if source not in suites:
            suites[source] = _Suite(ET.Element("testsuite", name=source))
        return suites[source]

    for item in report.items:
        current = suite(item.source)
        case = ET.SubElement(
            current.element,
            "testcase",
            name=case_name(item),
            classname=item.source,
            file=item.source,
            line=str(item.line),
        )
        notes: list[str] = []
        for loc in located(item):
            text = f"{loc.source}:{loc.line}: {finding_text(loc.finding)}"
            if loc.finding.severity == "error":
                failure = ET.SubElement(
                    case, "failure", message=finding_text(loc.finding), type=rule_id(loc.finding)
                )
                failure.text = text
            else:
                notes.append(f"{text} ({loc.finding.severity}, {rule_id(loc.finding)})")
        if notes:
            ET.SubElement(case, "system-out").text = "\n".join(notes)
        current.tests += 1
        current.failures += 0 if item.valid else 1
    for err in report.input_errors:
        bad = unreadable(err)
        current = suite(bad.source)
        case = ET.SubElement(
            current.element, "testcase", name=bad.source, classname=bad.source, file=bad.source
        )
        ET.SubElement(
            case, "error", message=bad.message, type="input"
        ).text = f"{where(bad.source, bad.line)}: {bad.message}"
        current.tests += 1
        current.errors += 1

    root = ET.Element("testsuites", name=SUITES_NAME)
    for current in suites.values():
        current.element.attrib.update(_counts(current.tests, current.failures, current.errors))
        root.append(current.element)
    root.attrib.update(
        _counts(
            sum(s.tests for s in suites.values()),
            sum(s.failures for s in suites.values()),
            sum(s.errors for s in suites.values()),
        )
    )
    _make_xml_safe(root)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _counts(tests: int, failures: int, errors: int) -> dict[str, str]:
    return {"tests": str(tests), "failures": str(failures), "errors": str(errors), "skipped": "0"}


def _make_xml_safe(root: ET.Element) -> None:
    for element in root.iter():
        if element.text:
            element.text = _NOT_XML.sub("\ufffd", element.text)
        for key, value in element.attrib.items():
            element.attrib[key] = _NOT_XML.sub("\ufffd", value)
