"""status: a stored DGD (from a file, or fetched by the live command) to its view."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kubectl_dgd.core.status import StatusView, build_status_view
from kubectl_dgd.core.views import StatusList


def status_view(obj: dict[str, Any], now: datetime, source: str = "") -> StatusView:
    """The view of one object; a malformed object is an InputError naming the first bad field."""
    return build_status_view(obj, now, source)


def status_of_file(path: str, now: datetime, name: str | None = None) -> StatusList:
    """The view of every graph of the file (``name``: only that one)."""
    from kubectl_dgd.usecases.validate import graphs_in_file  # the file reader: not for a live view

    objects = list(graphs_in_file(path, name))
    return StatusList([status_view(obj, now, path) for obj in objects], objects)
