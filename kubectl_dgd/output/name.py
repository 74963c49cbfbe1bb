"""``-o name``: ``resource/name``, one line per graph of the view (as ``kubectl get -o name``)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import Options

RESOURCE = "dynamographdeployment.nvidia.com"


def names(view: Any) -> list[str]:
    """The graph names a view is about."""
    kind = type(view).__name__
    if kind in ("StatusView", "LiveStatusView", "GraphName"):
        return [view.name]
    if kind == "StatusList":
        return [v.name for v in view.views]
    if kind == "GraphList":
        return [r.name for r in view.rows]
    raise UsageError(f"-o name is not supported for {kind}")


def render(view: Any, options: Options) -> str:
    return "".join(f"{RESOURCE}/{name}\n" for name in names(view))
