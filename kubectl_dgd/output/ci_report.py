"""What the CI formats (junit, tap, sarif, github) share: a validation report seen as test
cases and located findings.

Each graph is one test case; each finding has a rule id ``layer/code`` and a line (the
finding's own, else the line where its document starts, so that every annotation lands in
the file). An unreadable input is a case of its own that failed to run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.report import ItemReport, ValidationReport
from kubectl_dgd.errors import InputError, UsageError
from kubectl_dgd.output.findings import sorted_findings


def require_report(view: Any, fmt: str) -> ValidationReport:
    if not isinstance(view, ValidationReport):
        raise UsageError(f"-o {fmt} is for validate; not supported for {type(view).__name__}")
    return view


def rule_id(finding: Finding) -> str:
    return f"{finding.layer}/{finding.code}"


def case_name(item: ItemReport) -> str:
    """The graph as kubectl names it: namespace/name (the name alone when none is set)."""
    return f"{item.namespace}/{item.name}" if item.namespace else item.name


@dataclass(frozen=True)
class Located:
    """A finding with the file and line it belongs to."""

    source: str
    line: int
    finding: Finding


def located(item: ItemReport) -> Iterator[Located]:
    for finding in sorted_findings(item.findings):
        yield Located(item.source, finding.line or item.line or 1, finding)


def one_line(text: str) -> str:
    return " ".join(text.split())


def finding_text(finding: Finding) -> str:
    """``PATH: MESSAGE`` on one line, as the text format writes it."""
    message = one_line(finding.message)
    return f"{finding.path}: {message}" if finding.path else message


def where(source: str, line: int | None) -> str:
    return source if line is None else f"{source}:{line}"


@dataclass(frozen=True)
class Unreadable:
    """An input that could not be read."""

    source: str
    line: int | None  # None: the whole file (it could not be opened)
    message: str  # without the "source:line: " prefix the error's str() carries


def unreadable(err: InputError) -> Unreadable:
    text = str(err)
    where = err.source if err.line is None else f"{err.source}:{err.line}"
    if where and text.startswith(f"{where}: "):
        text = text[len(where) + 2 :]
    return Unreadable(err.source or "-", err.line, one_line(text))
