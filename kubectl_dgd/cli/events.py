"""``kubectl dgd events NAME``: the Events of a graph and of everything below it."""

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
@output_option(["text", "wide", "json", "yaml", *TEMPLATE_FORMATS], "text")
@now_option
@click.option("-w", "--watch", is_flag=True, help="Draw again on every change of the graph.")
@click.option("--no-headers", is_flag=True, help="No header row.")
@handle_errors
@cluster_options()
def events(
    name: str,
    output: Printer,
    now: str | None,
    watch: bool = False,
    no_headers: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show the Events of a graph and of every object the operator built below it (its
    DynamoComponentDeployments, Deployments, ReplicaSets, Grove objects and pods), newest
    last; repeats of one Event are one row with their count.

    \b
    Examples:
      kubectl dgd events my-graph -n dynamo
      kubectl dgd events my-graph --watch
      kubectl dgd events my-graph -o wide      # whole messages, whatever the width
      kubectl dgd events my-graph -o json
    """
    del conn
    deps = current_deps()
    from kubectl_dgd.usecases.graph_events import live_events, watch_events

    cluster = deps.cluster()
    if not watch:
        deps.print(
            live_events(cluster, name, cluster.namespace, deps.now(now)), output, not no_headers
        )
        return
    views = watch_events(cluster, name, cluster.namespace, deps.monotonic, lambda: deps.now(now))
    deps.redraw(views, output, not no_headers)
