"""``-o yaml``: the view's data as one YAML document; a view with per-item comments (rendered
children) as a ``---`` stream, each item under its comment lines; a view of documents
(``stream_items``) as their ``---`` stream."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.serialize import to_yaml, to_yaml_stream


def render(view: Any, options: Options) -> str:
    items = getattr(view, "stream_items", None)
    if items is not None:  # a stream of documents, each as it is
        return to_yaml_stream(items())
    data = view.to_data()
    comments = getattr(view, "stream_comments", None)
    if comments is None:
        return to_yaml(data)
    return to_yaml_stream(list(zip(comments(), data["items"], strict=True)))
