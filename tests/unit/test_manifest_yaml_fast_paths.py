"""The emitter's fast paths for printable ASCII (output/manifest_yaml.py) answer as its patterns."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.output import manifest_yaml

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\ufeff\t\r]")
_NON_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
# Printable ASCII with the characters either pattern is about, and some ordinary non-ASCII.
_TEXT = st.text(
    alphabet=st.sampled_from(
        [
            *'ab :"\\#-',
            "\n",
            "\t",
            "\r",
            "\x00",
            "\x1f",
            "\x7f",
            "\x80",
            "\x85",
            "\x9f",
            "é",
            "\u2028",
            "\ufeff",
            "\ufffe",
            "✓",
        ]
    ),
    max_size=12,
)


def _quoted_by_pattern(text: str) -> str:
    body = json.dumps(text, ensure_ascii=False).translate(manifest_yaml._JSON_EXTRA)
    return _NON_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", body)


@settings(max_examples=1000, deadline=None)
@given(text=_TEXT)
def test_quoting_is_the_patterns(text: str) -> None:
    assert manifest_yaml._quoted(text) == _quoted_by_pattern(text)


@settings(max_examples=1000, deadline=None)
@given(text=_TEXT)
def test_the_block_literal_skips_the_patterns_only_where_they_cannot_match(text: str) -> None:
    if text.isascii() and text.replace("\n", "").isprintable():  # the fast path's guard
        assert not _UNSAFE.search(text) and not _NON_PRINTABLE.search(text)
    if _UNSAFE.search(text) or _NON_PRINTABLE.search(text):  # and the patterns still refuse
        assert manifest_yaml._block_literal(text, 2) is None
