"""``-o go-template=`` and ``-o go-template-file=``: Go's text/template over the object, as kubectl.

kubectl runs Go's ``text/template`` (with ``missingkey=default``, and its two functions
``exists`` and ``base64decode``) over the object as its unstructured decoder reads JSON: whole
numbers are int64, others float64, and a template's number constants are Go's ``int`` or
``float64``, so ``eq .spec.replicas 1`` is true but ``lt .spec.replicas 2.0`` is an error
(int64 against float64), as Go's comparison functions have it. No Python package runs Go
templates, and a Go helper binary is no option for a pure-Python plugin, so this is a subset
written from the language's documentation and checked against the real kubectl
(tests/cluster/test_gotemplate_kubectl.py):

- text and actions, ``{{- -}}`` trimming, ``{{/* comments */}}``;
- fields ``.a.b``, ``.``, ``$``, variables ``$x := ...`` / ``$x = ...``, ``(pipeline).field``,
  pipelines ``a | b``; string, raw-string, number, char, ``true``/``false``/``nil`` constants;
- ``if``/``else if``/``else``, ``with``/``else with``/``else``, ``range`` (lists, maps in key
  order, ``$i, $e :=``, ``else``, ``break``, ``continue``), ``end``;
- the functions ``and or not len index slice print printf println eq ne lt le gt ge html js
  urlquery`` and kubectl's ``exists`` and ``base64decode``.

``define``, ``template``, ``block`` and ``call`` are refused with one line, as a parse error.
A missing key prints ``<no value>``; an error is one ``error:`` line, exit 2, and nothing on
stdout (kubectl prints the partial output and a dump of the object first).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.jsonpath import NO_VALUE, _unquote, go_format_g, go_sprint, kubectl_data
from kubectl_dgd.output.printer import Options


class GoTemplateError(UsageError):
    """A template that does not parse, or fails on the data (exit 2)."""


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


# ---- parse tree --------------------------------------------------------------------------


@dataclass
class Text:
    """Literal text of the template."""

    text: str


@dataclass
class Field:
    """``.a.b`` (``names`` empty: ``.``) on dot, or on ``$var`` when ``var`` is set."""

    names: list[str]
    var: str | None = None


@dataclass
class Const:
    """A constant: string, number, boolean or nil."""

    value: Any


@dataclass
class Ident:
    """A function name."""

    name: str


@dataclass
class Chain:
    """``(pipeline).a.b``."""

    node: Pipeline
    names: list[str]


@dataclass
class Command:
    """One command of a pipeline: a function and its arguments, or one operand."""

    args: list[Any]


@dataclass
class Pipeline:
    """``a | b | c``, maybe declaring or assigning variables first."""

    commands: list[Command]
    decls: list[str] = field(default_factory=list)
    assign: bool = False  # ``=`` rather than ``:=``


@dataclass
class Action:
    """``{{pipeline}}``: its value printed (unless it declares a variable)."""

    pipe: Pipeline


@dataclass
class Branch:
    """``if``, ``with`` or ``range``, with its body and its ``else``."""

    kind: str
    pipe: Pipeline
    body: list[Any]
    otherwise: list[Any] | None = None


@dataclass
class Loop:
    """``break`` or ``continue``."""

    kind: str


# ---- lexing ------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s+|(?P<raw>`[^`]*`)|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<char>'(?:[^'\\\n]|\\.[^']*)')"""
    r"""|(?P<decl>:=)|(?P<op>[|(),=])"""
    r"""|(?P<num>[-+]?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?))"""
    r"""|(?P<var>\$[A-Za-z0-9_]*)|(?P<field>(?:\.[A-Za-z0-9_]+)+|\.)"""
    r"""|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)""",
    re.DOTALL,
)
_FIELDS = re.compile(r"(?:\.[A-Za-z0-9_]+)+")


def _tokens(action: str, line: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    position = 0
    while position < len(action):
        match = _TOKEN.match(action, position)
        if match is None or match.end() == position:
            raise GoTemplateError(
                f"template: output:{line}: unexpected {action[position]!r} in command"
            )
        position = match.end()
        kind = match.lastgroup
        if kind is None:  # space: Go separates arguments by it
            out.append(("space", " "))
            continue
        text = match.group()
        chained = _FIELDS.match(action, position) if kind == "var" else None
        if chained:  # $x.a.b is one operand
            text += chained.group()
            position = chained.end()
        out.append((kind, text))
    return out


def _split(source: str) -> list[tuple[str, str, int]]:
    """The template as ("text", text) and ("action", inside) pieces, trim markers applied."""
    pieces: list[tuple[str, str, int]] = []
    position = 0
    while True:
        start = source.find("{{", position)
        if start < 0:
            pieces.append(("text", source[position:], 0))
            return pieces
        text = source[position:start]
        inner_start = start + 2
        if source.startswith("- ", inner_start) or (
            source[inner_start : inner_start + 1] == "-"
            and source[inner_start + 1 : inner_start + 2] in ("\t", "\r", "\n")
        ):
            text = text.rstrip(" \t\r\n")
            inner_start += 2
        pieces.append(("text", text, 0))
        line = source.count("\n", 0, start) + 1
        end = _action_end(source, inner_start, line)
        inner = source[inner_start:end]
        position = end + 2
        if inner.endswith(" -") or (len(inner) >= 2 and inner[-1] == "-" and inner[-2] in "\t\r\n"):
            inner = inner[:-2]
            while position < len(source) and source[position] in " \t\r\n":
                position += 1
        pieces.append(("action", inner, line))


def _action_end(source: str, position: int, line: int) -> int:
    """Where the action's ``}}`` is (quotes and comments skipped)."""
    if source.startswith("/*", position):
        close = source.find("*/", position + 2)
        if close < 0:
            raise GoTemplateError(f"template: output:{line}: unclosed comment")
        end = source.find("}}", close + 2)
        if end < 0 or source[close + 2 : end].strip(" -") != "":
            raise GoTemplateError(f"template: output:{line}: comment ends before closing delimiter")
        return end
    i = position
    while i < len(source):
        if source.startswith("}}", i):
            return i
        ch = source[i]
        if ch in "\"'`":
            j = i + 1
            while j < len(source) and source[j] != ch:
                if source[j] == "\n" and ch != "`":
                    break
                j += 2 if source[j] == "\\" and ch != "`" else 1
            i = j + 1
            continue
        i += 1
    raise GoTemplateError(f"template: output:{line}: unclosed action")


# ---- parsing -----------------------------------------------------------------------------

_UNSUPPORTED = ("define", "template", "block")
_KNOWN = frozenset(
    [
        "and",
        "or",
        "not",
        "len",
        "index",
        "slice",
        "print",
        "printf",
        "println",
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "html",
        "js",
        "urlquery",
        "exists",
        "base64decode",
    ]
)


class _Parser:
    def __init__(self, source: str) -> None:
        self.pieces = _split(source)
        self.position = 0

    def error(self, line: int, message: str) -> GoTemplateError:
        return GoTemplateError(f"template: output:{line}: {message}")

    def parse(self) -> list[Any]:
        body, end = self.block(0)
        if end is not None:
            raise self.error(end[1], f"unexpected {{{{{end[0]}}}}}")
        return body

    def block(self, depth: int) -> tuple[list[Any], tuple[str, int, str] | None]:
        """Nodes up to an ``{{end}}`` or ``{{else ...}}`` (returned: word, line, rest)."""
        nodes: list[Any] = []
        while self.position < len(self.pieces):
            kind, text, line = self.pieces[self.position]
            self.position += 1
            if kind == "text":
                if text:
                    nodes.append(Text(text))
                continue
            stripped = text.strip()
            if stripped.startswith("/*"):
                continue
            word, _, rest = stripped.partition(" ")
            word = word.strip()
            if word in ("end", "else"):
                if depth == 0:
                    raise self.error(line, f"unexpected {{{{{word}}}}}")
                return nodes, (word, line, rest.strip())
            if word in ("if", "with", "range"):
                nodes.append(self.branch(word, rest, line, depth))
            elif word in ("break", "continue"):
                if rest.strip():
                    raise self.error(line, f"unexpected {rest.strip()!r} in {word}")
                nodes.append(Loop(word))
            elif word in _UNSUPPORTED:
                raise self.error(line, f"{{{{{word}}}}} is not supported by kubectl dgd")
            else:
                nodes.append(Action(self.pipeline(stripped, line, decls_allowed=True)))
        if depth:
            raise GoTemplateError("template: output: unexpected EOF")
        return nodes, None

    def branch(self, kind: str, rest: str, line: int, depth: int) -> Branch:
        if not rest.strip():
            raise self.error(line, f"missing value for {kind}")
        node = Branch(
            kind, self.pipeline(rest, line, decls_allowed=True, ranging=kind == "range"), []
        )
        node.body, end = self.block(depth + 1)
        assert end is not None
        word, end_line, after = end
        if word == "else":
            inner, _, inner_rest = after.partition(" ")
            if inner in ("if", "with") and kind in ("if", "with"):  # else if / else with
                node.otherwise = [self.branch(inner, inner_rest, end_line, depth)]
                return node
            if after:
                raise self.error(end_line, f"unexpected {after!r} in else")
            node.otherwise, end = self.block(depth + 1)
            assert end is not None
            if end[0] != "end":
                raise self.error(end[1], "expected end; found {{else}}")
        elif after:
            raise self.error(end_line, f"unexpected {after!r} in end")
        return node

    def pipeline(
        self, text: str, line: int, decls_allowed: bool = False, ranging: bool = False
    ) -> Pipeline:
        tokens = _tokens(text, line)
        pipe = Pipeline([])
        words = [t for t in tokens if t[0] != "space"]
        # declarations: $x := / $x = / $i, $e := (range)
        if decls_allowed and words and words[0][0] == "var":
            names: list[str] = []
            i = 0
            while i < len(words) and words[i][0] == "var" and "." not in words[i][1]:
                names.append(words[i][1])
                if i + 1 < len(words) and words[i + 1][1] == ",":
                    i += 2
                    continue
                break
            nxt = words[i + 1] if i + 1 < len(words) else None
            if nxt is not None and (nxt[0] == "decl" or nxt[1] == "="):
                if len(names) > (2 if ranging else 1):
                    raise self.error(line, "too many declarations in command")
                pipe.decls, pipe.assign = names, nxt[1] == "="
                # drop the declaration's tokens
                count = 0
                cut = 0
                for index, token in enumerate(tokens):
                    if token[0] != "space":
                        count += 1
                    if count == i + 2:
                        cut = index + 1
                        break
                tokens = tokens[cut:]
        commands = self.commands(tokens, line)
        if not commands:
            raise self.error(line, "missing value for command")
        pipe.commands = commands
        return pipe

    def commands(self, tokens: list[tuple[str, str]], line: int) -> list[Command]:
        commands: list[Command] = []
        args: list[Any] = []
        position = 0
        while position < len(tokens):
            kind, text = tokens[position]
            position += 1
            if kind == "space":
                continue
            if text == "|":
                if not args:
                    raise self.error(line, "missing command")
                commands.append(Command(args))
                args = []
                continue
            if text == "(":
                depth, start = 1, position
                while position < len(tokens) and depth:
                    depth += {"(": 1, ")": -1}.get(tokens[position][1], 0)
                    position += 1
                if depth:
                    raise self.error(line, "unclosed left paren")
                inner = self.commands(tokens[start : position - 1], line)
                if not inner:
                    raise self.error(line, "missing value for parenthesized pipeline")
                names: list[str] = []
                if position < len(tokens) and tokens[position][0] == "field":
                    names = tokens[position][1].split(".")[1:]
                    position += 1
                args.append(Chain(Pipeline(inner), names) if names else Pipeline(inner))
                continue
            if text == ")":
                raise self.error(line, "unexpected right paren")
            if kind in ("op", "decl"):
                raise self.error(line, f"unexpected {text!r} in command")
            args.append(self.operand(kind, text, line))
        if args:
            commands.append(Command(args))
        elif commands:
            raise self.error(line, "missing command")
        return commands

    def operand(self, kind: str, text: str, line: int) -> Any:
        if kind == "field":
            return Field([] if text == "." else text.split(".")[1:])
        if kind == "var":
            name, _, rest = text.partition(".")
            return Field(rest.split(".") if rest else [], var=name)
        if kind in ("str", "raw"):
            if kind == "raw":
                return Const(text[1:-1])
            try:
                return Const(_unquote(text))
            except ValueError:
                raise self.error(line, f"bad string syntax: {text}") from None
        if kind == "char":
            try:
                return Const(_Int(ord(_unquote(text))))
            except (ValueError, TypeError):
                raise self.error(line, f"bad character constant: {text}") from None
        if kind == "num":
            return Const(_number(text, line))
        if text in ("true", "false"):
            return Const(text == "true")
        if text == "nil":
            return Const(_NIL)
        if text in _KNOWN:
            return Ident(text)
        if text == "call":
            raise self.error(line, "call is not supported by kubectl dgd")
        raise self.error(line, f'function "{text}" not defined')


class _Nil:
    """The ``nil`` constant (only an argument; ``{{nil}}`` is an error, as in Go)."""


_NIL = _Nil()


def _number(text: str, line: int) -> int | float:
    clean = text.replace("_", "")
    try:
        if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+", clean):
            return _Int(int(clean, 16))
        if re.search(r"[.eE]", clean):
            return float(clean)
        return _Int(int(clean, 10))
    except ValueError:
        raise GoTemplateError(f"template: output:{line}: bad number syntax: {text!r}") from None


# ---- Go's values ---------------------------------------------------------------------------


def _go_type(value: Any) -> str:
    if isinstance(value, dict):
        return "map[string]interface {}"
    if isinstance(value, list):
        return "[]interface {}"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, _Int):
        return "int"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "<nil>"


def _is_nil(value: Any) -> bool:
    return value is None or value is NO_VALUE or value is _NIL


def truth(value: Any) -> bool:
    if _is_nil(value):
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    if isinstance(value, str | list | dict):
        return len(value) > 0
    return True


class _Int(int):
    """A template's integer constant: Go's ``int`` (the data's whole numbers are int64)."""


def _sprint(value: Any) -> str:
    """An action's value as text: an invalid value, and a JSON null met as a value (Go unwraps the nil
    interface), print ``<no value>``; a null inside a map or list prints ``<nil>``."""
    if value is NO_VALUE or value is None:
        return "<no value>"
    if value is _NIL:
        return "<nil>"
    return go_sprint(value)


def _sprint_args(args: list[Any]) -> str:
    """fmt.Sprint: a space between operands when neither is a string."""
    out = ""
    for i, arg in enumerate(args):
        if i and not isinstance(arg, str) and not isinstance(args[i - 1], str):
            out += " "
        out += _arg_text(arg)
    return out


def _arg_text(value: Any) -> str:
    return "<nil>" if _is_nil(value) else go_sprint(value)


# ---- fmt.Sprintf ---------------------------------------------------------------------------

_VERB = re.compile(r"%([-+# 0]*)(\*|\d+)?(?:\.(\*|\d+)?)?([a-zA-Z%])")


def _sprintf(fmt: str, args: list[Any]) -> str:
    out: list[str] = []
    position = 0
    used = 0
    for match in _VERB.finditer(fmt):
        out.append(fmt[position : match.start()])
        position = match.end()
        flags, width, precision, verb = match.groups()
        if verb == "%" and not flags and width is None and precision is None:
            out.append("%")
            continue
        if used >= len(args):
            out.append(f"%!{verb}(MISSING)")
            continue
        value = args[used]
        used += 1
        out.append(_pad(_format_one(verb, value, precision), flags, width))
    out.append(fmt[position:])
    if used < len(args):
        extra = ", ".join(f"{_go_type(a)}={_arg_text(a)}" for a in args[used:])
        out.append(f"%!(EXTRA {extra})")
    return "".join(out)


def _pad(text: str, flags: str, width: str | None) -> str:
    if not width or width == "*":
        return text
    size = int(width)
    if "-" in flags:
        return f"{text:<{size}}"
    if "0" in flags and re.fullmatch(r"[-+]?[0-9.e+]+", text):
        sign = text[0] if text[:1] in "+-" else ""
        return sign + f"{text[len(sign) :]:0>{size - len(sign)}}"
    return f"{text:>{size}}"


def _bad(verb: str, value: Any) -> str:
    return f"%!{verb}({_go_type(value)}={_arg_text(value)})"


def _format_one(verb: str, value: Any, precision: str | None) -> str:
    if verb == "v":
        return _arg_text(value)
    if verb == "s":
        if isinstance(value, str):
            return value if precision is None else value[: int(precision or 0)]
        if isinstance(value, dict | list) or _is_nil(value):
            return _arg_text(value) if not _is_nil(value) else "%!s(<nil>)"
        return _bad(verb, value)
    if verb == "q":
        if isinstance(value, str):
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        return _bad(verb, value)
    if verb == "t":
        return ("true" if value else "false") if isinstance(value, bool) else _bad(verb, value)
    if verb in "dxXob":
        if isinstance(value, int) and not isinstance(value, bool):
            base = {"d": "d", "x": "x", "X": "X", "o": "o", "b": "b"}[verb]
            return format(value, base)
        if verb in "xX" and isinstance(value, str):
            text = value.encode("utf-8").hex()
            return text.upper() if verb == "X" else text
        return _bad(verb, value)
    if verb in "feEgG":
        if isinstance(value, float):
            if verb in "gG" and precision is None:
                return go_format_g(value)
            digits = 6 if precision is None else int(precision or 0)
            if math.isinf(value) or math.isnan(value):
                return go_format_g(value)
            text = format(value, f".{digits}{verb}")
            if verb in "eE":  # Go: at least two exponent digits, like Python
                return text
            return text
        return _bad(verb, value)
    return _bad(verb, value)


# ---- escaping functions ------------------------------------------------------------------


def _html(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("'", "&#39;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("\x00", "\ufffd")
    )


def _js(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == '"':
            out.append('\\"')
        elif ch in "<>&=":
            out.append(f"\\u{ord(ch):04X}")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or not ch.isprintable():
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


# ---- evaluation --------------------------------------------------------------------------


_COMPARABLE = (bool, int, float, str)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if _is_nil(value):
        return "invalid"
    return "other"


def _eq(left: Any, *rights: Any) -> bool:
    if not rights:
        raise GoTemplateError("missing argument for comparison")
    for right in rights:
        k1, k2 = _kind(left), _kind(right)
        if k1 != k2:
            if k1 != "invalid" and k2 != "invalid":
                raise GoTemplateError("incompatible types for comparison")
            continue
        if k1 == "other":
            raise GoTemplateError(f"non-comparable type {_go_type(left)}")
        if k1 == "invalid" or left == right:
            return True
    return False


def _less(left: Any, right: Any) -> bool:
    k1, k2 = _kind(left), _kind(right)
    if k1 in ("bool", "other", "invalid") or k2 in ("bool", "other", "invalid"):
        raise GoTemplateError("invalid type for comparison")
    if k1 != k2:
        raise GoTemplateError("incompatible types for comparison")
    return bool(left < right)


def _index(item: Any, *indexes: Any) -> Any:
    for index in indexes:
        if _is_nil(item):
            raise GoTemplateError("index of untyped nil")
        if isinstance(item, dict):
            if not isinstance(index, str):
                raise GoTemplateError(f"value has type {_go_type(index)}; should be string")
            item = item.get(index, NO_VALUE)
        elif isinstance(item, list | str):
            if _is_nil(index):
                raise GoTemplateError("cannot index slice/array with nil")
            if not isinstance(index, int) or isinstance(index, bool):
                raise GoTemplateError(f"cannot index slice/array with type {_go_type(index)}")
            if not 0 <= index < len(item):
                raise GoTemplateError(f"index out of range: {index}")
            item = item[index] if isinstance(item, list) else item.encode("utf-8")[index]
        else:
            raise GoTemplateError(f"can't index item of type {_go_type(item)}")
    return item


def _slice(item: Any, *bounds: Any) -> Any:
    if not isinstance(item, list | str):
        raise GoTemplateError(f"can't slice item of type {_go_type(item)}")
    if any(not isinstance(b, int) or isinstance(b, bool) for b in bounds) or len(bounds) > 3:
        raise GoTemplateError("cannot index slice/array with non-int bounds")
    numbers = [int(b) for b in bounds]
    if isinstance(item, str) and len(numbers) == 3:
        raise GoTemplateError("cannot 3-index slice a string")
    start = numbers[0] if numbers else 0
    end = numbers[1] if len(numbers) > 1 else len(item)
    if not 0 <= start <= end <= len(item):
        raise GoTemplateError(f"index out of range: {end if end > len(item) else start}")
    return item[start:end]


def _len(item: Any) -> int:
    if isinstance(item, str):
        return len(item.encode("utf-8"))
    if isinstance(item, list | dict):
        return len(item)
    raise GoTemplateError(f"len of type {_go_type(item)}")


def _has(item: Any, index: Any) -> bool:
    if isinstance(item, dict):
        return isinstance(index, str) and index in item
    if isinstance(item, list):
        number = isinstance(index, int) and not isinstance(index, bool)
        return number and 0 <= index < len(item)
    return False


def _exists(item: Any, *indexes: Any) -> bool:
    """kubectl's ``exists``: whether the path of keys and indexes is there."""
    for index in indexes:
        if not _has(item, index):
            return False
        item = item[index]
    return True


def _base64decode(value: Any) -> str:
    if not isinstance(value, str):
        raise GoTemplateError(f"wrong type for value; expected string; got {_go_type(value)}")
    try:
        return base64.b64decode(value, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError) as err:
        raise GoTemplateError(f"base64 decode failed: {err}") from None


def _text_arg(args: list[Any]) -> str:
    if len(args) == 1 and isinstance(args[0], str):
        return args[0]
    return _sprint_args(args)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "not": lambda v: not truth(v),
    "len": _len,
    "index": _index,
    "slice": _slice,
    "print": lambda *a: _sprint_args(list(a)),
    "println": lambda *a: " ".join(_arg_text(v) for v in a) + "\n",
    "printf": lambda f, *a: _sprintf(f, list(a)) if isinstance(f, str) else _bad_call("printf", f),
    "eq": _eq,
    "ne": lambda a, b: not _eq(a, b),
    "lt": _less,
    "le": lambda a, b: _less(a, b) or _eq(a, b),
    "gt": lambda a, b: not (_less(a, b) or _eq(a, b)),
    "ge": lambda a, b: not _less(a, b),
    "html": lambda *a: _html(_text_arg(list(a))),
    "js": lambda *a: _js(_text_arg(list(a))),
    "urlquery": lambda *a: urllib.parse.quote_plus(_text_arg(list(a)), safe=""),
    "exists": _exists,
    "base64decode": _base64decode,
}


def _bad_call(name: str, value: Any) -> Any:
    raise GoTemplateError(
        f"wrong type for value; expected string; got {_go_type(value)} (calling {name})"
    )


class _Executor:
    def __init__(self, data: Any) -> None:
        self.out: list[str] = []
        self.scopes: list[dict[str, Any]] = [{"$": data}]

    def run(self, nodes: list[Any], dot: Any) -> None:
        for node in nodes:
            if isinstance(node, Text):
                self.out.append(node.text)
            elif isinstance(node, Action):
                value = self.pipeline(node.pipe, dot)
                if not node.pipe.decls:
                    self.out.append(_sprint(value))
            elif isinstance(node, Branch):
                self.branch(node, dot)
            elif isinstance(node, Loop):
                raise _Break() if node.kind == "break" else _Continue()

    def scoped(self, nodes: list[Any], dot: Any, names: dict[str, Any] | None = None) -> None:
        self.scopes.append(dict(names or {}))
        try:
            self.run(nodes, dot)
        finally:
            self.scopes.pop()

    def branch(self, node: Branch, dot: Any) -> None:
        if node.kind != "range":
            self.scopes.append({})
            try:
                value = self.pipeline(node.pipe, dot)
                if truth(value):
                    self.run(node.body, value if node.kind == "with" else dot)
                elif node.otherwise is not None:
                    self.run(node.otherwise, dot)
            finally:
                self.scopes.pop()
            return
        decls = node.pipe.decls
        plain = Pipeline(node.pipe.commands)
        value = self.pipeline(plain, dot)
        if isinstance(value, dict):
            items: list[tuple[Any, Any]] = [(k, value[k]) for k in sorted(value)]
        elif isinstance(value, list):
            items = list(enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            items = [(i, i) for i in range(value)]
        elif _is_nil(value):
            items = []
        else:
            raise GoTemplateError(f"range can't iterate over {_arg_text(value)}")
        if not items:
            if node.otherwise is not None:
                self.scoped(node.otherwise, dot)
            return
        for key, element in items:
            names: dict[str, Any] = {}
            if len(decls) == 1:
                names[decls[0]] = element
            elif len(decls) == 2:
                names[decls[0]], names[decls[1]] = key, element
            try:
                self.scoped(node.body, element, names)
            except _Break:
                break
            except _Continue:
                continue

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        raise GoTemplateError(f"undefined variable: {name}")

    def pipeline(self, pipe: Pipeline, dot: Any) -> Any:
        value: Any = _MISSING
        for command in pipe.commands:
            value = self.command(command, dot, value)
        if value is _MISSING:
            value = NO_VALUE
        if pipe.decls:
            name = pipe.decls[0]
            if pipe.assign:
                for scope in reversed(self.scopes):
                    if name in scope:
                        scope[name] = value
                        break
                else:
                    raise GoTemplateError(f"undefined variable: {name}")
            else:
                self.scopes[-1][name] = value
        return value

    def command(self, command: Command, dot: Any, final: Any) -> Any:
        first, rest = command.args[0], command.args[1:]
        if isinstance(first, Ident):
            return self.call(first.name, rest, dot, final)
        if rest or final is not _MISSING:
            if isinstance(first, Field) and first.names:
                raise GoTemplateError(f"{first.names[-1]} is not a method but has arguments")
            raise GoTemplateError(f"can't give argument to non-function {self.describe(first)}")
        return self.operand(first, dot)

    def describe(self, node: Any) -> str:
        if isinstance(node, Const):
            return _arg_text(node.value)
        return "."

    def operand(self, node: Any, dot: Any) -> Any:
        if isinstance(node, Const):
            if node.value is _NIL:
                raise GoTemplateError("nil is not a command")
            return node.value
        if isinstance(node, Field):
            receiver = dot if node.var is None else self.lookup(node.var)
            return self.fields(receiver, node.names)
        if isinstance(node, Chain):
            return self.fields(self.pipeline(node.node, dot), node.names)
        if isinstance(node, Pipeline):
            self.scopes.append({})
            try:
                return self.pipeline(node, dot)
            finally:
                self.scopes.pop()
        if isinstance(node, Ident):
            return self.call(node.name, [], dot, _MISSING)
        raise GoTemplateError("unexpected operand")

    def fields(self, receiver: Any, names: list[str]) -> Any:
        for name in names:
            if receiver is NO_VALUE:
                return NO_VALUE
            if receiver is None:
                raise GoTemplateError(f"nil pointer evaluating interface {{}}.{name}")
            if isinstance(receiver, dict):
                receiver = receiver.get(name, NO_VALUE)
                continue
            raise GoTemplateError(f"can't evaluate field {name} in type {_go_type(receiver)}")
        return receiver

    def argument(self, node: Any, dot: Any) -> Any:
        if isinstance(node, Const):
            return node.value
        if isinstance(node, Ident):
            return self.call(node.name, [], dot, _MISSING)
        return self.operand(node, dot)

    def call(self, name: str, nodes: list[Any], dot: Any, final: Any) -> Any:
        if name in ("and", "or"):  # short-circuit, returning the deciding argument
            values_needed = [*nodes] + ([] if final is _MISSING else [Const(final)])
            if not values_needed:
                raise GoTemplateError(f"wrong number of args for {name}: want at least 1 got 0")
            value: Any = NO_VALUE
            for node in values_needed:
                value = self.argument(node, dot)
                if truth(value) != (name == "and"):
                    return value
            return value
        args = [self.argument(n, dot) for n in nodes]
        if final is not _MISSING:
            args.append(final)
        args = [None if a is NO_VALUE else a for a in args]
        try:
            return FUNCTIONS[name](*args)
        except TypeError:
            raise GoTemplateError(f"wrong number of args for {name}: got {len(args)}") from None
        except GoTemplateError as err:
            raise GoTemplateError(f"error calling {name}: {err}") from None


_MISSING = object()


@dataclass(frozen=True)
class GoTemplate:
    """A parsed Go template; :func:`execute` applies it to JSON data."""

    source: str
    nodes: list[Any]


def prepare(text: str) -> GoTemplate:
    """The template of ``-o go-template=TEXT`` (or of its file's text), parsed once."""
    if not text:
        raise GoTemplateError("template format specified but no template given")
    try:
        return GoTemplate(text, _Parser(text).parse())
    except GoTemplateError as err:
        raise GoTemplateError(f"error parsing template {text}, {err}") from None


def execute(template: GoTemplate, data: Any) -> str:
    runner = _Executor(data)
    try:
        runner.run(template.nodes, runner.scopes[0]["$"])
    except (_Break, _Continue):
        pass
    except GoTemplateError as err:
        raise GoTemplateError(
            f"error executing template {template.source!r}: template: output: {err}"
        ) from None
    except RecursionError:
        raise GoTemplateError("error executing template: the data is nested too deeply") from None
    return "".join(runner.out)


def _template(options: Options) -> GoTemplate:
    if isinstance(options.prepared, GoTemplate):
        return options.prepared
    return prepare(options.argument or "")


def render(view: Any, options: Options) -> str:
    return execute(_template(options), kubectl_data(view))
