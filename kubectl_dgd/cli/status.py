"""``kubectl dgd status`` (and its ``list`` alias): the status view of a graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.events import event_filter, for_option, types_option
from kubectl_dgd.cli.flags import (
    cluster_options,
    listing_options,
    now_option,
    output_option,
)
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings

# The template formats take their argument after "=" (-o jsonpath={.status.state}).
_OUTPUTS = ["text", "wide", "json", "yaml", "name", *TEMPLATE_FORMATS]


@click.command()
@click.argument("name", required=False, shell_complete=completers.graph_names)
@click.option(
    "-f",
    "--filename",
    help="A saved object (kubectl get dgd NAME -o yaml); - for stdin.",
    shell_complete=completers.manifest_paths,
)
@output_option(_OUTPUTS, "text")
@now_option
@click.option(
    "-w",
    "--watch",
    is_flag=True,
    help="NAME: redraw on every change (watch stream); without NAME: as list -w.",
)
@click.option("--events", is_flag=True, help="NAME: add the graph's recent Events.")
@types_option
@for_option
@click.option("-l", "--selector", help="Without NAME: only graphs with these labels (a=b,c!=d).")
@click.option("--no-headers", is_flag=True, help="No header rows in the tables.")
@listing_options
@handle_errors
@cluster_options(all_namespaces=True)
def status(
    name: str | None,
    filename: str | None,
    output: Printer,
    now: str | None,
    watch: bool = False,
    events: bool = False,
    types: str | None = None,
    for_component: str | None = None,
    selector: str | None = None,
    no_headers: bool = False,
    sort_by: str | None = None,
    show_labels: bool = False,
    label_columns: tuple[str, ...] = (),
    all_namespaces: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show a graph's state, components, GPUs, restart and rolling update.

    With NAME, reads the live graph (one GET); --watch follows it through a watch stream
    (redrawn on a terminal, one block per change when piped; Ctrl-C exits 130). Without NAME,
    lists graphs as `kubectl dgd list` does. With -f, reads a saved object; NAME then picks
    one graph of a List. GPU figures come from the status when the operator reports them,
    else from the spec (marked *).

    \b
    Examples:
      kubectl dgd status my-graph -n dynamo
      kubectl dgd status my-graph --watch --events
      kubectl dgd status my-graph -o json
      kubectl dgd status -f saved.yaml
      kubectl get dgd my-graph -o yaml | kubectl dgd status -f - -o wide
    """
    _refuse_ignored_flags(
        name,
        filename,
        {
            "--watch": watch,
            "--events": events,
            "--types": types is not None,
            "--for": for_component is not None,
            "-l/--selector": selector is not None,
            "--sort-by": sort_by is not None,
            "--show-labels": show_labels,
            "-L/--label-columns": bool(label_columns),
            "-A/--all-namespaces": all_namespaces,
        },
        conn,
    )
    from kubectl_dgd.cli.status_live import ListOptions, StatusOptions

    if name is None and filename is None:  # as `kubectl dgd list` (with -w, as list -w)
        listing = ListOptions.complete(
            output,
            label_columns,
            sort_by,
            headers=not no_headers,
            selector=selector,
            all_namespaces=all_namespaces,
            watch=watch,
            show_labels=show_labels,
            now=now,
        )
        listing.validate().run(current_deps())
        return
    which = event_filter(types, for_component)  # either implies --events
    one = StatusOptions(
        output, name, filename, not no_headers, watch, events or which is not None, now, which
    )
    one.validate().run(current_deps())


# Which flags make sense for which form of the command; any other is refused, not ignored.
_FOR_ONE_GRAPH = (
    "--events",
    "--types",
    "--for",
)  # --watch without NAME watches the list, as list -w
_FOR_LISTING = (
    "-l/--selector",
    "--sort-by",
    "--show-labels",
    "-L/--label-columns",
    "-A/--all-namespaces",
)


def _refuse_ignored_flags(
    name: str | None,
    filename: str | None,
    given: dict[str, bool],
    conn: ConnectionSettings | None,
) -> None:
    """A flag the chosen form would silently ignore is a usage error, as in kubectl."""
    used = [flag for flag, value in given.items() if value]
    if filename is not None:
        if conn is not None:
            connection = {
                "--kubeconfig": conn.kubeconfig,
                "--context": conn.context,
                "-n/--namespace": conn.namespace,
                "--request-timeout": conn.request_timeout,
                "--server": conn.server,
                "--token": conn.token,
                "--user": conn.user,
                "--cluster": conn.cluster,
                "--as": conn.impersonate,
            }
            used += [flag for flag, value in connection.items() if value]
        live_only = used
        if live_only:
            raise UsageError(f"{live_only[0]} is for live graphs; it cannot be used with -f")
        return
    if name is None:
        wrong = [flag for flag in used if flag in _FOR_ONE_GRAPH]
        if wrong:
            raise UsageError(f"{wrong[0]} needs a graph NAME (kubectl dgd status NAME {wrong[0]})")
        return
    wrong = [flag for flag in used if flag in _FOR_LISTING]
    if wrong:
        raise UsageError(
            f"{wrong[0]} lists graphs; it cannot be used with a graph NAME (kubectl dgd list)"
        )


@click.command(name="list")
@output_option(_OUTPUTS, "text")
@click.option("-l", "--selector", help="Only graphs with these labels (a=b,c!=d).")
@click.option(
    "--field-selector",
    "fields",
    help="Only graphs with these fields, judged by the server (metadata.name=x,metadata.namespace!=y).",
)
@click.option("--no-headers", is_flag=True, help="No header row.")
@click.option("-w", "--watch", is_flag=True, help="After the list, a row per change (Ctrl-C ends).")
@click.option(
    "--output-watch-events", is_flag=True, help="With --watch: an EVENT column (ADDED, ...)."
)
@listing_options
@now_option
@handle_errors
@cluster_options(all_namespaces=True)
def list_graphs(
    output: Printer,
    selector: str | None,
    fields: str | None,
    no_headers: bool,
    watch: bool,
    output_watch_events: bool,
    sort_by: str | None,
    show_labels: bool,
    label_columns: tuple[str, ...],
    now: str | None,
    all_namespaces: bool,
    conn: ConnectionSettings,
) -> None:
    """List graphs: one LIST, a row per graph (same as status without NAME).

    Columns: NAME (NAMESPACE with -A), STATE, READY (ready/total components), REPLICAS
    (ready/desired), GPUS, RESTART, ROLLOUT, AGE; -o wide adds PROVIDER, BACKEND, REASON.

    -w/--watch, as kubectl get -w: the list, then a row for each graph added, changed or
    deleted, from a watch of the namespace (re-opened with backoff when it drops), ending
    with OBSERVED, the local time (TZ) it was seen; Ctrl-C ends it (exit 130). Columns keep
    the widths of the first rows; a value wider than its column widens it and prints the
    header again above its row, so rows line up with the header above and nothing is cut.
    --output-watch-events adds the event type as a first column.

    \b
    Examples:
      kubectl dgd list
      kubectl dgd list -A -o wide
      kubectl dgd list -l team=inference --no-headers
      kubectl dgd list -o name
      kubectl dgd list --sort-by '{.metadata.creationTimestamp}' -L team --show-labels
      kubectl dgd list -w --output-watch-events
      kubectl dgd list -A --field-selector metadata.namespace!=kube-system
    """
    from kubectl_dgd.cli.status_live import ListOptions

    options = ListOptions.complete(
        output,
        label_columns,
        sort_by,
        headers=not no_headers,
        selector=selector,
        fields=fields,
        all_namespaces=all_namespaces,
        watch=watch,
        watch_events=output_watch_events,
        show_labels=show_labels,
        now=now,
    )
    options.validate().run(current_deps())
