"""A validation report: findings per document, input errors, and counts. Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.findings import Finding, has_errors
from kubectl_dgd.errors import InputError


@dataclass
class ItemReport:
    """The findings of one graph of the input."""

    source: str
    line: int
    name: str
    namespace: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not has_errors(self.findings)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "line": self.line,
            "name": self.name,
            "namespace": self.namespace,
            "valid": self.valid,
            "findings": [f.to_dict() for f in self.findings],
        }


@dataclass
class Summary:
    """Counts of documents and graphs by outcome."""

    documents: int = 0
    graphs: int = 0
    valid: int = 0
    invalid: int = 0
    skipped: int = 0
    unreadable: int = 0

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class ValidationReport:
    """What `validate` found: each graph's findings and the unreadable inputs."""

    items: list[ItemReport] = field(default_factory=list)
    input_errors: list[InputError] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)
    files_read: int = 0  # for the no-graph message only; not part of the printed report

    @property
    def ok(self) -> bool:
        return not self.input_errors and all(i.valid for i in self.items)

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": [i.to_dict() for i in self.items],
            "errors": [
                {"source": e.source, "line": e.line, "message": str(e)} for e in self.input_errors
            ],
            "summary": self.summary.to_dict(),
        }

    def to_data(self) -> dict[str, Any]:
        """What ``validate -o json`` prints."""
        return self.to_dict()
