"""``-o text`` (the default): each kind of view drawn by the module that knows it.

Dispatch is by the view's class name, and the drawing module is imported only when a view of
its kind is printed (``validate`` never pays for the status tables, nor for pydantic).
"""

from __future__ import annotations

import importlib
from typing import Any

from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import Options
from kubectl_dgd.output.terminal import escaped

# view class -> "module:function(view, options, wide) -> str"
DRAWERS: dict[str, str] = {
    "StatusView": "kubectl_dgd.output.status:draw_status",
    "StatusList": "kubectl_dgd.output.status:draw_status_list",
    "LiveStatusView": "kubectl_dgd.output.status:draw_live_status",
    "GraphList": "kubectl_dgd.output.graph_list:draw_graph_list",
    "ValidationReport": "kubectl_dgd.output.findings:draw_report",
    "DiffList": "kubectl_dgd.output.diff:draw_diffs",
    "Explanation": "kubectl_dgd.output.rollout:draw_explanation",
    "RolloutState": "kubectl_dgd.output.rollout:draw_state",
    "RestartSummary": "kubectl_dgd.output.restart:draw_summary",
    "RestartProgress": "kubectl_dgd.output.restart:draw_progress",
    "TreeView": "kubectl_dgd.output.tree:draw_tree",
    "WhyReport": "kubectl_dgd.output.why:draw_why",
    "GraphEvents": "kubectl_dgd.output.graph_events:draw_graph_events",
    "ClusterGpus": "kubectl_dgd.output.cluster_gpus:draw_cluster_gpus",
}


def draw(view: Any, options: Options, wide: bool = False) -> str:
    """The view as text; every string it carries escaped first (output/terminal.py)."""
    view = escaped(view)
    for cls in type(view).__mro__:
        target = DRAWERS.get(cls.__name__)
        if target is not None:
            module, function = target.split(":")
            drawn: str = getattr(importlib.import_module(module), function)(view, options, wide)
            return drawn
    raise UsageError(f"-o {'wide' if wide else 'text'} is not supported for {type(view).__name__}")


def render(view: Any, options: Options) -> str:
    return draw(view, options)
