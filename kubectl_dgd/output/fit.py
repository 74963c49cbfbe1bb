"""Text fitted to the terminal's width: prose wrapped between words, cells cut with an ellipsis.

The one place screens wrap or cut; ``output/table.py`` calls :func:`cut` for a table's
free-text column. A word longer than the width is kept whole on its own line (an image name,
a URL): it may overflow, it is never split where a reader cannot tell.
"""

from __future__ import annotations

import textwrap

from kubectl_dgd.core.lazyre import LazyPattern

ELLIPSIS = "…"
DEFAULT_WIDTH = 80
# Below this, wrapping helps nobody: a ridiculous COLUMNS still gives readable lines.
MIN_WIDTH = 40
# What output/terminal.py writes for a control character: text that carried one came from
# someone steering a terminal, and is kept on one line, so that no line break of ours puts
# the words they chose at the start of a line (a fake row).
_ESCAPED = LazyPattern(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|t)")


def wrap(
    text: str,
    width: int,
    first: str = "",
    rest: str | None = None,
    *,
    break_words: bool = False,
) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken only between words; ``first``
    starts the first line, ``rest`` (default: as many spaces) the others. Text with escaped
    control characters stays on one line (a break of ours must not pass for one of its own),
    unless ``break_words``: for quoted lines that must fit (a container's log, under its
    heading), which are cut inside a word when it is longer than the width too."""
    if rest is None:
        rest = " " * len(first)
    if _ESCAPED.search(text) and not break_words:
        return [first + text]
    lines = textwrap.wrap(
        text,
        max(width, MIN_WIDTH),
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=break_words,
        break_on_hyphens=False,
    )
    return lines or [first.rstrip()]


def wrapped(text: str, width: int, first: str = "", rest: str | None = None) -> str:
    """:func:`wrap` joined, each line ending in a newline."""
    return "".join(line + "\n" for line in wrap(text, width, first, rest))


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, its end replaced by an ellipsis when too long."""
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + ELLIPSIS


def cut_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, its middle replaced by an ellipsis when too long."""
    if len(text) <= width:
        return text
    keep = max(width - 1, 0)
    return text[: keep - keep // 2] + ELLIPSIS + text[len(text) - keep // 2 :]
