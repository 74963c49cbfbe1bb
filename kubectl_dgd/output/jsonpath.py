"""kubectl's JSONPath templates (``-o jsonpath=``), on the JSON a view dumps with ``-o json``.

No Python package implements kubectl's dialect (``k8s.io/client-go/util/jsonpath``): text around
``{...}`` actions, ``range``/``end``, ``[?()]`` filters, unions, and Go's way of printing values.
The JSONPath libraries on PyPI (jsonpath-ng and its forks, python-jsonpath) take one bare
expression with other quoting, filter and output rules. So this is a small parser and evaluator
of kubectl's grammar, written from its documented behaviour; where kubectl is odd (``['a.b']``
splits at the dot, ``[]`` is the first element, ``*`` on a string gives its bytes), we are odd
in the same way, since scripts rely on kubectl's output byte for byte.

Values print as kubectl prints them: strings raw, maps and lists as Go's compact JSON (keys
sorted, ``<>&`` escaped), numbers with Go's ``%v``, JSON null as ``null``; several results of one
action are joined by a space. Missing keys print nothing (kubectl's default
``--allow-missing-template-keys=true``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import Options, template_data


class JsonPathError(UsageError):
    """A template that does not parse, or that fails on the data (exit 2)."""


# ---- nodes ---------------------------------------------------------------------------------


@dataclass
class Text:
    """Literal text of a template."""

    text: str


@dataclass
class Field:
    """A `.name` step."""

    name: str


@dataclass
class Param:
    """One of an array slice's start, end and step."""

    known: bool = False
    value: int = 0
    derived: bool = False


@dataclass
class Array:
    """An index or slice step: `[start:end:step]`."""

    params: tuple[Param, Param, Param]


@dataclass
class Filter:
    """A filter step: `[?(left op right)]`."""

    left: Seq
    right: Seq
    operator: str


@dataclass
class Literal:
    """A number or boolean in a filter."""

    value: int | float | bool


@dataclass
class Wildcard:
    """The `*` step."""


@dataclass
class Recursive:
    """The `..` (recursive descent) step."""


@dataclass
class Union:
    """A union step: `[a,b]`."""

    branches: list[Seq]


@dataclass
class Identifier:
    """A bare name in a filter."""

    name: str


@dataclass
class Seq:
    """The nodes of one ``{...}`` action, applied one after the other."""

    nodes: list[Node] = field(default_factory=list)


Node = Text | Field | Array | Filter | Literal | Wildcard | Recursive | Union | Identifier | Seq


# ---- parser --------------------------------------------------------------------------------

_DICT_KEY = re.compile(r"^'([^']*)'$")
_SLICE = re.compile(r"^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$")
_COMPARISON = re.compile(r"^([^!<>=]+)([!<>=]+)(.+?)$")
_EOF = ""


def _terminator(ch: str) -> bool:
    return ch in (_EOF, " ", "\t", "\r", "\n", ".", ",", "[", "]", "$", "@", "{", "}")


def _digit(ch: str) -> bool:
    """Go's unicode.IsDigit: decimal digits of any script (not Python's superscripts)."""
    return bool(ch) and unicodedata.category(ch) == "Nd"


def _alphanumeric(ch: str) -> bool:
    return ch == "_" or ch.isalpha() or _digit(ch)


def _go_rune(ch: str) -> str:
    """Go's ``%#U``: ``U+0021 '!'`` (without the character when it does not print)."""
    code = f"U+{ord(ch):04X}"
    return f"{code} '{ch}'" if ch.isprintable() else code


class _Parser:
    def __init__(self, text: str) -> None:
        self.input = text
        self.pos = 0
        self.start = 0
        self.root = Seq()

    # scanning
    def next(self) -> str:
        if self.pos >= len(self.input):
            self.pos = len(self.input) + 1  # so that backup() returns to the end
            return _EOF
        ch = self.input[self.pos]
        self.pos += 1
        return ch

    def backup(self) -> None:
        self.pos -= 1

    def peek(self) -> str:
        ch = self.next()
        self.backup()
        return ch

    def consume(self) -> str:
        value = self.input[self.start : self.pos]
        self.start = self.pos
        return value

    def rest(self) -> str:
        return self.input[self.pos :]

    # grammar
    def parse(self) -> Seq:
        self.parse_text()
        return self.root

    def parse_text(self) -> None:
        """Text up to each ``{``, then the action up to its ``}``, until the end (a loop, so
        that a template of many actions cannot exhaust the stack)."""
        while True:
            if self.rest().startswith("{"):
                if self.pos > self.start:
                    self.root.nodes.append(Text(self.consume()))
                self.pos += 1
                self.consume()
                action = Seq()
                self.root.nodes.append(action)
                self.parse_action(action)
                continue
            if self.pos >= len(self.input):
                break
            self.pos += 1
        if self.pos > self.start:
            self.root.nodes.append(Text(self.consume()))

    def parse_action(self, cur: Seq) -> None:
        # A loop where kubectl recurses, so that a long action cannot exhaust the stack.
        while True:
            rest = self.rest()
            if rest.startswith("}"):
                self.pos += 1
                self.consume()
                return
            if rest.startswith("[?("):
                self.parse_filter(cur)
                continue
            if rest.startswith(".."):
                self.parse_recursive(cur)
                continue
            ch = self.next()
            if ch == _EOF or ch in "\r\n":
                raise JsonPathError("unclosed action")
            if ch in " @$":
                self.consume()
            elif ch == "[":
                self.parse_array(cur)
            elif ch in "\"'":
                self.parse_quote(cur, ch)
            elif ch == ".":
                self.parse_field(cur)
            elif ch in "+-" or _digit(ch):
                self.backup()
                self.parse_number(cur)
            elif _alphanumeric(ch):
                self.backup()
                self.parse_identifier(cur)
            else:
                raise JsonPathError(f"unrecognized character in action: {_go_rune(ch)}")

    def parse_identifier(self, cur: Seq) -> None:
        while not _terminator(self.next()):
            pass
        self.backup()
        value = self.consume()
        cur.nodes.append(
            Literal(value == "true") if value in ("true", "false") else Identifier(value)
        )

    def parse_recursive(self, cur: Seq) -> None:
        if cur.nodes and isinstance(cur.nodes[-1], Recursive):
            raise JsonPathError("invalid multiple recursive descent")
        self.pos += 2
        self.consume()
        cur.nodes.append(Recursive())
        if _alphanumeric(self.peek()):
            self.parse_field(cur)

    def parse_number(self, cur: Seq) -> None:
        if self.peek() in "+-":
            self.next()
        while True:
            ch = self.next()
            if ch != "." and not _digit(ch):
                self.backup()
                break
        value = self.consume()
        if re.fullmatch(r"[+-]?[0-9]+", value):
            cur.nodes.append(Literal(int(value)))
            return
        if re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)", value):
            cur.nodes.append(Literal(float(value)))
            return
        raise JsonPathError(f"cannot parse number {value}")

    def parse_array(self, cur: Seq) -> None:
        while True:
            ch = self.next()
            if ch in (_EOF, "\n"):
                raise JsonPathError("unterminated array")
            if ch == "]":
                break
        text = self.consume()[1:-1]
        if text == "*":
            text = ":"
        parts = text.split(",")
        if len(parts) > 1:
            cur.nodes.append(Union([_parse_action(f"[{p.strip(' ')}]") for p in parts]))
            return
        key = _DICT_KEY.match(text)
        if key:
            cur.nodes.extend(_parse_action(f".{key.group(1)}").nodes)
            return
        match = _SLICE.match(text)
        if match is None:
            raise JsonPathError(f"invalid array index {text}")
        groups = [g or "" for g in match.groups()]
        params = [Param(), Param(), Param()]
        for i, raw in enumerate(groups):
            if raw:
                number = raw[1:] if i > 0 else raw
                if i > 0 and not number:
                    continue
                if not re.fullmatch(r"-?[0-9]+", number):
                    raise JsonPathError(f"array index {number} is not a number")
                params[i] = Param(True, int(number))
            elif i == 1:
                params[1] = Param(True, params[0].value + 1, True)
        cur.nodes.append(Array((params[0], params[1], params[2])))

    def parse_filter(self, cur: Seq) -> None:
        self.pos += 3
        self.consume()
        begin = end = False
        pair = ""
        while True:
            ch = self.next()
            if ch in (_EOF, "\n"):
                raise JsonPathError("unterminated filter")
            if ch in "\"'":
                if not begin:
                    begin, pair = True, ch
                    continue
                if self.input[self.pos - 2] != "\\" and ch == pair:
                    end = True
            elif ch == ")" and begin == end:
                break
        if self.next() != "]":
            raise JsonPathError("unclosed array expect ]")
        text = self.consume()[:-2]
        match = _COMPARISON.match(text)
        if match is None:
            cur.nodes.append(Filter(_parse_action(text), Seq(), "exists"))
        else:
            left, operator, right = match.groups()
            cur.nodes.append(Filter(_parse_action(left), _parse_action(right), operator))

    def parse_quote(self, cur: Seq, quote: str) -> None:
        while True:
            ch = self.next()
            if ch in (_EOF, "\n"):
                raise JsonPathError("unterminated quoted string")
            if ch == quote and self.input[self.pos - 2] != "\\":
                break
        value = self.consume()
        try:
            cur.nodes.append(Text(_unquote(value)))
        except ValueError:
            raise JsonPathError(f"unquote string {value} error invalid syntax") from None

    def parse_field(self, cur: Seq) -> None:
        self.consume()
        while True:
            ch = self.next()
            if ch == "\\":
                self.next()
            elif _terminator(ch):
                self.backup()
                break
        value = self.consume()
        cur.nodes.append(Wildcard() if value == "*" else Field(value.replace("\\", "")))


def _parse_action(text: str) -> Seq:
    """An action's body parsed on its own (unions, filters, ``['key']``)."""
    root = _Parser("{" + text + "}").parse()
    first = root.nodes[0]
    assert isinstance(first, Seq)
    return first


_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _unquote(quoted: str) -> str:
    """Go's ``strconv.Unquote`` rules, for single or double quotes (kubectl's UnquoteExtend)."""
    if len(quoted) < 2 or quoted[0] != quoted[-1] or quoted[0] not in "\"'":
        raise ValueError(quoted)
    quote, body = quoted[0], quoted[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == quote:
            raise ValueError(quoted)
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(body):
            raise ValueError(quoted)
        esc = body[i + 1]
        i += 2
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
        elif esc == "\\":
            out.append("\\")
        elif esc in "'\"":
            if esc != quote:
                raise ValueError(quoted)
            out.append(esc)
        elif esc in "xuU":
            size = {"x": 2, "u": 4, "U": 8}[esc]
            digits = body[i : i + size]
            if len(digits) != size or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                raise ValueError(quoted)
            code = int(digits, 16)
            if esc != "x" and (code > 0x10FFFF or 0xD800 <= code < 0xE000):
                raise ValueError(quoted)
            out.append(chr(code))
            i += size
        elif esc in "01234567":
            digits = body[i - 1 : i + 2]
            if len(digits) != 3 or not re.fullmatch(r"[0-7]{3}", digits) or int(digits, 8) > 255:
                raise ValueError(quoted)
            out.append(chr(int(digits, 8)))
            i += 2
        else:
            raise ValueError(quoted)
    return "".join(out)


@dataclass(frozen=True)
class Template:
    """A parsed template; :func:`execute` applies it to plain JSON data."""

    source: str
    root: Seq


def parse(template: str) -> Template:
    """Parse ``template``; a syntax error is one line in kubectl's words."""
    return Template(template, _Parser(template).parse())


# ---- evaluation ----------------------------------------------------------------------------


class _NoValue:
    """What a range over nothing evaluates against (Go's invalid value, printed ``<no value>``)."""


NO_VALUE = _NoValue()


def _is_nil(value: Any) -> bool:
    return value is None or value is NO_VALUE


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        return list(value.encode("utf-8"))  # Go indexes a string by byte
    return []


def go_type(value: Any) -> str:
    """The Go type kubectl's data has for a JSON value (for error messages)."""
    if isinstance(value, dict):
        return "map[string]interface {}"
    if isinstance(value, list):
        return "[]interface {}"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "interface {}"


class _Evaluator:
    def __init__(self, allow_missing: bool) -> None:
        self.allow_missing = allow_missing
        self.begin_range = 0
        self.in_range = 0
        self.end_range = 0
        self.last_end = -1

    def find(self, nodes: list[Node], offset: int, data: Any) -> list[list[Any]]:
        """The result groups of ``nodes[offset:]`` against ``data``; a ``range`` repeats what
        follows it up to its ``end`` for each of its values."""
        groups: list[list[Any]] = []
        i = offset
        while i < len(nodes):
            results = self.walk([data], nodes[i])
            if self.end_range > 0 and self.end_range <= self.in_range:
                self.end_range -= 1
                self.last_end = i
                break
            if self.begin_range > 0:
                self.begin_range -= 1
                self.in_range += 1
                if results:
                    for value in results:
                        groups.extend(self.find(nodes, i + 1, NO_VALUE if value is None else value))
                else:
                    self.find(nodes, i + 1, NO_VALUE)
                self.in_range -= 1
                i = max(i, self.last_end)
                i += 1
                continue
            groups.append(results)
            i += 1
        return groups

    def walk(self, values: list[Any], node: Node) -> list[Any]:
        if isinstance(node, Seq):
            for inner in node.nodes:
                values = self.walk(values, inner)
            return values
        if isinstance(node, Text):
            return [node.text]
        if isinstance(node, Field):
            return self.field(values, node)
        if isinstance(node, Array):
            return self.array(values, node)
        if isinstance(node, Filter):
            return self.filter(values, node)
        if isinstance(node, Literal):
            return [node.value for _ in values]
        if isinstance(node, Wildcard):
            return [child for value in values if not _is_nil(value) for child in _children(value)]
        if isinstance(node, Recursive):
            return self.recursive(values)
        if isinstance(node, Union):
            return [r for branch in node.branches for r in self.walk(values, branch)]
        return self.identifier(values, node)

    def identifier(self, values: list[Any], node: Identifier) -> list[Any]:
        if node.name == "range":
            self.begin_range += 1
            return values
        if node.name == "end":
            if self.in_range > 0:
                self.end_range += 1
                return []
            raise JsonPathError("not in range, nothing to end")
        raise JsonPathError(f"unrecognized identifier {node.name}")

    def field(self, values: list[Any], node: Field) -> list[Any]:
        if not values:
            return []
        found = [v[node.name] for v in values if isinstance(v, dict) and node.name in v]
        if not found and not self.allow_missing:
            raise JsonPathError(f"{node.name} is not found")
        return found

    def array(self, values: list[Any], node: Array) -> list[Any]:
        out: list[Any] = []
        for value in values:
            if _is_nil(value):
                continue
            if not isinstance(value, list):
                raise JsonPathError(f"{go_type(value)} is not array or slice")
            length = len(value)
            first, last, step = node.params
            start = first.value if first.known else 0
            if start < 0:
                start += length
            end = last.value if last.known else length
            if end < 0 or (end == 0 and last.derived):
                end += length
            if end == start:  # zero elements asked for: kubectl stops here
                return out
            if start >= length or start < 0:
                raise JsonPathError(f"array index out of bounds: index {start}, length {length}")
            if end > length or end < 0:
                raise JsonPathError(f"array index out of bounds: index {end - 1}, length {length}")
            if start > end:
                raise JsonPathError(f"starting index {start} is greater than ending index {end}")
            stride = 1
            if step.known:
                if step.value <= 0:
                    raise JsonPathError("step must be > 0")
                stride = step.value
            out.extend(value[start:end:stride])
        return out

    def filter(self, values: list[Any], node: Filter) -> list[Any]:
        out: list[Any] = []
        for value in values:
            if not isinstance(value, list):
                raise JsonPathError(
                    f"{go_sprint(value)} is not array or slice and cannot be filtered"
                )
            for item in value:
                if node.operator == "exists":
                    try:
                        if self.walk([item], node.left):
                            out.append(item)
                    except JsonPathError:
                        pass
                    continue
                lefts = self.walk([item], node.left)
                if not lefts:
                    continue
                if len(lefts) > 1:
                    raise JsonPathError("can only compare one element at a time")
                rights = self.walk([item], node.right)
                if not rights:
                    continue
                if len(rights) > 1:
                    raise JsonPathError("can only compare one element at a time")
                if _compare(node.operator, lefts[0], rights[0]):
                    out.append(item)
        return out

    def recursive(self, values: list[Any]) -> list[Any]:
        out: list[Any] = []
        for value in values:
            if _is_nil(value):
                continue
            children = _children(value)
            if children:
                out.append(value)
                out.extend(self.recursive(children))
        return out


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    raise JsonPathError("invalid type for comparison")


def _compare(operator: str, left: Any, right: Any) -> bool:
    """Go text/template's eq/lt on basic kinds: same kind only, bools only for (in)equality."""
    if operator not in ("==", "!=", "<", ">", "<=", ">="):
        raise JsonPathError(f"unrecognized filter operator {operator}")
    kinds = (_kind(left), _kind(right))
    if kinds[0] != kinds[1]:
        raise JsonPathError("incompatible types for comparison")
    if operator in ("==", "!="):
        return bool(left == right) == (operator == "==")
    if kinds[0] == "bool":
        raise JsonPathError("invalid type for comparison")
    return bool(
        {
            "<": left < right,
            ">": left > right,
            "<=": left <= right,
            ">=": left >= right,
        }[operator]
    )


def execute_groups(template: Template, data: Any, allow_missing: bool = True) -> list[list[Any]]:
    """The values each action of the template finds in ``data`` (plain JSON values)."""
    return _Evaluator(allow_missing).find(template.root.nodes, 0, data)


def execute(template: Template, data: Any, allow_missing: bool = True) -> str:
    """The template applied to ``data`` (plain JSON values), as kubectl prints it."""
    groups = execute_groups(template, data, allow_missing)
    return "".join(" ".join(_text(value) for value in group) for group in groups)


def execute_as_json(template: Template, data: Any, allow_missing: bool = True) -> str:
    """``-o jsonpath-as-json``: every result, as one indented JSON array."""
    groups = _Evaluator(allow_missing).find(template.root.nodes, 0, data)
    return "".join(go_json_indent([_plain(v) for v in group]) + "\n" for group in groups)


def _plain(value: Any) -> Any:
    return None if value is NO_VALUE else value


def _text(value: Any) -> str:
    if isinstance(value, dict | list):
        return go_json(value)
    if value is NO_VALUE:
        return "<no value>"
    if value is None:
        return "null"
    return go_sprint(value)


# ---- Go's printing -------------------------------------------------------------------------


def _digits(number: float) -> tuple[str, int]:
    """The shortest digits that read back as ``number`` and the decimal point's position."""
    sign, digits, exponent = Decimal(repr(abs(number))).normalize().as_tuple()
    del sign
    text = "".join(str(d) for d in digits)
    assert isinstance(exponent, int)
    return text, len(text) + exponent


def _exponent_form(digits: str, point: int, negative: bool) -> str:
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    exp = point - 1
    return ("-" if negative else "") + f"{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"


def _positional(digits: str, point: int, negative: bool) -> str:
    if point <= 0:
        text = "0." + "0" * -point + digits
    elif point >= len(digits):
        text = digits + "0" * (point - len(digits))
    else:
        text = digits[:point] + "." + digits[point:]
    return ("-" if negative else "") + text


def go_format_g(number: float) -> str:
    """Go's ``%v`` of a float64 (``strconv.FormatFloat(f, 'g', -1, 64)``): the shortest digits,
    in exponent form when the exponent is below -4 or from 6 up (``1e+06``)."""
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "+Inf" if number > 0 else "-Inf"
    negative = math.copysign(1.0, number) < 0
    if number == 0:
        return "-0" if negative else "0"
    digits, point = _digits(number)
    if point - 1 < -4 or point - 1 >= 6:
        return _exponent_form(digits, point, negative)
    return _positional(digits, point, negative)


def go_sprint(value: Any) -> str:
    """Go's ``fmt.Sprint`` of a value decoded from JSON (maps print as ``map[k:v]``)."""
    if value is None:
        return "<nil>"
    if value is NO_VALUE:
        return "<invalid reflect.Value>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_format_g(value)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{go_sprint(value[k])}" for k in sorted(value)) + "]"
    if isinstance(value, list):
        return "[" + " ".join(go_sprint(v) for v in value) + "]"
    return str(value)


def _json_float(number: float) -> str:
    """encoding/json's float64: positional unless below 1e-6 or from 1e21 (then ``1e-7``)."""
    if math.isnan(number) or math.isinf(number):
        raise JsonPathError(f"json: unsupported value: {go_format_g(number)}")
    if number == 0:
        return "-0" if math.copysign(1.0, number) < 0 else "0"
    digits, point = _digits(number)
    negative = number < 0
    if abs(number) < 1e-6 or abs(number) >= 1e21:
        text = _exponent_form(digits, point, negative)
        return re.sub(r"e-0(\d)$", r"e-\1", text)
    return _positional(digits, point, negative)


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HTML = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _json_string(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[ch])
        elif ch in _HTML:
            out.append(_HTML[ch])
        elif ord(ch) < 0x20:
            out.append({"\b": "\\b", "\f": "\\f"}.get(ch, f"\\u{ord(ch):04x}"))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_json(value: Any) -> str:
    """Go's ``json.Marshal`` of decoded JSON: compact, map keys sorted, HTML characters escaped."""
    if value is None or value is NO_VALUE:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _json_float(value)
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, dict):
        items = (f"{_json_string(str(k))}:{go_json(value[k])}" for k in sorted(value))
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(go_json(v) for v in value) + "]"
    return _json_string(str(value))


def go_json_indent(value: Any, level: int = 0) -> str:
    """``json.MarshalIndent(v, "", "    ")``."""
    pad, inner = "    " * level, "    " * (level + 1)
    if isinstance(value, dict) and value:
        items = [
            f"{inner}{_json_string(str(k))}: {go_json_indent(value[k], level + 1)}"
            for k in sorted(value)
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value:
        items = [inner + go_json_indent(v, level + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return go_json(value)


# ---- the output formats --------------------------------------------------------------------

_RELAXED = re.compile(r"^\{\.?([^{}]+)\}$|^\.?([^{}]+)$")


def relaxed(path: str) -> str:
    """kubectl's RelaxedJSONPathExpression (custom-columns, --sort-by): any of the four
    spellings ``a.b``, ``.a.b``, ``{a.b}``, ``{.a.b}`` -> ``{.a.b}``."""
    if not path:
        return path
    match = _RELAXED.match(path)
    if match is None:
        raise JsonPathError(
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or "
            "'{name1.name2}' or '{.name1.name2}'"
        )
    return "{." + (match.group(1) or match.group(2)) + "}"


def prepare(text: str) -> Template:
    """The template of ``-o jsonpath=TEXT`` (or of a template file's text), parsed once."""
    if not text:
        raise JsonPathError("template format specified but no template given")
    try:
        return parse(text)
    except JsonPathError as err:
        raise JsonPathError(f"error parsing jsonpath {text}, {err}") from None


def template_of(options: Options, file_format: bool) -> Template:
    """The template its printer parsed; for a direct caller, the inline argument parsed now
    (a ``-file`` format needs its printer: files are read by the front end, once)."""
    if isinstance(options.prepared, Template):
        return options.prepared
    if file_format:
        raise JsonPathError("template format specified but no template given")
    return prepare(options.argument or "")


def run(template: Template, data: Any, as_json: bool = False) -> str:
    try:
        if as_json:
            return execute_as_json(template, data)
        return execute(template, data)
    except JsonPathError as err:
        raise JsonPathError(
            f"error executing jsonpath {_go_quote(template.source)}: {err}"
        ) from None
    except RecursionError:
        raise JsonPathError(
            f"error executing jsonpath {_go_quote(template.source)}: the data is nested too deeply"
        ) from None


def _go_quote(text: str) -> str:
    return (
        _json_string(text).replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
    )


def kubectl_data(view: Any) -> Any:
    """The view's template data (output/printer.py); a ``v1 List`` gets the empty list metadata kubectl's own
    List carries (``{.metadata}`` is ``{"resourceVersion":""}`` for ``kubectl get``)."""
    data = template_data(view)
    if isinstance(data, dict) and data.get("kind") == "List" and "metadata" not in data:
        data = {**data, "metadata": {"resourceVersion": ""}}
    return data


def render(view: Any, options: Options) -> str:
    return run(template_of(options, False), kubectl_data(view))


def render_file(view: Any, options: Options) -> str:
    return run(template_of(options, True), kubectl_data(view))


def render_as_json(view: Any, options: Options) -> str:
    return run(template_of(options, False), kubectl_data(view), as_json=True)
