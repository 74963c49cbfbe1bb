"""The live branches of ``kubectl dgd status`` / ``list`` (the command is in cli/status.py)."""

from __future__ import annotations

import sys
import time
from datetime import datetime

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
from kubectl_dgd.cli.common import style_for
from kubectl_dgd.cli.options import connect
from kubectl_dgd.errors import UsageError

CLEAR = "\x1b[H\x1b[2J"


def status_live(
    name: str,
    conn: ConnectionSettings,
    now: datetime,
    output: str,
    watch: bool = False,
    events: bool = False,
    fixed_clock: bool = False,
) -> None:
    """One GET and the offline view; with ``watch``, a new view per change of the graph."""
    from kubectl_dgd.usecases.live_status import render_live, watch_graph

    cluster = connect(conn)
    namespace = cluster.namespace
    style = style_for()
    if output == "name":
        graph = cluster.get_graph(name, namespace)
        sys.stdout.write(f"dynamographdeployment.nvidia.com/{graph['metadata']['name']}\n")
        return
    if not watch:
        graph = cluster.get_graph(name, namespace)
        listed = cluster.list_events(name, namespace) if events else None
        sys.stdout.write(render_live(graph, now, output, style, listed))
        return
    tty = sys.stdout.isatty()
    # Piped blocks stay machine-readable: YAML documents need "---" between them (as
    # `kubectl get -w -o yaml`); JSON objects and text blocks are separated by a blank line.
    separator = "---\n" if output == "yaml" else "\n"
    for count, graph in enumerate(watch_graph(cluster, name, namespace, time.monotonic)):
        moment = now if fixed_clock else datetime.now(now.tzinfo)
        listed = cluster.list_events(name, namespace) if events else None
        text = render_live(graph, moment, output, style, listed)
        if tty:
            sys.stdout.write(CLEAR + text)
        else:
            sys.stdout.write((separator if count else "") + text)
        sys.stdout.flush()


def list_live(
    conn: ConnectionSettings,
    all_namespaces: bool,
    output: str,
    headers: bool,
    selector: str | None,
    now: datetime,
) -> None:
    """One LIST: a row per graph (``-A``: of every namespace)."""
    from kubectl_dgd.core.listing import GraphRow
    from kubectl_dgd.output.graph_list import render_names, render_table
    from kubectl_dgd.output.serialize import to_json, to_yaml
    from kubectl_dgd.usecases.live_list import list_rows

    cluster = connect(conn)
    namespace = None if all_namespaces else cluster.namespace
    rows, items = list_rows(cluster, namespace, selector, now)
    if output in ("json", "yaml"):
        listing = {"apiVersion": "v1", "kind": "List", "items": items}
        sys.stdout.write(to_json(listing) if output == "json" else to_yaml(listing))
        return
    if output == "name":
        sys.stdout.write(render_names(rows))
        return
    if output not in ("text", "wide"):
        raise UsageError(f"-o {output} is not supported when listing")
    if not rows:
        where = "" if all_namespaces else f" in {cluster.namespace} namespace"
        sys.stderr.write(f"No resources found{where}.\n")
        return
    typed: list[GraphRow] = rows
    sys.stdout.write(render_table(typed, all_namespaces, wide=output == "wide", headers=headers))
