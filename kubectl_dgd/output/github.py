"""``validate -o github``: GitHub Actions workflow commands, one per finding, which the
runner turns into annotations on the pull request's files:

    ::error file=F,line=L,title=LAYER/CODE::PATH: MESSAGE

error -> ``::error``, warning -> ``::warning``, info -> ``::notice``. The runner unescapes
``%25``, ``%0D`` and ``%0A`` in the message, and additionally ``%3A`` and ``%2C`` in a
property value (``:`` and ``,`` would end it). The summary is a plain log line.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.output.ci_report import finding_text, located, require_report, rule_id, unreadable
from kubectl_dgd.output.findings import summary_line
from kubectl_dgd.output.printer import Options

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, file: str, line: int | None, title: str, message: str) -> str:
    given = {"file": file, "line": None if line is None else str(line), "title": title}
    props = ",".join(f"{k}={escape_property(v)}" for k, v in given.items() if v is not None)
    return f"::{kind} {props}::{escape_data(message)}"


def render(view: Any, options: Options) -> str:
    report = require_report(view, "github")
    lines: list[str] = []
    for item in report.items:
        for loc in located(item):
            lines.append(
                command(
                    COMMANDS[loc.finding.severity],
                    loc.source,
                    loc.line,
                    rule_id(loc.finding),
                    finding_text(loc.finding),
                )
            )
    for err in report.input_errors:
        bad = unreadable(err)
        lines.append(command("error", bad.source, bad.line, "input/unreadable", bad.message))
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"
