"""Colour, only for a terminal and never with NO_COLOR."""

from __future__ import annotations

from typing import Literal

Color = Literal["red", "yellow", "green", "cyan", "bold", "dim"]
_CODES: dict[str, str] = {
    "red": "31",
    "yellow": "33",
    "green": "32",
    "cyan": "36",
    "bold": "1",
    "dim": "2",
}


class Style:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, color: Color) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_CODES[color]}m{text}\x1b[0m"


PLAIN = Style(False)
