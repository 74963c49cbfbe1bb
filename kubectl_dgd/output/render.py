"""Rendered children as a YAML stream (each with a ``# Source:`` comment) or a JSON List."""

from __future__ import annotations

import json
from typing import Any

from kubectl_dgd.core.render import RenderedObject
from kubectl_dgd.output.serialize import to_json, to_yaml_stream


def _plain(obj: dict[str, Any]) -> Any:
    # A fresh copy per object: no shared sub-objects, so YAML never needs anchors and aliases.
    return json.loads(json.dumps(obj))


def render_yaml(objects: list[RenderedObject]) -> str:
    return to_yaml_stream([([f"Source: {o.source}"], _plain(o.obj)) for o in objects])


def render_json(objects: list[RenderedObject]) -> str:
    return to_json({"apiVersion": "v1", "kind": "List", "items": [_plain(o.obj) for o in objects]})
