"""``-o yaml``: the view's data as one YAML document; a view with per-item comments (rendered
children) as a ``---`` stream, each item under its comment lines."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.serialize import to_yaml, to_yaml_stream


def render(view: Any, options: Options) -> str:
    data = view.to_data()
    comments = getattr(view, "stream_comments", None)
    if comments is None:
        return to_yaml(data)
    return to_yaml_stream(list(zip(comments(), data["items"], strict=True)))
