"""The CEL environment of the API server, on top of the ``common-expression-language`` library.

The library implements core CEL (macros, ``size``, ``contains``, ``matches``, optionals); the
Kubernetes extension functions that CRD rules use and it lacks are registered here as Python
functions. ``NATIVE_FUNCTIONS`` and ``EXTENSION_FUNCTIONS`` together are what a rule may call: a
rule referencing anything else is reported as not evaluated (tests enumerate every rule of the
bundled CRD against this list).

Start-up: ``import cel`` runs the package's ``__init__``, which imports its CLI (prompt_toolkit,
~170 ms); the front ends hand ``use_loader`` one that loads the compiled extension module alone
(adapters/cel_extension.py), and this module, pure, only calls the loader it was given.

Extension functions never raise: the library prints a traceback to stderr when a Python
function raises, so failures are recorded in ``EvalErrors`` and the evaluation is discarded by
the caller, as the API server turns an evaluation error into a validation error.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from fractions import Fraction

# Functions the library itself provides (checked one by one in the tests).
NATIVE_FUNCTIONS = frozenset(
    {
        "size",
        "contains",
        "startsWith",
        "endsWith",
        "matches",
        "int",
        "uint",
        "double",
        "string",
        "bytes",
        "timestamp",
        "duration",
        "type",
        "dyn",
        "hasValue",
        "value",
        "orValue",
        "or",
        "of",
        "none",
        "ofNonZeroValue",
        "getFullYear",
        "getMonth",
        "getDayOfMonth",
        "getHours",
        "getMinutes",
        "getSeconds",
    }
)


class EvalErrors:
    """Errors raised inside extension functions during the current evaluation."""

    messages: ClassVar[list[str]] = []

    @classmethod
    def reset(cls) -> None:
        cls.messages = []

    @classmethod
    def fail(cls, message: str) -> Any:
        cls.messages.append(message)
        return None


def _no_overload(name: str) -> Any:
    return EvalErrors.fail(f"no such overload: {name}")


# --- strings extension (k8s: ext.Strings) -------------------------------------------------


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
_ASCII_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}


def _lower_ascii(s: Any) -> Any:
    if not isinstance(s, str):
        return _no_overload("lowerAscii")
    return s.lower() if s.isascii() else s.translate(_ASCII_LOWER)


def _upper_ascii(s: Any) -> Any:
    if not isinstance(s, str):
        return _no_overload("upperAscii")
    return s.upper() if s.isascii() else s.translate(_ASCII_UPPER)


def _split(s: Any, sep: Any, limit: Any = -1) -> Any:
    if not isinstance(s, str) or not isinstance(sep, str) or not isinstance(limit, int):
        return _no_overload("split")
    if limit == 0:
        return []
    if sep == "":
        chars = list(s)
        if limit > 0 and len(chars) > limit:
            chars = [*chars[: limit - 1], "".join(chars[limit - 1 :])]
        return chars
    return s.split(sep, limit - 1) if limit > 0 else s.split(sep)


def _join(items: Any, sep: Any = "") -> Any:
    if (
        not isinstance(items, list)
        or not isinstance(sep, str)
        or not all(isinstance(i, str) for i in items)
    ):
        return _no_overload("join")
    return sep.join(items)


def _trim(s: Any) -> Any:
    return s.strip() if isinstance(s, str) else _no_overload("trim")


def _replace(s: Any, old: Any, new: Any, limit: Any = -1) -> Any:
    if not all(isinstance(x, str) for x in (s, old, new)) or not isinstance(limit, int):
        return _no_overload("replace")
    return s.replace(old, new, limit if limit >= 0 else -1)


def _index_of(s: Any, sub: Any, start: Any = 0) -> Any:
    if isinstance(s, list):
        return next((i for i, v in enumerate(s) if v == sub), -1)
    if not isinstance(s, str) or not isinstance(sub, str) or not isinstance(start, int):
        return _no_overload("indexOf")
    if start < 0 or start > len(s):
        return EvalErrors.fail(f"index out of range: {start}")
    return s.find(sub, start)


def _last_index_of(s: Any, sub: Any) -> Any:
    if isinstance(s, list):
        return next((i for i in range(len(s) - 1, -1, -1) if s[i] == sub), -1)
    if not isinstance(s, str) or not isinstance(sub, str):
        return _no_overload("lastIndexOf")
    return s.rfind(sub)


def _substring(s: Any, start: Any, end: Any = None) -> Any:
    if not isinstance(s, str) or not isinstance(start, int):
        return _no_overload("substring")
    stop = len(s) if end is None else end
    if not isinstance(stop, int) or not 0 <= start <= stop <= len(s):
        return EvalErrors.fail(f"index out of range: {start}")
    return s[start:stop]


# --- lists extension (k8s: library.Lists) -------------------------------------------------


def _is_sorted(items: Any) -> Any:
    if not isinstance(items, list):
        return _no_overload("isSorted")
    try:
        return all(a <= b for a, b in itertools.pairwise(items))
    except TypeError:
        return _no_overload("isSorted")


def _sum(items: Any) -> Any:
    if not isinstance(items, list) or not all(isinstance(i, (int, float)) for i in items):
        return _no_overload("sum")
    return sum(items)


# --- quantity library (k8s: library.Quantity) ---------------------------------------------

_QTAG = "@quantity"
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
# As (numerator, denominator): Fractions are made at use, see _fraction.
_DECIMAL = {
    "n": (1, 10**9),
    "u": (1, 10**6),
    "m": (1, 1000),
    "": (1, 1),
    "k": (1000, 1),
    "M": (10**6, 1),
    "G": (10**9, 1),
    "T": (10**12, 1),
    "P": (10**15, 1),
    "E": (10**18, 1),
}


def _fraction() -> type[Fraction]:
    """``fractions`` at first use: its import is about 1 ms of every start-up, and only the
    quantity functions (which no bundled rule calls) need it."""
    from fractions import Fraction

    return Fraction


def parse_quantity(text: str) -> Fraction | None:
    """A Kubernetes resource quantity (``1Gi``, ``500m``, ``1e3``) as an exact number, or None."""
    s = text.strip() if len(text) < 64 else ""
    if not s or s != text:
        return None
    sign = -1 if s[0] == "-" else 1
    if s[0] in "+-":
        s = s[1:]
    i = 0
    while i < len(s) and (s[i].isdigit() or s[i] == "."):
        i += 1
    number, suffix = s[:i], s[i:]
    if not number or number == "." or number.count(".") > 1 or not number.isascii():
        return None
    fraction = _fraction()
    value = fraction(number)
    if suffix in _BINARY:
        return sign * value * _BINARY[suffix]
    if suffix in _DECIMAL:
        return sign * value * fraction(*_DECIMAL[suffix])
    if suffix[:1] in ("e", "E"):
        exp = suffix[1:]
        digits = exp[1:] if exp[:1] in "+-" else exp
        if digits.isdigit() and digits.isascii() and len(digits) < 4:
            return sign * value * fraction(10) ** int(exp)
    return None


def _qwrap(value: Fraction) -> dict[str, str]:
    return {_QTAG: f"{value.numerator}/{value.denominator}"}


def _qvalue(q: Any) -> Fraction | None:
    if isinstance(q, dict) and isinstance(q.get(_QTAG), str):
        return _fraction()(q[_QTAG])
    return None


def _quantity(text: Any) -> Any:
    if not isinstance(text, str):
        return _no_overload("quantity")
    value = parse_quantity(text)
    if value is None:
        return EvalErrors.fail(f"quantities must match the regular expression: {text!r}")
    return _qwrap(value)


def _is_quantity(text: Any) -> Any:
    return isinstance(text, str) and parse_quantity(text) is not None


def _qbinary(name: str, op: Callable[[Fraction, Fraction], Any]) -> Callable[[Any, Any], Any]:
    def call(a: Any, b: Any) -> Any:
        left, right = _qvalue(a), _qvalue(b)
        if right is None and isinstance(b, int) and not isinstance(b, bool):
            right = _fraction()(b)
        if left is None or right is None:
            return _no_overload(name)
        return op(left, right)

    return call


def _qunary(name: str, op: Callable[[Fraction], Any]) -> Callable[[Any], Any]:
    def call(a: Any) -> Any:
        value = _qvalue(a)
        return _no_overload(name) if value is None else op(value)

    return call


def _as_integer(q: Fraction) -> Any:
    if q.denominator != 1 or not -(2**63) <= q <= 2**63 - 1:
        return EvalErrors.fail("cannot convert value to integer")
    return int(q)


def _sign(q: Fraction) -> int:
    return (q > 0) - (q < 0)


EXTENSION_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "lowerAscii": _lower_ascii,
    "upperAscii": _upper_ascii,
    "split": _split,
    "join": _join,
    "trim": _trim,
    "replace": _replace,
    "indexOf": _index_of,
    "lastIndexOf": _last_index_of,
    "substring": _substring,
    "isSorted": _is_sorted,
    "sum": _sum,
    "quantity": _quantity,
    "isQuantity": _is_quantity,
    "isGreaterThan": _qbinary("isGreaterThan", lambda a, b: a > b),
    "isLessThan": _qbinary("isLessThan", lambda a, b: a < b),
    "compareTo": _qbinary("compareTo", lambda a, b: (a > b) - (a < b)),
    "add": _qbinary("add", lambda a, b: _qwrap(a + b)),
    "sub": _qbinary("sub", lambda a, b: _qwrap(a - b)),
    "asInteger": _qunary("asInteger", _as_integer),
    "asApproximateFloat": _qunary("asApproximateFloat", float),
    "isInteger": _qunary("isInteger", lambda q: q.denominator == 1),
    "sign": _qunary("sign", _sign),
}

PROVIDED_FUNCTIONS = NATIVE_FUNCTIONS | frozenset(EXTENSION_FUNCTIONS)


def is_operator(name: str) -> bool:
    """Operator overloads (``_==_``, ``!_``, ``@in``) that every CEL implementation provides."""
    return name.startswith(("_", "@", "!"))


_LOADED: dict[str, ModuleType] = {}
# How the library is loaded: ``import cel``, unless a front end handed a quicker loader
# (adapters/cel_extension.py, a start-up trick) to ``use_loader`` first.
_LOADER: list[Callable[[], ModuleType]] = []


def use_loader(load: Callable[[], ModuleType]) -> None:
    """Load the library with ``load`` instead of ``import cel`` (before its first use)."""
    _LOADER[:] = [load]


def library() -> ModuleType:
    """The ``cel`` library (its compiled extension), loaded at first use."""
    if "cel" not in _LOADED:
        _LOADED["cel"] = _LOADER[0]() if _LOADER else importlib.import_module("cel")
    return _LOADED["cel"]
