"""``kubectl dgd tree NAME``: the objects the operator built below a graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, now_option, output_option
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@output_option(["text", "json", "yaml", *TEMPLATE_FORMATS], "text")
@now_option
@click.option(
    "-w",
    "--watch",
    is_flag=True,
    help="Redraw on every change: of the graph at once, of the objects below it within 3 s.",
)
@click.option("--no-headers", is_flag=True, help="No header row.")
@handle_errors
@cluster_options()
def tree(
    name: str,
    output: Printer,
    now: str | None,
    watch: bool = False,
    no_headers: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show the objects below a graph: components, DynamoComponentDeployments, Deployments or
    LeaderWorkerSets, ReplicaSets and pods (component path), or PodCliqueSet, scaling groups,
    PodCliques and pods (Grove), with each pod's node, GPUs, restarts and, when unhealthy, why.

    One GET and one LIST per kind, whatever the number of pods. Kinds whose CRD is not
    installed are skipped; a LIST the account may not make is reported and the rest shown.

    \b
    Examples:
      kubectl dgd tree my-graph -n dynamo
      kubectl dgd tree my-graph --watch
      kubectl dgd tree my-graph -o json
    """
    del conn
    deps = current_deps()
    from kubectl_dgd.usecases.tree import live_tree, watch_tree

    cluster = deps.cluster()
    width = deps.terminal_width()
    if not watch:
        view = live_tree(cluster, name, cluster.namespace, deps.now(now), width)
        deps.print(view, output, not no_headers)
        return
    views = watch_tree(
        cluster, name, cluster.namespace, deps.monotonic, lambda: deps.now(now), width
    )
    deps.redraw(views, output, not no_headers)
