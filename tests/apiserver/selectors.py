"""Label and field selectors with kube-apiserver's syntax (=, ==, !=, in, notin, exists, !key)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from tests.apiserver.errors import ApiError, bad_request

Matcher = Callable[[Mapping[str, str]], bool]

_SET = re.compile(r"^\s*(!?)([A-Za-z0-9_./-]+)\s*(?:(notin|in)\s*\(([^)]*)\))?\s*$")
_EQ = re.compile(r"^\s*([A-Za-z0-9_./-]+)\s*(==|=|!=)\s*([A-Za-z0-9_.-]*)\s*$")


def _split(selector: str) -> list[str]:
    """Split on commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for char in selector:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p for p in parts if p.strip()]


def _requirement(text: str) -> Matcher:
    eq = _EQ.match(text)
    if eq:
        key, op, value = eq.groups()
        if op == "!=":
            return lambda labels: labels.get(key) != value
        return lambda labels: labels.get(key) == value
    match = _SET.match(text)
    if not match:
        raise bad_request(
            f"unable to parse requirement: found '{text.strip()}', expected: valid selector"
        )
    negate, key, op, values_text = match.groups()
    if op is None:
        if negate:
            return lambda labels: key not in labels
        return lambda labels: key in labels
    if negate:
        raise bad_request(f"unable to parse requirement: found '{text.strip()}'")
    values = {v.strip() for v in values_text.split(",") if v.strip()}
    if op == "in":
        return lambda labels: labels.get(key) in values
    return lambda labels: labels.get(key) not in values


def label_matcher(selector: str | None) -> Matcher:
    if not selector:
        return lambda labels: True
    requirements = [_requirement(part) for part in _split(selector)]
    return lambda labels: all(req(labels) for req in requirements)


def _lookup(obj: Mapping[str, Any], dotted: str) -> str:
    node: Any = obj
    for part in dotted.split("."):
        if not isinstance(node, Mapping):
            return ""
        node = node.get(part)
    if node is None:
        return ""
    if dotted == "source" and isinstance(node, Mapping):
        return str(node.get("component", ""))
    return str(node)


def field_matcher(
    selector: str | None, supported: tuple[str, ...]
) -> Callable[[Mapping[str, Any]], bool]:
    """Only the fields a resource type supports, as the real server; others are a 400."""
    if not selector:
        return lambda obj: True
    checks: list[tuple[str, bool, str]] = []
    for part in _split(selector):
        match = re.match(r"^\s*([A-Za-z.]+)\s*(==|=|!=)\s*(.*?)\s*$", part)
        if not match:
            raise bad_request(f"invalid selector: '{selector}'; can't understand '{part}'")
        field, op, value = match.groups()
        if field not in supported:
            raise ApiError(400, "BadRequest", f"field label not supported: {field}")
        checks.append((field, op == "!=", value))
    return lambda obj: all((_lookup(obj, f) == v) != neg for f, neg, v in checks)
