"""``-o wide``: the text drawing with the extra columns (views without any draw as text)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.text import draw


def render(view: Any, options: Options) -> str:
    return draw(view, options, wide=True)
