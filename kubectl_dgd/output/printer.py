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
    # A template format's template (or columns) as its Printer parsed it, once; None: parse
    # ``argument`` (a direct caller of a format function).
    prepared: Any = None


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
    "go-template": "kubectl_dgd.output.gotemplate:render",
    "go-template-file": "kubectl_dgd.output.gotemplate:render",
    # kubectl's other names of the two
    "template": "kubectl_dgd.output.gotemplate:render",
    "templatefile": "kubectl_dgd.output.gotemplate:render",
}

# The formats that take an argument, as kubectl spells them: ``-o jsonpath=TEMPLATE``.
TEMPLATE_FORMATS = (
    "jsonpath",
    "jsonpath-file",
    "jsonpath-as-json",
    "custom-columns",
    "custom-columns-file",
    "go-template",
    "go-template-file",
    "template",
    "templatefile",
)


# template format -> "module:function(argument or file text) -> prepared template", run once
# when the printer is built (kubectl's PrintFlags.ToPrinter parses the template before any
# request); the ``-file`` forms get the file's text, read by the front end.
PREPARE: dict[str, str] = {
    "jsonpath": "kubectl_dgd.output.jsonpath:prepare",
    "jsonpath-file": "kubectl_dgd.output.jsonpath:prepare",
    "jsonpath-as-json": "kubectl_dgd.output.jsonpath:prepare",
    "custom-columns": "kubectl_dgd.output.custom_columns:prepare",
    "custom-columns-file": "kubectl_dgd.output.custom_columns:prepare_file",
    "go-template": "kubectl_dgd.output.gotemplate:prepare",
    "go-template-file": "kubectl_dgd.output.gotemplate:prepare",
    "template": "kubectl_dgd.output.gotemplate:prepare",
    "templatefile": "kubectl_dgd.output.gotemplate:prepare",
}
FILE_FORMATS = frozenset(
    {"jsonpath-file", "custom-columns-file", "go-template-file", "templatefile"}
)


def split_format(fmt: str) -> tuple[str, str | None]:
    """``jsonpath={.x}`` -> (``jsonpath``, ``{.x}``); a plain format has no argument."""
    name, sep, argument = fmt.partition("=")
    if sep and name in TEMPLATE_FORMATS:
        return name, argument
    return fmt, None


def template_data(view: View) -> Any:
    """What the output templates run over: the view's ``template_data()`` where it has one
    (``status``: the graph as read, as for ``kubectl get``), else its ``-o json`` data."""
    data_of = getattr(view, "template_data", None)
    return data_of() if data_of is not None else view.to_data()


# The formats drawn as a table, where an empty listing says so on stderr (as kubectl get).
TABLE_FORMATS = frozenset({"text", "wide"})


def formatter(fmt: str) -> Formatter:
    target = FORMATS.get(fmt)
    if target is None:
        raise UsageError(f"unknown output format {fmt!r} (one of: {', '.join(FORMATS)})")
    module, function = target.split(":")
    drawn: Formatter = getattr(importlib.import_module(module), function)
    return drawn


@dataclass(frozen=True)
class Printer:
    """``-o`` parsed once, as cli-runtime's ``PrintFlags.ToPrinter``: the format, the text after
    its ``=``, and for a template format the template parsed (its file read) up front. The
    front ends build one when they read the flags (:func:`to_printer`) and ask it, not the
    format's name, how to print."""

    format: str
    argument: str | None = None
    prepared: Any = None

    def render(self, view: View, options: Options = PLAIN_OPTIONS) -> str:
        """The view as text ending in a newline (or empty); a template format's output is
        exactly what its template says (kubectl adds no newline either)."""
        if self.argument is not None:
            options = replace(options, argument=self.argument, prepared=self.prepared)
        return formatter(self.format)(view, options)

    def print(self, view: View, stream: Any, options: Options = PLAIN_OPTIONS) -> None:
        stream.write(self.render(view, options))

    def order(self, view: Any) -> Any:
        """The view in the order to print it (a :class:`SortingPrinter` sorts listings)."""
        return view

    @property
    def is_table(self) -> bool:
        """Drawn as a table: an empty listing then says so on stderr (kubectl get's "No
        resources found") instead of printing nothing."""
        return self.format in TABLE_FORMATS

    @property
    def for_people(self) -> bool:
        """``text`` or ``wide``, drawn for a person: what a machine format carries in its data
        (validate's unreadable inputs) goes to stderr beside it."""
        return self.format in TABLE_FORMATS

    @property
    def names_only(self) -> bool:
        """``-o name``: what is printed needs only the objects' names."""
        return self.format == "name"

    @property
    def per_object(self) -> bool:
        """A watch prints each changed object as its own listing of one (``-o name``,
        ``custom-columns``), not as a row of the first table nor as a bare object."""
        return self.format in ("name", "custom-columns", "custom-columns-file")

    @property
    def separator(self) -> str:
        """Between successive views of a watch when piped: YAML documents need ``---`` (as
        ``kubectl get -w -o yaml``); JSON objects and text blocks are separated by a blank
        line."""
        return "---\n" if self.format == "yaml" else "\n"

    @property
    def documents(self) -> bool:
        """A ``---`` stream of documents, which can be written one by one as they come."""
        return self.format == "yaml"


@dataclass(frozen=True)
class SortingPrinter(Printer):
    """``--sort-by``: a printer that sorts a listing by a JSONPath of its objects, then hands it
    to the printer it wraps (kubectl's SortingPrinter around the -o printer)."""

    delegate: Printer | None = None
    sort_by: str = ""

    def render(self, view: View, options: Options = PLAIN_OPTIONS) -> str:
        assert self.delegate is not None
        return self.delegate.render(self.order(view), options)

    def order(self, view: Any) -> Any:
        from kubectl_dgd.output.sort_by import sort_listing

        return sort_listing(view, self.sort_by)


def sorting(printer: Printer, expression: str | None) -> Printer:
    """``printer`` wrapped by ``--sort-by EXPRESSION`` (checked now), or itself without one."""
    if not expression:
        return printer
    from kubectl_dgd.output.sort_by import sort_template

    sort_template(expression)  # a bad path fails with the flags, before any request
    return SortingPrinter(
        printer.format, printer.argument, printer.prepared, delegate=printer, sort_by=expression
    )


def to_printer(fmt: str | Printer, read_file: Callable[[str], str] | None = None) -> Printer:
    """The printer of ``-o FORMAT``; a template is parsed now (one ``error:`` line, exit 2, if
    it does not parse). ``read_file`` reads a ``-file`` format's file (the front end's bounded
    reader); without it such a format is refused."""
    if isinstance(fmt, Printer):
        return fmt
    name, argument = split_format(fmt)
    formatter(name)  # an unknown format is refused here
    if name not in TEMPLATE_FORMATS:
        return Printer(name)
    argument = argument or ""  # kubectl: "template format specified but no template given"
    text = argument
    if name in FILE_FORMATS:
        if not argument:
            raise UsageError("template format specified but no template given")
        if read_file is None:
            raise UsageError(f"-o {name}: no way to read {argument!r} here")
        text = read_file(argument)
    module, function = PREPARE[name].split(":")
    return Printer(name, argument, getattr(importlib.import_module(module), function)(text))


def format_view(view: View, fmt: str | Printer, options: Options = PLAIN_OPTIONS) -> str:
    """The view printed by ``fmt`` (a printer, or a format without a file to read)."""
    return to_printer(fmt).render(view, options)


def print_view(
    view: View, fmt: str | Printer, stream: Any, options: Options = PLAIN_OPTIONS
) -> None:
    stream.write(format_view(view, fmt, options))
