"""Validation reports as text: ``FILE:LINE: PATH: MESSAGE (severity, layer/code)``."""

from __future__ import annotations

from kubectl_dgd.core.findings import SEVERITY_ORDER, Finding
from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.core.wording import plural
from kubectl_dgd.output.fit import wrap
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import PLAIN, Color, Style

_SEVERITY_COLOR: dict[str, Color] = {"error": "red", "warning": "yellow", "info": "cyan"}


# Holds the tag's words together while wrapping (a private-use character nobody types).
_JOIN = "\ue000"


def finding_line(
    source: str, finding: Finding, style: Style = PLAIN, width: int | None = None
) -> str:
    """One finding; with a ``width``, wrapped between words, continuation lines indented (the
    first line still starts ``FILE:LINE:`` for editors and grep)."""
    where = f"{source}:{finding.line}" if finding.line is not None else source
    path = f" {finding.path}:" if finding.path else ""
    tag = f"({finding.severity}, {finding.layer}/{finding.code})"
    message = " ".join(finding.message.splitlines())  # one finding, one line, whatever it quotes
    text = f"{where}:{path} {message} {tag.replace(' ', _JOIN)}"
    lines = [text] if width is None else wrap(text, width, "", "    ")
    drawn = "\n".join(lines).replace(tag.replace(" ", _JOIN), tag)
    # Coloured once wrapped, so that the escape codes take no room.
    return drawn[: -len(tag)] + style(tag, _SEVERITY_COLOR[finding.severity])


def sorted_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.line or 0, SEVERITY_ORDER[f.severity], f.path))


def report_text(report: ValidationReport, style: Style = PLAIN, width: int | None = None) -> str:
    lines: list[str] = []
    for item in report.items:
        lines.extend(
            finding_line(item.source, f, style, width) for f in sorted_findings(item.findings)
        )
    summary = summary_line(report)
    lines.extend(style(line, "bold") for line in (wrap(summary, width) if width else [summary]))
    return "\n".join(lines) + "\n"


def summary_line(report: ValidationReport) -> str:
    s = report.summary
    summary = (
        f"{plural(s.documents, 'document')}, {plural(s.graphs, 'graph')}: {s.valid} valid, "
        f"{s.invalid} invalid, {s.skipped} skipped"
    )
    return summary + (f", {s.unreadable} unreadable" if s.unreadable else "")


def draw_report(report: ValidationReport, options: Options, wide: bool) -> str:
    return report_text(report, options.style, options.width if options.terminal else None)
