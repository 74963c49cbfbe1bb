"""Kubernetes manifests as a YAML stream that YAML 1.1 readers read back unchanged.

Argo CD, kubectl and the API server parse YAML with Go's YAML 1.1 rules, where ``yes``, ``on``,
``n`` and ``0777`` are not strings. General-purpose emitters write such strings bare because
they follow YAML 1.2, so a ConfigMap value ``"on"`` would come back as ``true``. This emitter
writes a string bare only when both versions agree it is a string, and otherwise as a JSON
string (valid YAML double-quoted text). Output is a pure function of the data: the same objects
give the same bytes, which Argo CD's manifest cache and diff rely on.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from kubectl_dgd.core.lazyre import LazyPattern

# Words YAML 1.1 resolves to booleans or null (Go's yaml.v2 and PyYAML agree on this set).
_BOOLEAN_WORDS = (
    "y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF"
)
_RESERVED = frozenset([*_BOOLEAN_WORDS.split(), "null", "Null", "NULL"])
# Conservative: starts with a letter, '_', '/' or '-letter' (a flag), so no number, timestamp, indicator or special
# float can match; no ': ' or ' #' so no key or comment can hide inside.
_PLAIN_VALUE = re.compile(r"(?:[A-Za-z_/]|--?[A-Za-z])[A-Za-z0-9_./:@,()+=~ '%-]*")
_PLAIN_KEY = re.compile(r"[A-Za-z_/][A-Za-z0-9_./@-]*")
# Characters a YAML reader treats as line breaks or refuses in block scalars.
_UNSAFE_IN_BLOCK = LazyPattern("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\ufeff\t\r]")
_JSON_EXTRA = str.maketrans({"\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P"})
# Characters YAML does not allow unescaped anywhere (outside its printable set).
_NON_PRINTABLE = LazyPattern("[\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
# The two patterns above compile at first use (0.3 ms each); printable ASCII, the usual text,
# matches neither, so it never reaches them.


def _quoted(text: str) -> str:
    """A double-quoted scalar (JSON string syntax is valid YAML) with every non-printable escaped."""
    body = json.dumps(text, ensure_ascii=False).translate(_JSON_EXTRA)
    if body.isascii() and body.isprintable():  # none of _NON_PRINTABLE's characters
        return body
    return _NON_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", body)


# Keys and one-line string values repeat across objects (names, images, "true"): each distinct
# text is checked and quoted once per process. Bounded, as the output of a large stream may hold
# many distinct strings; past the bound the rest are simply computed each time.
_MEMO_LIMIT = 50_000
_KEYS: dict[str, str] = {}
_STRINGS: dict[str, str] = {}


def dump_stream(documents: list[Any]) -> str:
    """``---``-separated block YAML documents, keys in the order given."""
    out: list[str] = []
    for doc in documents:
        out.append("---\n")
        _node(doc, 0, out)
    return "".join(out)


def _string(text: str) -> str:
    if (
        _PLAIN_VALUE.fullmatch(text)
        and text not in _RESERVED
        and ": " not in text
        and not text.endswith((" ", ":"))
    ):
        return text
    return _quoted(text)


def _key(key: Any) -> str:
    text = key if isinstance(key, str) else str(key)
    if _PLAIN_KEY.fullmatch(text) and text not in _RESERVED:
        return text
    return _quoted(text)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        mantissa, e, exponent = repr(value).partition("e")
        # A dot in the mantissa keeps YAML 1.1 readers (which require one) reading a float.
        return (mantissa if "." in mantissa else mantissa + ".0") + e + exponent
    return _string(str(value))


def _block_literal(text: str, indent: int) -> str | None:
    """``|`` / ``|-`` block for readable multi-line text, or None when only quoting is exact."""
    if (
        "\n" not in text
        or (
            not (text.isascii() and text.replace("\n", "").isprintable())
            and (_UNSAFE_IN_BLOCK.search(text) or _NON_PRINTABLE.search(text))
        )
        or text.endswith("\n\n")
    ):
        return None
    body = text[:-1] if text.endswith("\n") else text
    lines = body.split("\n")
    if lines[0].startswith(" ") or lines[0] == "" or any(line.endswith(" ") for line in lines):
        return None
    pad = " " * (indent + 2)
    head = "|" if text.endswith("\n") else "|-"
    return head + "\n" + "\n".join(pad + line if line else "" for line in lines)


def _inline(value: Any, indent: int) -> str | None:
    """The text after ``key:`` / ``-`` when the value fits on that line."""
    if type(value) is str and "\n" not in value:  # most values: no block form to consider
        text = _STRINGS.get(value)
        if text is None:
            text = _string(value)
            if len(_STRINGS) < _MEMO_LIMIT:
                _STRINGS[value] = text
        return text
    if isinstance(value, dict):
        return "{}" if not value else None
    if isinstance(value, list):
        return "[]" if not value else None
    if isinstance(value, str):
        block = _block_literal(value, indent)
        if block is not None:
            return block
    return _scalar(value)


def _node(value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict) and value:
        for key, item in value.items():
            head = _KEYS.get(key) if type(key) is str else None
            if head is None:
                head = _key(key)
                if type(key) is str and len(_KEYS) < _MEMO_LIMIT:
                    _KEYS[key] = head
            inline = _inline(item, indent)
            if inline is not None:
                out.append(f"{pad}{head}: {inline}\n")
            elif isinstance(item, dict):
                out.append(f"{pad}{head}:\n")
                _node(item, indent + 2, out)
            else:  # non-empty list: items at the key's indentation, as kubectl writes them
                out.append(f"{pad}{head}:\n")
                _node(item, indent, out)
    elif isinstance(value, list) and value:
        for item in value:
            inline = _inline(item, indent)
            if inline is not None:
                out.append(f"{pad}- {inline}\n")
                continue
            nested: list[str] = []
            _node(item, indent + 2, nested)
            first = nested[0]
            out.append(f"{pad}- {first[indent + 2 :]}")
            out.extend(nested[1:])
    else:
        inline = _inline(value, indent)
        out.append(f"{pad}{inline}\n")
