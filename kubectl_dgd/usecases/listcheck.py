"""What a ``List`` document holds that Argo CD would not apply as written.

Argo CD unpacks one level of ``List``: a List among the items would reach the cluster as an
object of kind List (never validated here), and an item that is not a mapping would be dropped
silently by the unpacking. Both fail the generate instead, naming the item.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.adapters.yamlload import Document


def list_item_problems(doc: Document, shown: str) -> list[str]:
    data = doc.data
    if not _is_list(data):
        return []
    problems = []
    for i, item in enumerate(data["items"]):
        line = doc.lines.get(f"items[{i}]", doc.line)
        if not isinstance(item, dict):
            problems.append(
                f"{shown}:{line}: items[{i}]: not a Kubernetes object (needs apiVersion and kind)"
            )
        elif _is_list(item):
            problems.append(
                f"{shown}:{line}: items[{i}]: a List inside a List is not unpacked by Argo CD; "
                "move its items into the outer List"
            )
    return problems


def _is_list(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and str(data.get("kind", "")).endswith("List")
        and isinstance(data.get("items"), list)
    )
