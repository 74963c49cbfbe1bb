"""``kubectl dgd diff -f FILE``: what applying the file would change, and what that will do."""

from __future__ import annotations

import sys

import click

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
from kubectl_dgd.cli.common import handle_errors, make_profile, profile_options
from kubectl_dgd.cli.options import cluster_options, connect
from kubectl_dgd.exitcodes import Exit


@click.command()
@click.option("-f", "--filename", "path", required=True, help="The graph manifest to compare.")
@click.option("-o", "--output", type=click.Choice(["text", "json"]), default="text")
@profile_options
@handle_errors
@cluster_options()
def diff(
    path: str,
    output: str,
    provider: str | None,
    grove: bool,
    lpx: bool,
    checkpoint: bool,
    discovery: str,
    conn: ConnectionSettings,
) -> None:
    """Compare a local graph with the live one (same name and namespace) and predict the impact.

    Prints the field-level difference, then per component what the operator will do: rejected
    by admission (and why), a managed rolling update of all worker components (the worker hash
    covers every worker), an in-place rolling update of a non-worker Deployment, a Grove native
    update, a scale, a restart, or nothing.

    Exit 0 when there is no difference, 1 when there is, above 1 on error (as kubectl diff).

    \b
    Examples:
      kubectl dgd diff -f graph.yaml
      kubectl dgd diff -f graph.yaml -n prod -o json
    """
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.output.diff import render_diff
    from kubectl_dgd.output.serialize import to_json
    from kubectl_dgd.usecases.diff import diff_graph
    from kubectl_dgd.usecases.live_validate import refuse_other_namespace
    from kubectl_dgd.usecases.validate import graphs_in_file

    profile = make_profile(provider, grove, lpx, checkpoint, discovery)
    graphs = graphs_in_file(path)
    refuse_other_namespace(graphs, conn.namespace)
    cluster = connect(conn)
    results = [
        diff_graph(cluster, g, cluster.namespace, bundled_schemas(), profile) for g in graphs
    ]
    if output == "json":
        sys.stdout.write(to_json([r.to_dict() for r in results]))
    else:
        sys.stdout.write("\n".join(render_diff(r) for r in results))
    differs = any(r.changes or not r.exists for r in results)
    sys.exit(int(Exit.FAILED if differs else Exit.OK))
