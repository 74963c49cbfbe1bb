"""Text for a terminal: what an object carries is shown, never obeyed.

Condition messages, events, names and API error bodies come from the cluster, and anyone who
can write a pod's status can put escape sequences in them: a screen clear, a window title, an
OSC 8 link, a right-to-left override, a line separator that fakes a row. Before a view is drawn
as text, every string in it is escaped here (``\\x1b`` shown as the four characters ``\\x1b``),
and its line breaks become spaces: a string of a view is one line, except the few fields that
hold text we made ourselves (``MULTILINE``). Our own colours are added after, by the drawing.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from kubectl_dgd.core.lazyre import LazyPattern

# C0 controls but the line break, DEL, C1 controls, bidi embeddings/overrides/isolates and
# marks, and the Unicode line and paragraph separators.
# Compiled at first use: the character class takes 0.4 ms to compile, and most text (ASCII
# without a control character) never needs it (see escape).
_UNSAFE = LazyPattern(
    r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
_IN_A_CELL = LazyPattern(r"[\n\t]")
# View fields whose text we wrote ourselves, several lines long (restart -f's unified diff).
MULTILINE = frozenset({"diff"})


def _code(match: re.Match[str]) -> str:
    point = ord(match.group())
    if point == 0x09:
        return "\\t"
    return f"\\x{point:02x}" if point < 0x100 else f"\\u{point:04x}"


def escape(text: str) -> str:
    """``text`` with every character that could steer a terminal written out as an escape."""
    if text.isascii() and text.isprintable():  # only U+0020-U+007E: nothing to escape
        return text
    return _UNSAFE.sub(_code, text) if _UNSAFE.search(text) else text


def escape_line(text: str) -> str:
    """``text`` as one line with nothing a terminal or log viewer obeys: escaped, and its line
    breaks written ``\\x0a`` (a file name shown in a message must not start a line)."""
    text = escape(text)
    return text.replace("\n", "\\x0a") if "\n" in text else text


def escape_cell(text: str) -> str:
    """A table cell or a one-line message: escaped, its line breaks and tabs made spaces (as
    the events table always showed a multi-line message)."""
    text = escape(text)
    return _IN_A_CELL.sub(" ", text) if "\n" in text or "\t" in text else text


def escaped(value: Any, multiline: bool = False) -> Any:
    """A copy of a view (dataclasses, lists, tuples, mappings) with every string escaped, and
    on one line unless it is one of the ``MULTILINE`` fields."""
    if isinstance(value, str):
        return escape(value) if multiline else escape_cell(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: escaped(getattr(value, f.name), f.name in MULTILINE)
            for f in dataclasses.fields(value)
            if f.init
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, list):
        return [escaped(v) for v in value]
    if isinstance(value, tuple):
        return tuple(escaped(v) for v in value)
    if isinstance(value, dict):
        return {escaped(k): escaped(v) for k, v in value.items()}
    return value
