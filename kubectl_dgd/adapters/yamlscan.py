"""Cheap textual scans of a YAML stream, so that ``restart -f`` parses only what it edits.

A line that starts with ``---`` followed by a blank always starts a document (YAML forbids such
a line inside any scalar), so the stream can be cut there without parsing. Streams with
directives (``%YAML``, ``%TAG``) or ``...`` end markers are not cut (None): the caller parses
them whole. A piece is *plainly another kind* when its only column-0 ``kind`` key is a plain
word naming another kind and nothing at column 0 could bring in a key in disguise (quotes,
tags, anchors, aliases, merges, flow collections, complex keys). Anything else is parsed.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"^---(?=[ \t\r\n]|$)", re.MULTILINE)
_UNCUTTABLE = re.compile(r"^(?:%|\.\.\.(?:[ \t\r\n]|$))", re.MULTILINE)
_COLUMN0 = re.compile(r"^[^\s#].*$", re.MULTILINE)
_PLAIN_KIND = re.compile(r"^kind:[ \t]+([A-Za-z][A-Za-z0-9]*)[ \t]*(?:#.*)?\r?$")
_DISGUISE = (*"\"'?{[!&*|>%@`", "<<")


def document_pieces(text: str) -> list[tuple[int, int]] | None:
    """(start, end) offsets of each document's text (a marker line starts its piece)."""
    if _UNCUTTABLE.search(text):
        return None
    starts = [0, *(m.start() for m in _MARKER.finditer(text) if m.start() > 0)]
    return [(start, end) for start, end in zip(starts, [*starts[1:], len(text)], strict=True)]


def plainly_another_kind(piece: str, wanted: str) -> bool:
    """True only when the piece's top-level kind is certainly a plain word other than
    ``wanted`` and not a list kind; False whenever in doubt."""
    kinds: list[str] = []
    for match in _COLUMN0.finditer(piece):
        line = match.group()
        if line.startswith(_DISGUISE):
            return False
        if line.startswith("kind") and re.match(r"kind\s*:", line):
            plain = _PLAIN_KIND.match(line)
            if plain is None:
                return False
            kinds.append(plain.group(1))
    return len(kinds) == 1 and kinds[0] != wanted and "list" not in kinds[0].lower()
