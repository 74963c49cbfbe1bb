"""Findings: what validation returns instead of raising."""

from dataclasses import dataclass, replace
from typing import Literal

Severity = Literal["error", "warning", "info"]
Layer = Literal["input", "schema", "cel", "webhook", "lint"]

SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Which rule of the CRD a CEL finding comes from, for reports that list rules (SARIF)."""

    id: str  # stable: the rule's schema location and a digest of its expression
    message: str  # the rule's own message ('' when the CRD gives none)
    expression: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a DGD: its severity, layer, path, message and code."""

    severity: Severity
    layer: Layer
    path: str
    message: str
    code: str
    line: int | None = None
    # The document path to take the line from when it is not ``path`` (a v1alpha1 source field
    # of a rule the operator reports on the converted v1beta1 object).
    where: str | None = None
    # The CRD rule behind a ``cel-rule`` finding (every other finding: its code is its rule).
    rule: RuleRef | None = None

    def at_line(self, line: int) -> "Finding":
        return replace(self, line=line)

    def located(self, where: str | None) -> "Finding":
        return replace(self, where=where)

    def to_dict(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "layer": self.layer,
            "path": self.path,
            "message": self.message,
            "line": self.line,
            "code": self.code,
        }


def has_errors(findings: "list[Finding] | tuple[Finding, ...]") -> bool:
    return any(f.severity == "error" for f in findings)
