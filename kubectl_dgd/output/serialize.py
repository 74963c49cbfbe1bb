"""JSON and YAML renderings of plain data (view models dump themselves to plain data first).

All YAML we print goes through ``manifest_yaml``: kubectl, Argo CD and the API server read YAML
with 1.1 rules, and that emitter quotes every string a 1.1 reader would take for something else.
"""

from __future__ import annotations

import json
from typing import Any

from kubectl_dgd.output.manifest_yaml import dump_stream
from kubectl_dgd.output.terminal import escape_line


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def to_yaml(data: Any) -> str:
    """One block-style YAML document, keys in the order given, without a ``---`` line."""
    return dump_stream([data]).removeprefix("---\n")


def to_yaml_stream(items: list[tuple[list[str], Any]]) -> str:
    """``---``-separated documents, each optionally preceded by ``# `` comment lines. A comment
    cannot hold an escape, so what it names (a graph written ``"a\\e[31m"`` in its file) has its
    control characters and line breaks written out as ``\\x1b``, as the emitter escapes values."""
    parts = []
    for comments, data in items:
        head = "".join(f"# {escape_line(c)}\n" for c in comments)
        parts.append("---\n" + head + to_yaml(data))
    return "".join(parts)
