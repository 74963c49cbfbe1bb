"""``kubectl dgd gpus``: the cluster's GPU nodes, what is requested and free, and by whom."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@output_option(["text", "wide", "json", "yaml", *TEMPLATE_FORMATS], "text")
@click.option("--no-headers", is_flag=True, help="No header row and no summary lines.")
@handle_errors
@cluster_options(all_namespaces=True)
def gpus(
    output: Printer,
    no_headers: bool = False,
    all_namespaces: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Show every node that offers nvidia.com/gpu or MIG slices (a row per profile): its GPU
    product, memory, allocatable, requested and free GPUs, and the graphs whose pods hold them.

    The product and memory are GPU feature discovery's labels (nvidia.com/gpu.product,
    nvidia.com/gpu.memory in MiB). Then the totals (per MIG profile too) and the pods that want
    GPUs but have no node yet.

    Requested counts every pod bound to the node that has not terminated, in any namespace
    (per container the limit, else the request; init containers as the scheduler counts
    them). -n/-A choose whose graphs are named under USED BY; the rest is "other".

    Two LISTs, nodes and pods, both cluster-wide: the account needs list on nodes and pods at
    the cluster scope (exit 4 when refused).

    \b
    Examples:
      kubectl dgd gpus
      kubectl dgd gpus -A -o wide
      kubectl dgd gpus -o json
    """
    del conn
    deps = current_deps()
    from kubectl_dgd.usecases.cluster_gpus import live_cluster_gpus

    cluster = deps.cluster()
    namespace = None if all_namespaces else cluster.namespace
    view = live_cluster_gpus(cluster, namespace, deps.terminal_width())
    if not view.rows and output.is_table:
        deps.warn("No nodes with nvidia.com/gpu found.")
        return
    deps.print(view, output, not no_headers)
