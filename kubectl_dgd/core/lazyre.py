"""A regular expression compiled at its first use instead of at import.

``re.compile`` costs 0.05-0.4 ms a pattern (its parser and compiler are Python). A module-level
pattern that a run never reaches is start-up time for nothing: a ``validate`` of one graph
used to compile some twenty such patterns of ours, and reached under half of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any


class LazyPattern:
    """The methods of ``re.Pattern`` that this package uses, on a pattern compiled on demand."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled

    def match(self, string: str) -> re.Match[str] | None:
        return self.compiled().match(string)

    def fullmatch(self, string: str) -> re.Match[str] | None:
        return self.compiled().fullmatch(string)

    def search(self, string: str) -> re.Match[str] | None:
        return self.compiled().search(string)

    def findall(self, string: str) -> list[Any]:
        return self.compiled().findall(string)

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str) -> str:
        return self.compiled().sub(repl, string)
