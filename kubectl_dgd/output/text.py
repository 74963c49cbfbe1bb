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

# The view class, by its full name (module and qualified name, not the bare name, which two
# classes may share), -> "module:function(view, options, wide) -> str". Names rather than the
# classes themselves: importing every view module would cost every command the others' start-up
# (about 111 ms for validate), and RolloutState lives in usecases, above output.
# tests/unit/test_output_interface.py resolves every key and drawer, so a rename fails there.
DRAWERS: dict[str, str] = {
    "kubectl_dgd.core.status.StatusView": "kubectl_dgd.output.status:draw_status",
    "kubectl_dgd.core.views.StatusList": "kubectl_dgd.output.status:draw_status_list",
    "kubectl_dgd.core.views.LiveStatusView": "kubectl_dgd.output.status:draw_live_status",
    "kubectl_dgd.core.views.GraphList": "kubectl_dgd.output.graph_list:draw_graph_list",
    "kubectl_dgd.core.report.ValidationReport": "kubectl_dgd.output.findings:draw_report",
    "kubectl_dgd.core.views.DiffList": "kubectl_dgd.output.diff:draw_diffs",
    "kubectl_dgd.core.views.Explanation": "kubectl_dgd.output.rollout:draw_explanation",
    "kubectl_dgd.usecases.rollout.RolloutState": "kubectl_dgd.output.rollout:draw_state",
    "kubectl_dgd.core.views.RestartSummary": "kubectl_dgd.output.restart:draw_summary",
    "kubectl_dgd.core.tree.TreeView": "kubectl_dgd.output.tree:draw_tree",
    "kubectl_dgd.core.why.report.WhyReport": "kubectl_dgd.output.why:draw_why",
    "kubectl_dgd.core.graph_events.GraphEvents": "kubectl_dgd.output.graph_events:draw_graph_events",
    "kubectl_dgd.core.cluster_gpus.ClusterGpus": "kubectl_dgd.output.cluster_gpus:draw_cluster_gpus",
    "kubectl_dgd.core.upgrade.UpgradeReport": "kubectl_dgd.output.upgrade:draw_upgrade",
    "kubectl_dgd.core.doctor.DoctorReport": "kubectl_dgd.output.doctor:draw_doctor",
    "kubectl_dgd.core.history.History": "kubectl_dgd.output.history:draw_history",
    "kubectl_dgd.usecases.undo_file.FileUndo": "kubectl_dgd.output.history:draw_file_undo",
    "kubectl_dgd.core.history.Reverted": "kubectl_dgd.output.history:draw_reverted",
    "kubectl_dgd.core.version.VersionReport": "kubectl_dgd.output.version:draw_version",
}


def draw(view: Any, options: Options, wide: bool = False) -> str:
    """The view as text; every string it carries escaped first (output/terminal.py)."""
    view = escaped(view)
    for cls in type(view).__mro__:
        target = DRAWERS.get(f"{cls.__module__}.{cls.__qualname__}")
        if target is not None:
            module, function = target.split(":")
            drawn: str = getattr(importlib.import_module(module), function)(view, options, wide)
            return drawn
    raise UsageError(f"-o {'wide' if wide else 'text'} is not supported for {type(view).__name__}")


def render(view: Any, options: Options) -> str:
    return draw(view, options)
