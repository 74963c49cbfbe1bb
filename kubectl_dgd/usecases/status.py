"""status: a stored DGD (from a file, or fetched by the live command) to its rendered view."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kubectl_dgd.core.status import StatusView, build_status_view
from kubectl_dgd.output.serialize import to_json, to_yaml
from kubectl_dgd.output.status import render_status_view
from kubectl_dgd.output.style import PLAIN, Style
from kubectl_dgd.usecases.validate import graphs_in_file


def status_view(obj: dict[str, Any], now: datetime, source: str = "") -> StatusView:
    """The view of one object; a malformed object is an InputError naming the first bad field."""
    return build_status_view(obj, now, source)


def render_status(obj: dict[str, Any], now: datetime, output: str, style: Style = PLAIN) -> str:
    """What ``status`` prints for one object; the file and the live path both call this."""
    return render_status_view(status_view(obj, now), output, style)


def render_status_file(
    path: str, now: datetime, output: str, style: Style = PLAIN, name: str | None = None
) -> str:
    """Every graph of the file: text views separated by a blank line; one JSON/YAML document."""
    views = [status_view(obj, now, path) for obj in graphs_in_file(path, name)]
    if output in ("json", "yaml") and len(views) > 1:
        data = {"items": [v.to_data() for v in views]}
        return to_json(data) if output == "json" else to_yaml(data)
    separator = "" if output == "name" else "\n"
    return separator.join(render_status_view(v, output, style) for v in views)
