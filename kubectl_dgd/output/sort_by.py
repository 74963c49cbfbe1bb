"""``--sort-by=FIELD``: order a listing by a field of its objects, as ``kubectl get --sort-by``.

Only field paths are understood here (``{.metadata.name}``, ``.spec.components[0].replicas``,
braces and the leading dot optional): kubectl's full JSONPath (filters, wildcards) belongs to
the jsonpath output module. Numbers sort numerically, other values as text; an object without
the field sorts first, and a field no object has is an error, as in kubectl.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from kubectl_dgd.core.views import GraphList
from kubectl_dgd.errors import UsageError

_STEP = re.compile(r"\.([A-Za-z0-9_\-/]+)|\[([0-9]+)\]")
_MISSING = object()


def parse_field_path(expression: str) -> list[str | int]:
    text = expression.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("."):
        text = "." + text
    steps: list[str | int] = []
    position = 0
    while position < len(text):
        match = _STEP.match(text, position)
        if match is None:
            raise UsageError(
                f"--sort-by: {expression!r} is not a field path (such as {{.metadata.name}})"
            )
        steps.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
        position = match.end()
    return steps


def field_value(obj: Any, steps: list[str | int]) -> Any:
    for step in steps:
        if isinstance(step, int):
            if not isinstance(obj, list) or step >= len(obj):
                return _MISSING
            obj = obj[step]
        else:
            if not isinstance(obj, dict) or step not in obj:
                return _MISSING
            obj = obj[step]
    return obj


def _key(value: Any) -> tuple[int, Any]:
    if value is _MISSING or value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int | float):
        return (2, value)
    return (3, str(value))


def sort_listing(listing: GraphList, expression: str) -> GraphList:
    steps = parse_field_path(expression)
    values = [field_value(obj, steps) for obj in listing.objects]
    if listing.objects and all(v is _MISSING for v in values):
        raise UsageError(f"couldn't find any field with path {expression!r} in the list of objects")
    order = sorted(range(len(values)), key=lambda i: _key(values[i]))
    return replace(
        listing,
        rows=[listing.rows[i] for i in order],
        objects=[listing.objects[i] for i in order],
    )
