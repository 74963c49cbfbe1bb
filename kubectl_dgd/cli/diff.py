"""``kubectl dgd diff -f FILE``: what applying the file would change, and what that will do."""

from __future__ import annotations

import sys

import click

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, make_profile, output_option, profile_options
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS


@click.command()
@click.option(
    "-f",
    "--filename",
    "path",
    required=True,
    help="The graph manifest to compare.",
    shell_complete=completers.manifest_paths,
)
@output_option(["text", "json", *TEMPLATE_FORMATS], "text", show_default=False)
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

    When the change needs more GPUs at its peak (a managed rolling update brings the new
    worker generation up before the old one goes; restarts and scale-ups need GPUs too) than
    the cluster's nodes have free, one warning per component goes to stderr (two more LISTs:
    nodes and pods; skipped, with one line, when the account may not list them).

    Exit 0 when there is no difference, 1 when there is, above 1 on error (as kubectl diff).

    \b
    Examples:
      kubectl dgd diff -f graph.yaml
      kubectl dgd diff -f graph.yaml -n prod -o json
    """
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.usecases.diff import diff_graphs
    from kubectl_dgd.usecases.live_validate import refuse_other_namespace
    from kubectl_dgd.usecases.validate import graphs_in_file

    deps = current_deps()
    profile = make_profile(provider, grove, lpx, checkpoint, discovery)
    graphs = graphs_in_file(path)
    refuse_other_namespace(graphs, conn.namespace)
    from kubectl_dgd.core.gpu_peak import PeakNeed
    from kubectl_dgd.usecases.gpu_peak import peak_warnings

    cluster = deps.cluster()
    needs: list[PeakNeed] = []
    result = diff_graphs(cluster, graphs, bundled_schemas(), profile, needs)
    deps.print(result, output)
    for line in peak_warnings(cluster, needs):
        deps.warn(line)
    sys.exit(int(Exit.FAILED if result.differs else Exit.OK))
