"""Whether a message may quote text from a document: never from one that is or may be a Secret.

The decision is made on the kind as parsed (escapes, tags and quoting already undone), never on
the file's bytes: ``kind: "\\x53ecret"`` is a Secret, and so is anything whose kind could not be
read as plain text (an alias to a mapping, a merge key, a custom tag) or that is missing. A
``List`` (or any ``...List``) may carry Secrets among its items, so it counts as one too.
Over-redacting costs a quoted value in an error message; under-redacting leaks a password.
"""

from __future__ import annotations

from collections.abc import Sequence

HIDDEN = "(value not shown: the document is or may be a Secret)"


def may_hold_secret(kinds: Sequence[object]) -> bool:
    """``kinds``: every top-level ``kind`` value of one document as read; anything that is not
    a string stands for a kind that could not be read as text (then the answer is yes)."""
    if not kinds:
        return True
    for kind in kinds:
        if not isinstance(kind, str):
            return True
        low = kind.lower()
        if "secret" in low or "list" in low:
            return True
    return False


def quoted_or_hidden(value_text: str, secret: bool) -> str:
    """``value_text`` (already shortened and quoted) or the fixed note that replaces it."""
    return HIDDEN if secret else value_text
