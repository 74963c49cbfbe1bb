"""``--sort-by=JSONPATH``: order a listing by a value of its objects, as ``kubectl get --sort-by``.

The expression is kubectl's relaxed JSONPath (``metadata.name``, ``.metadata.name`` and
``{.metadata.name}`` are one path), parsed and evaluated by ``output/jsonpath.py``, the engine
of ``-o jsonpath``: wildcards, ``..`` and filters work as there. Each object sorts by the first
value the template finds in it, as kubectl's sorter: numbers numerically, text in natural order
(``pod-2`` before ``pod-10``), an object without a value first; a path no object has is an
error, as in kubectl.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from kubectl_dgd.core.views import GraphList
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.jsonpath import (
    JsonPathError,
    Template,
    execute_groups,
    go_json,
    parse,
    relaxed,
)

_MISSING = object()
_DIGITS = re.compile(rb"[0-9]+")


def sort_template(expression: str) -> Template:
    """The template of ``--sort-by``; a bad one is a usage error naming the flag."""
    try:
        return parse(relaxed(expression.strip()))
    except JsonPathError as err:
        raise UsageError(f"--sort-by: {expression!r}: {err}") from None


def first_value(template: Template, obj: Any) -> Any:
    """The first value the template finds in ``obj`` (kubectl sorts by it), else missing."""
    try:
        groups = execute_groups(template, obj)
    except JsonPathError as err:
        raise UsageError(f"--sort-by: {template.source}: {err}") from None
    for group in groups:
        return group[0] if group else _MISSING
    return _MISSING


def natural_key(text: str) -> tuple[tuple[int, int, bytes, int], ...]:
    """kubectl's natural order (sortorder.NaturalLess): bytes compared as bytes, runs of
    digits as numbers (fewer leading zeros first on a tie), a digit before any other byte."""
    data = text.encode("utf-8")
    key: list[tuple[int, int, bytes, int]] = []
    position = 0
    for match in _DIGITS.finditer(data):
        key += [(1, byte, b"", 0) for byte in data[position : match.start()]]
        digits = match.group()
        significant = digits.lstrip(b"0")
        key.append((0, len(significant), significant, len(digits) - len(significant)))
        position = match.end()
    key += [(1, byte, b"", 0) for byte in data[position:]]
    return tuple(key)


def _key(value: Any) -> tuple[int, Any]:
    if value is _MISSING or value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int | float):
        return (2, value)
    if isinstance(value, str):
        return (3, natural_key(value))
    return (4, natural_key(go_json(value)))  # a map or a list: by its JSON, for a stable order


def sort_listing(listing: GraphList, expression: str) -> GraphList:
    template = sort_template(expression)
    values = [first_value(template, obj) for obj in listing.objects]
    if listing.objects and all(v is _MISSING for v in values):
        raise UsageError(f"couldn't find any field with path {expression!r} in the list of objects")
    order = sorted(range(len(values)), key=lambda i: _key(values[i]))
    return replace(
        listing,
        rows=[listing.rows[i] for i in order],
        objects=[listing.objects[i] for i in order],
    )
