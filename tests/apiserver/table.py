"""meta.k8s.io/v1 Table responses, which kubectl asks for to print `kubectl get`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tests.apiserver.resources import ResourceType


def human_duration(seconds: float) -> str:
    """kubectl's short ages: 45s, 5m, 3h, 2d (coarser with age)."""
    s = max(int(seconds), 0)
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        return f"{minutes}m{s % 60}s" if s % 60 else f"{minutes}m"
    if minutes < 180:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 8:
        return f"{hours}h{minutes % 60}m" if minutes % 60 else f"{hours}h"
    if hours < 48:
        return f"{hours}h"
    return f"{hours // 24}d"


def _column_value(obj: dict[str, Any], json_path: str) -> Any:
    node: Any = obj
    for part in json_path.split("."):
        if "[" in part:  # conditions[Ready] -> the condition whose type is Ready
            field, wanted = part[:-1].split("[")
            conditions = node.get(field) if isinstance(node, dict) else None
            matches = [c for c in conditions or [] if c.get("type") == wanted]
            node = matches[0] if matches else None
        else:
            node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return None
    return node


def _age(obj: dict[str, Any], now: datetime) -> str:
    created = obj.get("metadata", {}).get("creationTimestamp")
    if not created:
        return "<unknown>"
    moment = datetime.fromisoformat(created.replace("Z", "+00:00"))
    return human_duration((now - moment).total_seconds())


def to_table(
    rt: ResourceType, items: list[dict[str, Any]], resource_version: str, now: datetime
) -> dict[str, Any]:
    columns = [
        {"name": "Name", "type": "string", "format": "name", "description": "Name", "priority": 0}
    ]
    columns += [
        {"name": c.name, "type": c.type, "format": "", "description": c.name, "priority": 0}
        for c in rt.printer_columns
    ]
    columns.append(
        {"name": "Age", "type": "date", "format": "", "description": "Age", "priority": 0}
    )
    rows = []
    for obj in items:
        cells: list[Any] = [obj["metadata"]["name"]]
        cells += [_column_value(obj, c.json_path) for c in rt.printer_columns]
        cells.append(_age(obj, now))
        rows.append(
            {
                "cells": cells,
                "object": {
                    "kind": "PartialObjectMetadata",
                    "apiVersion": "meta.k8s.io/v1",
                    "metadata": obj["metadata"],
                },
            }
        )
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version},
        "columnDefinitions": columns,
        "rows": rows,
    }
