"""``-o custom-columns=HEADER:PATH,...`` and ``-o custom-columns-file=FILE``, as kubectl.

Each PATH is kubectl's relaxed JSONPath (``metadata.name``, ``.metadata.name``, ``{.metadata.name}``
all mean ``{.metadata.name}``), evaluated by ``output/jsonpath.py`` on each object: the items of
a listing, else the one object the command dumps with ``-o json``. A path that finds nothing
prints ``<none>``, several values are joined by commas, and values print as Go's ``fmt.Sprint``
(a map as ``map[k:v]``). Columns are laid out as kubectl's tab writer does (at least 6 wide,
3 spaces of padding), by ``output/table.py``; ``--no-headers`` drops the header row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubectl_dgd.output.jsonpath import (
    JsonPathError,
    Template,
    execute_groups,
    go_sprint,
    parse,
    relaxed,
)
from kubectl_dgd.output.printer import Options, template_data
from kubectl_dgd.output.table import Column as TableColumn
from kubectl_dgd.output.table import render_table

MIN_WIDTH = 6  # kubectl's tab writer: minimum width 6, padding 3 (the table's gap)


@dataclass(frozen=True)
class Column:
    """One column of -o custom-columns."""

    header: str
    template: Template


def _column(header: str, path: str) -> Column:
    return Column(header, parse(relaxed(path)))


def parse_spec(spec: str) -> list[Column]:
    if not spec:
        raise JsonPathError("custom-columns format specified but no custom columns given")
    columns = []
    for part in spec.split(","):
        header, sep, path = part.partition(":")
        if not sep:
            raise JsonPathError(
                f"unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            )
        columns.append(_column(header, path))
    return columns


_MISSING_LINE = (
    "invalid template, missing {} line. Expected format is one line of space separated "
    "headers, one line of space separated column specs."
)


def parse_file_text(text: str) -> list[Column]:
    """A template file: a line of headers, a line of paths, separated by whitespace."""
    lines = text.splitlines()
    if not lines:
        raise JsonPathError(_MISSING_LINE.format("header"))
    if len(lines) < 2:
        raise JsonPathError(_MISSING_LINE.format("spec"))
    headers, paths = lines[0].split(), lines[1].split()
    if len(headers) != len(paths):
        raise JsonPathError(
            f"number of headers ({len(headers)}) and field specifications ({len(paths)}) "
            "don't match"
        )
    return [_column(h, p) for h, p in zip(headers, paths, strict=True)]


def _escape(text: str) -> str:
    """kubectl's EscapeTerminal: no escape sequences or carriage returns reach the terminal."""
    return text.replace("\x1b", "^[").replace("\r", "\\r")


def cell(column: Column, obj: Any) -> str:
    groups = execute_groups(column.template, obj)
    values = [_escape(go_sprint(v)) for group in groups for v in group]
    if not groups or not groups[0]:
        values.insert(0, "<none>")
    return ",".join(values)


def objects_of(data: Any, rows: str = "items") -> list[Any]:
    """The rows: a listing's items (``rows``: the key a view keeps them under, such as the nodes
    of ``gpus`` or the Events of ``events``), else the one object."""
    if isinstance(data, dict) and isinstance(data.get(rows), list):
        return list(data[rows])
    return [data]


def layout(headers: list[str], rows: list[list[str]], with_headers: bool) -> str:
    """kubectl's tab writer: every column at least 6 wide with 3 spaces of padding."""
    columns = [TableColumn(h) for h in headers]
    return render_table(columns, rows, headers=with_headers, min_width=MIN_WIDTH)


def draw(columns: list[Column], data: Any, headers: bool, rows_key: str = "items") -> str:
    try:
        rows = [[cell(c, obj) for c in columns] for obj in objects_of(data, rows_key)]
    except RecursionError:
        raise JsonPathError("custom-columns: the data is nested too deeply") from None
    return layout([c.header for c in columns], rows, headers)


def prepare(spec: str) -> list[Column]:
    """The columns of ``-o custom-columns=SPEC``, parsed once."""
    return parse_spec(spec)


def prepare_file(text: str) -> list[Column]:
    """The columns of a ``custom-columns-file``'s text, parsed once."""
    return parse_file_text(text)


def columns_of(options: Options, file_format: bool) -> list[Column]:
    """The columns its printer parsed; for a direct caller, the inline spec parsed now."""
    if isinstance(options.prepared, list):
        return options.prepared
    if file_format:
        raise JsonPathError("template format specified but no template given")
    return parse_spec(options.argument or "")


def render(view: Any, options: Options) -> str:
    return draw(columns_of(options, False), template_data(view), options.headers, _rows(view))


def render_file(view: Any, options: Options) -> str:
    # kubectl's file form has no --no-headers (its printer always draws the header row).
    return draw(columns_of(options, True), template_data(view), True, _rows(view))


def _rows(view: Any) -> str:
    """Where a view keeps its rows in its JSON (``TEMPLATE_ROWS``), else a listing's items."""
    return str(getattr(view, "TEMPLATE_ROWS", "items"))
