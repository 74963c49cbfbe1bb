"""JSON and YAML renderings of plain data (view models dump themselves to plain data first)."""

from __future__ import annotations

import io
import json
from typing import Any


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def to_yaml(data: Any) -> str:
    """Block-style YAML, keys in the order given; uses ruamel's C emitter when present."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=False)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 4096
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def to_yaml_stream(items: list[tuple[list[str], Any]]) -> str:
    """``---``-separated documents, each optionally preceded by ``# `` comment lines."""
    parts = []
    for comments, data in items:
        head = "".join(f"# {c}\n" for c in comments)
        parts.append("---\n" + head + to_yaml(data))
    return "".join(parts)
