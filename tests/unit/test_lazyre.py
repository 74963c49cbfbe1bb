"""core/lazyre.LazyPattern: the methods of a compiled pattern, compiled at the first call."""

from __future__ import annotations

import re

from kubectl_dgd.core.lazyre import LazyPattern


def test_it_compiles_at_first_use_and_once() -> None:
    lazy = LazyPattern(r"^[a-z]+(\d)$", re.MULTILINE)
    assert lazy._compiled is None
    assert lazy.compiled() is lazy.compiled()
    assert lazy.compiled().flags & re.MULTILINE


def test_each_method_answers_as_the_compiled_pattern() -> None:
    text = "ab1\ncd2\n3x"
    lazy, real = LazyPattern(r"[a-z]+(\d)", re.MULTILINE), re.compile(r"[a-z]+(\d)", re.MULTILINE)
    assert lazy.match(text).group(0) == real.match(text).group(0)  # type: ignore[union-attr]
    assert lazy.fullmatch("ab1") is not None and lazy.fullmatch(text) is None
    assert lazy.search("  cd2").group(1) == "2"  # type: ignore[union-attr]
    assert lazy.findall(text) == real.findall(text) == ["1", "2"]
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.sub(lambda m: m.group(1), text) == real.sub(lambda m: m.group(1), text)
    assert lazy.sub("-", text) == "-\n-\n3x"
