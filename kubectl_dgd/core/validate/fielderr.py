"""Findings shaped like Kubernetes ``field.Error`` values, as the validating webhook returns them.

The API server prints ``<path>: <Type>: <detail>``; we keep the path separate and the message as
``<Type>: <detail>``, formatting bad values the way Go does (strings quoted, numbers and booleans
bare, nil as ``null``, objects and lists as compact JSON).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from kubectl_dgd.core.findings import Finding, Severity

# json.dumps builds a new encoder on every call made with options; one made once prints the same.
_QUOTE = json.JSONEncoder(ensure_ascii=False).encode


def go_quote(value: str) -> str:
    """Go's ``%q`` for ordinary text (JSON string escaping is the same for what we print)."""
    return _QUOTE(value)


def go_value(value: Any) -> str:
    """A bad value as ``field.Error`` prints it: strings quoted, numbers bare, the rest as JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return _QUOTE(value)
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return '"<unprintable>"'


def go_float(value: float) -> str:
    """Go's ``%v`` for a float64 (strconv 'g', shortest): exponent form below 1e-4 or from 1e6 on."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "0"
    from decimal import Decimal  # here: only a message about a fractional number needs it

    sign, digit_tuple, exponent = Decimal(repr(value)).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    exp10 = len(digit_tuple) + exponent - 1
    prefix = "-" if sign else ""
    if exp10 < -4 or exp10 >= 6:
        frac = f".{digits[1:]}" if len(digits) > 1 else ""
        return f"{prefix}{digits[0]}{frac}e{'+' if exp10 >= 0 else '-'}{abs(exp10):02d}"
    return prefix + format(Decimal(f"0.{digits}").scaleb(exp10 + 1), "f")


def _finding(path: str, message: str, code: str, severity: Severity = "error") -> Finding:
    return Finding(severity, "webhook", path, message, code)


def required(path: str, detail: str, code: str) -> Finding:
    return _finding(path, f"Required value: {detail}", code)


def forbidden(path: str, detail: str, code: str) -> Finding:
    return _finding(path, f"Forbidden: {detail}", code)


def invalid(path: str, value: Any, detail: str, code: str) -> Finding:
    return _finding(path, f"Invalid value: {go_value(value)}: {detail}", code)


def unsupported(path: str, value: Any, supported: Iterable[str], code: str) -> Finding:
    values = ", ".join(go_quote(s) for s in supported)
    return _finding(path, f"Unsupported value: {go_value(value)}: supported values: {values}", code)


def duplicate(path: str, value: Any, code: str) -> Finding:
    return _finding(path, f"Duplicate value: {go_value(value)}", code)


def warning(path: str, message: str, code: str) -> Finding:
    """An admission warning (returned beside an allowed or denied response)."""
    return _finding(path, message, code, "warning")


def not_checked(path: str, message: str, code: str) -> Finding:
    """A rule that needs cluster state; offline we can only say so."""
    return _finding(path, message, code, "info")
