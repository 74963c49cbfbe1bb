"""``-o json``: the view's data, indented, keys in the view's order."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.serialize import to_json


def render(view: Any, options: Options) -> str:
    return to_json(view.to_data())
