"""The one output interface: a view model, a format name, a stream.

Every command result is a view model (``core``); the front ends choose a format (``-o``) and
call :func:`print_view`. Each format is one module of this package, registered in ``FORMATS``;
a new format (jsonpath, custom-columns...) is a new module and a new entry here, and no command
changes. ``json`` and ``yaml`` always dump the view's ``to_data()``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.style import PLAIN, Style


class View(Protocol):
    def to_data(self) -> Any: ...


@dataclass(frozen=True)
class Options:
    """How to draw, whatever the format: colour for a terminal, header rows of tables."""

    style: Style = PLAIN
    headers: bool = True
    # kubectl get's -L/--label-columns and --show-labels (tables of objects only)
    label_columns: tuple[str, ...] = ()
    show_labels: bool = False
    # The text after ``=`` in ``-o jsonpath=TEMPLATE``, ``-o custom-columns=SPEC`` and their
    # ``-file`` forms (a path then).
    argument: str | None = None
    # The terminal's columns: prose wraps to it, and tables fit it but with -o wide.
    width: int = 80
    # stdout is a terminal: a log-like report (validate's FILE:LINE: lines) wraps only then,
    # and stays one line per finding for grep and editors when piped.
    terminal: bool = False


PLAIN_OPTIONS = Options()

Formatter = Callable[[Any, Options], str]

# format -> "module:function"; a module is imported only when its format is printed.
FORMATS: dict[str, str] = {
    "text": "kubectl_dgd.output.text:render",
    "wide": "kubectl_dgd.output.wide:render",
    "json": "kubectl_dgd.output.json:render",
    "yaml": "kubectl_dgd.output.yaml:render",
    "name": "kubectl_dgd.output.name:render",
    # validation reports for CI systems
    "junit": "kubectl_dgd.output.junit:render",
    "tap": "kubectl_dgd.output.tap:render",
    "sarif": "kubectl_dgd.output.sarif:render",
    "github": "kubectl_dgd.output.github:render",
    "jsonpath": "kubectl_dgd.output.jsonpath:render",
    "jsonpath-file": "kubectl_dgd.output.jsonpath:render_file",
    "jsonpath-as-json": "kubectl_dgd.output.jsonpath:render_as_json",
    "custom-columns": "kubectl_dgd.output.custom_columns:render",
    "custom-columns-file": "kubectl_dgd.output.custom_columns:render_file",
}

# The formats that take an argument, as kubectl spells them: ``-o jsonpath=TEMPLATE``.
TEMPLATE_FORMATS = (
    "jsonpath",
    "jsonpath-file",
    "jsonpath-as-json",
    "custom-columns",
    "custom-columns-file",
)


def split_format(fmt: str) -> tuple[str, str | None]:
    """``jsonpath={.x}`` -> (``jsonpath``, ``{.x}``); a plain format has no argument."""
    name, sep, argument = fmt.partition("=")
    if sep and name in TEMPLATE_FORMATS:
        return name, argument
    return fmt, None


# The formats drawn as a table, where an empty listing says so on stderr (as kubectl get).
TABLE_FORMATS = frozenset({"text", "wide"})


def formatter(fmt: str) -> Formatter:
    target = FORMATS.get(fmt)
    if target is None:
        raise UsageError(f"unknown output format {fmt!r} (one of: {', '.join(FORMATS)})")
    module, function = target.split(":")
    drawn: Formatter = getattr(importlib.import_module(module), function)
    return drawn


def format_view(view: View, fmt: str, options: Options = PLAIN_OPTIONS) -> str:
    """The view in format ``fmt``, as text ending in a newline (or empty); a template
    format's output is exactly what its template says (kubectl adds no newline either)."""
    name, argument = split_format(fmt)
    if argument is not None:
        options = replace(options, argument=argument)
    return formatter(name)(view, options)


def print_view(view: View, fmt: str, stream: Any, options: Options = PLAIN_OPTIONS) -> None:
    stream.write(format_view(view, fmt, options))


def stream_separator(fmt: str) -> str:
    """Between successive views of a watch when piped: YAML documents need ``---`` (as
    ``kubectl get -w -o yaml``); JSON objects and text blocks are separated by a blank line."""
    return "---\n" if fmt == "yaml" else "\n"
