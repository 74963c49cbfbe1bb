"""The plain block YAML that kubectl and the cloud tools write for kubeconfigs, read without a
YAML library: ``read_block_mapping(text)`` gives the same mapping as the manifest loader
(``adapters.yamlload``) or None, and then the caller reads the text with that loader.

Why: every live command reads a kubeconfig, and importing the YAML library costs more (8-9 ms)
than the rest of reading it. The subset is small on purpose: printable ASCII; block mappings and
sequences (``- `` entries at the key's indent or deeper), simple keys, one-line plain scalars
that are strings, ``true``/``false``/``null``, one-line quoted scalars without escapes, ``{}`` and
``[]``, comments. Anything else (tabs, anchors, tags, flow collections, block or multi-line
scalars, numbers, other spellings of booleans, duplicate keys, document markers) is None, so the
loader's rules, limits and error messages still decide every file outside the subset.
"""

from __future__ import annotations

import string
from typing import Any

# Character sets, not regular expressions: compiling those would cost 0.4 ms of start-up.
_LETTERS = frozenset(string.ascii_letters)
_KEY_START = _LETTERS | {"_"}
_KEY_CHARS = _KEY_START | frozenset(string.digits + "./-")
_MAX_KEY = 200  # libyaml refuses simple keys over 1024 characters; these stay far below
# The words that YAML 1.1 (kubectl's booleans) or 1.2 may read as a boolean or null, lower-cased.
_WORDS = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null"))
_EXACT = {"true": True, "false": False, "null": None}
_MAX_DEPTH = 50


class _Outside(Exception):
    """The text is not in the subset."""


def read_block_mapping(text: str) -> dict[str, Any] | None:
    """The mapping of a one-document kubeconfig in the subset, else None."""
    # Printable ASCII and newlines only (no tabs, CR, BOM, control or non-ASCII characters).
    if not (text.isascii() and text.replace("\n", "").isprintable()):
        return None
    lines: list[tuple[int, str]] = []
    for raw in text.split("\n"):
        content = raw.strip(" ")
        if not content or content.startswith("#"):
            continue
        if raw.startswith(("---", "...", "%")):  # markers and directives: the loader's
            return None
        lines.append((len(raw) - len(raw.lstrip(" ")), content))
    if not lines or lines[0][0] != 0:
        return None
    try:
        value, end = _Reader(lines).block(0, 0, 0)
    except (_Outside, RecursionError):
        return None
    return value if end == len(lines) and isinstance(value, dict) else None


class _Reader:
    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = lines

    def block(self, at: int, indent: int, depth: int) -> tuple[Any, int]:
        if depth > _MAX_DEPTH:
            raise _Outside
        if _is_entry(self.lines[at][1]):
            return self.sequence(at, indent, depth)
        return self.mapping(at, indent, depth)

    def mapping(self, at: int, indent: int, depth: int) -> tuple[dict[str, Any], int]:
        lines, out = self.lines, {}
        while at < len(lines) and lines[at][0] == indent:
            key, rest = _split_key(lines[at][1])
            if not key:
                raise _Outside
            if key in out:
                raise _Outside  # the loader refuses duplicate keys, with its message
            out[key], at = self.value(at, indent, rest, depth, compact=True)
        if at < len(lines) and lines[at][0] > indent:
            raise _Outside
        return out, at

    def sequence(self, at: int, indent: int, depth: int) -> tuple[list[Any], int]:
        lines, out = self.lines, []
        while at < len(lines) and lines[at][0] == indent and _is_entry(lines[at][1]):
            rest = lines[at][1][1:]
            content = rest.lstrip(" ")
            if _split_key(content)[0]:  # `- key: ...`: a mapping at the key's column
                column = indent + 1 + len(rest) - len(content)
                lines[at] = (column, content)
                item, at = self.mapping(at, column, depth + 1)
            elif _is_entry(content):
                raise _Outside  # `- - x`
            else:
                item, at = self.value(at, indent, content, depth, compact=False)
            out.append(item)
        if at < len(lines) and lines[at][0] > indent:
            raise _Outside
        return out, at

    def value(self, at: int, indent: int, rest: str, depth: int, compact: bool) -> tuple[Any, int]:
        """What follows ``key:`` or ``-`` on line ``at``: a scalar there, else the block below
        (deeper, or ``- `` entries at the key's own indent when ``compact``), else null."""
        lines = self.lines
        at += 1
        rest = rest.lstrip(" ")
        if rest and not rest.startswith("#"):
            if at < len(lines) and lines[at][0] > indent:
                raise _Outside  # a continued (multi-line) scalar or a misplaced line
            return _scalar(rest), at
        if at < len(lines):
            below, content = lines[at]
            if below > indent or (compact and below == indent and _is_entry(content)):
                return self.block(at, below, depth + 1)
        return None, at


def _split_key(content: str) -> tuple[str, str]:
    """``key: rest`` as (key, rest) for a simple key that no resolver reads as anything but a
    string (a letter or ``_``, then letters, digits, ``_./-``; not a boolean or null word),
    else ("", "")."""
    colon = content.find(":")
    key, after = content[:colon], content[colon + 1 :]
    if (
        0 < colon <= _MAX_KEY
        and after[:1] in ("", " ")
        and key[0] in _KEY_START
        and all(c in _KEY_CHARS for c in key)
        and key.lower() not in _WORDS
    ):
        return key, after[1:]
    return "", ""


def _plainly_a_string(plain: str) -> bool:
    """A plain scalar that no resolver reads as anything but a string: it starts with a
    letter, ``/`` or ``_`` (so not a number, a date, an indicator, an alias, a tag or a merge
    key), or with ``-`` or ``--`` and a letter (a command-line flag, not a negative number)."""
    first = plain[:1]
    if first in _LETTERS or first in ("/", "_"):
        return True
    flag = plain[2:3] if plain[1:2] == "-" else plain[1:2]
    return first == "-" and flag in _LETTERS


def _is_entry(content: str) -> bool:
    return content == "-" or content.startswith("- ")


def _scalar(text: str) -> Any:
    """A one-line scalar, its comment cut off."""
    quote = text[0]
    if quote == '"':
        end = text.find('"', 1)
        if end < 0 or "\\" in text[:end]:
            raise _Outside
        return _after(text[1:end], text[end + 1 :])
    if quote == "'":
        parts, position = [], 1
        while True:
            end = text.find("'", position)
            if end < 0:
                raise _Outside
            parts.append(text[position:end])
            if text[end + 1 : end + 2] != "'":
                return _after("'".join(parts), text[end + 1 :])
            position = end + 2
    plain = text.split(" #", 1)[0].rstrip(" ")
    if plain in ("{}", "[]"):
        return {} if plain == "{}" else []
    if plain.lower() in _WORDS:
        if plain not in _EXACT:
            raise _Outside
        return _EXACT[plain]
    if (
        not _plainly_a_string(plain)
        or ": " in plain
        or plain.endswith(":")
        or any(c in plain for c in "[]{}")
    ):
        raise _Outside
    return plain


def _after(value: str, rest: str) -> str:
    """A quoted scalar's value, if nothing but a comment (after a space) follows it."""
    if rest and not (rest.startswith(" ") and rest.lstrip(" ")[:1] in ("", "#")):
        raise _Outside
    return value
