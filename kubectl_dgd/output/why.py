"""The text of ``why NAME``: a summary line, then each finding, root cause first.

Each finding: its number, reason, component and severity; the message and the action wrapped at
word boundaries to the terminal's width; the supporting lines too, those that stand for a line
of their own (a node, a log line: they start with two spaces) indented below their heading,
continued deeper when they do not fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubectl_dgd.output.fit import wrap
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.style import Color

if TYPE_CHECKING:
    from kubectl_dgd.core.why import Finding, WhyReport

INDENT = "   "


def _wrap(text: str, width: int, first: str = INDENT, rest: str = INDENT) -> list[str]:
    # break_words: a finding quotes what it found (a log line, an image name) and must fit
    return wrap(text, width, first, rest, break_words=True)


def _summary(report: WhyReport) -> str:
    where = f"{report.name} in {report.namespace}"
    pods = f" ({report.ready_pods}/{report.pods} pods ready)" if report.pods else " (no pods)"
    if report.ok:
        return f"{where} is Ready{pods}: nothing wrong found."
    state = "is Ready" if report.ready else "is not Ready"
    count = len(report.findings)
    if not count:
        return (
            f"{where} {state}{pods}, and no cause was found: its pods may still be starting "
            f"(kubectl dgd tree {report.name} -n {report.namespace} shows them)."
        )
    problems = "1 problem" if count == 1 else f"{count} problems, root cause first"
    return f"{where} {state}{pods}: {problems}."


def _finding(number: int, finding: Finding, width: int, options: Options) -> list[str]:
    style = options.style
    where = f", component {finding.component}" if finding.component else ""
    colour: Color = "red" if finding.severity == "error" else "yellow"
    head = f"{number}. {finding.reason}{where} ({finding.severity})"
    lines = _wrap(head, width, "", INDENT)
    lines[0] = lines[0].replace(finding.reason, style(finding.reason, colour), 1)
    lines += _wrap(finding.message, width)
    for detail in finding.details:  # indented: a verbatim line (a node, a log line)
        if detail.startswith("  "):
            lines += _wrap(detail[2:], width, INDENT + "  ", INDENT + "    ")
        else:
            lines += _wrap(detail, width)
    if finding.objects:
        lines += _wrap("Objects: " + ", ".join(finding.objects), width)
    if finding.action:
        lines += _wrap("What to do: " + finding.action, width)
    return lines


def draw_why(report: WhyReport, options: Options, wide: bool = False) -> str:
    del wide
    width = report.width
    lines = _wrap(_summary(report), width, "", "")
    for number, finding in enumerate(report.findings, 1):
        lines.append("")
        lines += _finding(number, finding, width, options)
    return "\n".join(lines) + "\n"
