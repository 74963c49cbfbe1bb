"""``kubectl dgd events NAME``: the Events of a graph and of everything below it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, now_option, output_option
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
    from kubectl_dgd.core.graph_events import EventFilter


def event_filter(types: str | None, component: str | None) -> EventFilter | None:
    """``--types`` and ``--for`` as one filter (None: neither given); kubectl's words when a
    type is neither Normal nor Warning."""
    if types is None and component is None:
        return None
    from kubectl_dgd.core.graph_events import EventFilter, event_types

    try:
        return EventFilter(event_types(types), component)
    except ValueError as err:
        raise UsageError(str(err)) from None


types_option = click.option(
    "--types",
    metavar="TYPES",
    help="Only Events of these types, comma-separated: Normal, Warning (as kubectl events).",
)
for_option = click.option(
    "--for",
    "for_component",
    metavar="COMPONENT",
    shell_complete=completers.components,
    help="Only the Events of this component's objects (gone ones included).",
)


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@output_option(["text", "wide", "json", "yaml", *TEMPLATE_FORMATS], "text")
@now_option
@click.option("-w", "--watch", is_flag=True, help="Draw again on every change of the graph.")
@click.option("--no-headers", is_flag=True, help="No header row.")
@types_option
@for_option
@handle_errors
@cluster_options()
def events(
    name: str,
    output: Printer,
    now: str | None,
    watch: bool = False,
    no_headers: bool = False,
    types: str | None = None,
    for_component: str | None = None,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show the Events of a graph and of every object the operator built below it (its
    DynamoComponentDeployments, Deployments, ReplicaSets, Grove objects and pods), newest
    last; repeats of one Event are one row with their count. Objects gone since (a crashed pod
    replaced, the old generation after a rolling update) are recognised by the names the
    operator gives them, so their Events are still shown.

    \b
    Examples:
      kubectl dgd events my-graph -n dynamo
      kubectl dgd events my-graph --watch
      kubectl dgd events my-graph -o wide      # whole messages, whatever the width
      kubectl dgd events my-graph -o json
      kubectl dgd events my-graph --types=Warning --for decode
    """
    del conn
    deps = current_deps()
    from kubectl_dgd.usecases.graph_events import live_events, watch_events

    which = event_filter(types, for_component)
    cluster = deps.cluster()
    if not watch:
        view = live_events(cluster, name, cluster.namespace, deps.now(now), which)
        deps.print(view, output, not no_headers)
        return
    views = watch_events(
        cluster, name, cluster.namespace, deps.monotonic, lambda: deps.now(now), which
    )
    deps.redraw(views, output, not no_headers)
