"""Validation reports as text: ``FILE:LINE: PATH: MESSAGE (severity, layer/code)``."""

from __future__ import annotations

from kubectl_dgd.core.findings import SEVERITY_ORDER, Finding
from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import PLAIN, Color, Style

_SEVERITY_COLOR: dict[str, Color] = {"error": "red", "warning": "yellow", "info": "cyan"}


def finding_line(source: str, finding: Finding, style: Style = PLAIN) -> str:
    where = f"{source}:{finding.line}" if finding.line is not None else source
    path = f" {finding.path}:" if finding.path else ""
    tag = style(
        f"({finding.severity}, {finding.layer}/{finding.code})", _SEVERITY_COLOR[finding.severity]
    )
    message = " ".join(finding.message.splitlines())  # one finding, one line, whatever it quotes
    return f"{where}:{path} {message} {tag}"


def sorted_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line or 0, SEVERITY_ORDER[f.severity], f.path))


def report_text(report: ValidationReport, style: Style = PLAIN) -> str:
    lines: list[str] = []
    for item in report.items:
        lines.extend(finding_line(item.source, f, style) for f in sorted_findings(item.findings))
    lines.append(style(summary_line(report), "bold"))
    return "\n".join(lines) + "\n"


def summary_line(report: ValidationReport) -> str:
    s = report.summary
    summary = (
        f"{s.documents} documents, {s.graphs} graphs: {s.valid} valid, {s.invalid} invalid, "
        f"{s.skipped} skipped"
    )
    return summary + (f", {s.unreadable} unreadable" if s.unreadable else "")


def draw_report(report: ValidationReport, options: Options, wide: bool) -> str:
    return report_text(report, options.style)
