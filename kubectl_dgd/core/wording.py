"""Counted nouns in prose: "1 replica", "2 replicas", never "1 replicas"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``many``, else ``noun + "s"``) unless
    the count is one."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"
