"""``kubectl dgd status`` (and its ``list`` alias): the status view of a graph."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli.common import clock, handle_errors, now_option, style_for
from kubectl_dgd.cli.options import cluster_options

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings

_OUTPUTS = ["text", "wide", "json", "yaml", "name"]


@click.command()
@click.argument("name", required=False)
@click.option(
    "-f", "--filename", help="A saved object (kubectl get dgd NAME -o yaml); - for stdin."
)
@click.option("-o", "--output", type=click.Choice(_OUTPUTS), default="text", show_default=True)
@now_option
@click.option("-w", "--watch", is_flag=True, help="NAME: redraw on every change (watch stream).")
@click.option("--events", is_flag=True, help="NAME: add the graph's recent Events.")
@click.option("-l", "--selector", help="Without NAME: only graphs with these labels (a=b,c!=d).")
@click.option("--no-headers", is_flag=True, help="Without NAME: no header row.")
@handle_errors
@cluster_options(all_namespaces=True)
def status(
    name: str | None,
    filename: str | None,
    output: str,
    now: str | None,
    watch: bool = False,
    events: bool = False,
    selector: str | None = None,
    no_headers: bool = False,
    all_namespaces: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show a graph's state, components, GPUs, restart and rolling update.

    With -f, reads a saved object; NAME then picks one graph of a List. GPU figures come from
    the status when the operator reports them, else from the spec (marked *).

    \b
    Examples:
      kubectl dgd status -f saved.yaml
      kubectl get dgd my-graph -o yaml | kubectl dgd status -f - -o wide
    """
    from kubectl_dgd.usecases.status import render_status_file

    moment = clock(now)
    if filename is None:
        from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
        from kubectl_dgd.cli.status_live import list_live, status_live

        conn = conn or ConnectionSettings()
        if name is None:
            list_live(conn, all_namespaces, output, not no_headers, selector, moment)
        else:
            status_live(name, conn, moment, output, watch, events, fixed_clock=bool(now))
        return
    sys.stdout.write(render_status_file(filename, moment, output, style_for(), name=name))


@click.command(name="list")
@click.option("-o", "--output", type=click.Choice(_OUTPUTS), default="text", show_default=True)
@click.option("-l", "--selector", help="Only graphs with these labels (a=b,c!=d).")
@click.option("--no-headers", is_flag=True, help="No header row.")
@now_option
@handle_errors
@cluster_options(all_namespaces=True)
def list_graphs(
    output: str,
    selector: str | None,
    no_headers: bool,
    now: str | None,
    all_namespaces: bool,
    conn: ConnectionSettings,
) -> None:
    """List graphs: one LIST, a row per graph (same as status without NAME).

    Columns: NAME (NAMESPACE with -A), STATE, READY (ready/total components), REPLICAS
    (ready/desired), GPUS, RESTART, ROLLOUT, AGE; -o wide adds PROVIDER, BACKEND, REASON.
    """
    from kubectl_dgd.cli.status_live import list_live

    list_live(conn, all_namespaces, output, not no_headers, selector, clock(now))
