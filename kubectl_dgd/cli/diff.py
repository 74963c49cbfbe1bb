"""``kubectl dgd diff -f FILE|DIR|-``: what applying the files would change, and what that will do."""

from __future__ import annotations

import sys

import click

from kubectl_dgd.adapters.connection import ConnectionSettings
from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option, profile_flags
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer


@click.command()
@click.option(
    "-f",
    "--filename",
    "paths",
    type=click.Path(allow_dash=True),
    multiple=True,
    required=True,
    help="File or directory of graph manifests (repeatable); - for stdin.",
    shell_complete=completers.manifest_paths,
)
@click.option(
    "-R", "--recursive", is_flag=True, help="Read the directories given with -f recursively."
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Compare everything: status, server metadata, operator annotations, defaults.",
)
@output_option(["text", "wide", "json", *TEMPLATE_FORMATS], "text", show_default=False)
@profile_flags()
@handle_errors
@cluster_options()
def diff(
    paths: tuple[str, ...],
    recursive: bool,
    everything: bool,
    output: Printer,
    profile: Profile,
    conn: ConnectionSettings,
) -> None:
    """Compare local graphs with the live ones (same name and namespace) and predict the impact.

    Reads every graph of every document of the files given with -f (a directory: its *.yaml,
    *.yml and *.json files, recursively with -R; - reads standard input); v1alpha1 graphs are
    compared as the operator converts them. Prints the field-level difference, then per
    component what the operator will do: rejected by admission (and why), a managed rolling
    update of all worker components (the worker hash covers every worker), an in-place rolling
    update of a non-worker Deployment, a Grove native update, a scale, a restart, or nothing.

    Components and multinode roles are matched by name, so a reorder is no change; paths give
    an item's position in the file. Only what an apply of the file sets is compared, with the
    CRD and webhook defaults applied to both sides: status, server metadata (uid,
    resourceVersion, managedFields, ...), labels and annotations the file does not name, and
    the worker-hash and last-applied annotations are ignored. --all compares the objects as
    they are, with none of that left out.

    When the change needs more GPUs at its peak (a managed rolling update brings the new
    worker generation up before the old one goes; restarts and scale-ups need GPUs too) than
    the cluster's nodes have free, one warning per component goes to stderr (two more LISTs:
    nodes and pods; skipped, with one line, when the account may not list them).

    Exit codes, as kubectl diff: 0 no differences; 1 differences found (a graph not in the
    cluster is one: all its fields are added); 2 bad flags or unreadable input; 3 the CRD is
    not installed, or the files hold no graph; 4 the API server refused or could not be reached; 130 interrupted.

    \b
    Examples:
      kubectl dgd diff -f graph.yaml
      kubectl dgd diff -f manifests/ -R
      kustomize build overlays/prod | kubectl dgd diff -f -
      kubectl dgd diff -f graph.yaml -n prod -o json
    """
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.usecases.diff import diff_graphs, graphs_in_paths
    from kubectl_dgd.usecases.live_validate import refuse_other_namespace

    deps = current_deps()
    graphs = graphs_in_paths(list(paths), recursive)
    refuse_other_namespace(graphs, conn.namespace)
    from kubectl_dgd.core.gpu_peak import PeakNeed
    from kubectl_dgd.usecases.gpu_peak import peak_warnings

    cluster = deps.cluster()
    needs: list[PeakNeed] = []
    result = diff_graphs(cluster, graphs, bundled_schemas(), profile, everything, needs)
    deps.print(result, output)
    for line in peak_warnings(cluster, needs):
        deps.warn(line)
    sys.exit(int(Exit.FAILED if result.differs else Exit.OK))
