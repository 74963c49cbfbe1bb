"""``status`` without a name (``list``): one LIST, one row per graph."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kubectl_dgd.core.listing import graph_row
from kubectl_dgd.core.views import GraphList
from kubectl_dgd.usecases.ports import GraphCluster


def _key(item: dict[str, Any]) -> tuple[str, str]:
    meta = item.get("metadata") or {}
    return str(meta.get("namespace") or ""), str(meta.get("name") or "")


def list_graphs(
    cluster: GraphCluster,
    namespace: str | None,
    selector: str | None,
    now: datetime,
    fields: str | None = None,
) -> GraphList:
    """Rows sorted by namespace and name, each with its object (``namespace`` None: all;
    ``fields``: a field selector the server judges)."""
    listing = cluster.list_graphs(namespace, selector, fields)
    items = [i for i in listing.get("items") or [] if isinstance(i, dict)]
    items.sort(key=_key)
    return GraphList([graph_row(i, now) for i in items], items, all_namespaces=namespace is None)
