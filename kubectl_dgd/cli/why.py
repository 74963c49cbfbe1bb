"""``kubectl dgd why NAME``: why a graph is not Ready, root cause first."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@output_option(["text", "json", "yaml", *TEMPLATE_FORMATS], "text")
@click.option(
    "--tail",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Lines of a crash-looping container's previous log to show.",
)
@handle_errors
@cluster_options()
def why(name: str, output: Printer, tail: int, conn: ConnectionSettings | None = None) -> None:
    """Say why a graph is not Ready: root cause first, one finding per problem, each naming
    the component, the objects and what to do. Exit 0 when the graph is Ready and nothing is
    wrong, 1 when a problem is found.

    \b
    Reasons (a stable set; docs/why.md):
      OperatorLagging   the operator is not running, or has not acted on the latest change
      Failed            the operator reports the graph failed (state failed, its message)
      StaleReady        the status says Ready, but components that want pods have none
      MissingReference  a Secret, ConfigMap, PVC or ServiceAccount named by a pod template
                        does not exist
      PVCPending        a claim the pods mount is not bound, so they cannot be scheduled
      InsufficientGPU   pods Pending for nvidia.com/gpu: GPUs per pod, free GPUs per node
      Unschedulable     pods Pending for another reason (taints, node selector, affinity)
      ImagePull         an image cannot be pulled (image, message)
      OOMKilled         a container was killed for memory (with its limit)
      CrashLoop         a container keeps exiting (exit code, last lines of its log)
      RolloutBlocked    a rolling update or restart cannot finish, and on what

    \b
    Examples:
      kubectl dgd why my-graph -n dynamo
      kubectl dgd why my-graph -o json
      kubectl dgd why my-graph --tail 30
    """
    del conn
    deps = current_deps()
    from kubectl_dgd.usecases.why import live_why

    cluster = deps.cluster()
    report = live_why(cluster, name, cluster.namespace, tail, deps.terminal_width())
    for warning in report.warnings:
        deps.warn(f"warning: {warning}")
    deps.print(report, output)
    if not report.ok:
        sys.exit(int(Exit.FAILED))
