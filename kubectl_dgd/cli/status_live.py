"""The live branches of ``kubectl dgd status`` / ``list`` (the command is in cli/status.py)."""

from __future__ import annotations

from kubectl_dgd.cli.deps import Deps


def status_live(
    deps: Deps,
    name: str,
    output: str,
    now: str | None,
    watch: bool = False,
    events: bool = False,
    headers: bool = True,
) -> None:
    """One GET and the offline view; with ``watch``, a new view per change of the graph (each
    drawn at the time it arrives, unless the clock is fixed with ``now``); ``headers``: the
    tables' header rows (--no-headers)."""
    moment = deps.now(now)
    from kubectl_dgd.usecases.live_status import graph_name, live_status, watch_status

    cluster = deps.cluster()
    namespace = cluster.namespace
    if output == "name":  # the name needs no view (and no Events)
        deps.print(graph_name(cluster, name, namespace), output)
        return
    if not watch:
        deps.print(live_status(cluster, name, namespace, moment, events), output, headers)
        return
    views = watch_status(
        cluster, name, namespace, deps.monotonic, lambda: deps.now(now), with_events=events
    )
    deps.redraw(views, output, headers)


def list_live(
    deps: Deps,
    all_namespaces: bool,
    output: str,
    headers: bool,
    selector: str | None,
    now: str | None,
    sort_by: str | None = None,
    label_columns: tuple[str, ...] = (),
    show_labels: bool = False,
) -> None:
    """One LIST: a row per graph (``-A``: of every namespace)."""
    from kubectl_dgd.output.printer import TABLE_FORMATS
    from kubectl_dgd.usecases.live_list import list_graphs

    moment = deps.now(now)
    cluster = deps.cluster()
    namespace = None if all_namespaces else cluster.namespace
    listing = list_graphs(cluster, namespace, selector, moment)
    if sort_by:
        from kubectl_dgd.output.sort_by import sort_listing

        listing = sort_listing(listing, sort_by)
    if not listing.rows and output in TABLE_FORMATS:
        where = "" if all_namespaces else f" in {cluster.namespace} namespace"
        deps.stderr.write(f"No resources found{where}.\n")
        return
    deps.print(
        listing, output, headers=headers, label_columns=label_columns, show_labels=show_labels
    )
