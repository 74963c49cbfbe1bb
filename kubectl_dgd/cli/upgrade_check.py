"""``kubectl dgd upgrade-check --to RELEASE``: what upgrading the operator does to each graph."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import _operator_version, cluster_options, output_option
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command("upgrade-check")
@click.argument("name", required=False, shell_complete=completers.graph_names)
@click.option(
    "--to",
    "target",
    required=True,
    metavar="X.Y",
    callback=_operator_version,
    help=f"The operator release to upgrade to: {', '.join(SUPPORTED_VERSIONS)} (X.Y.Z accepted).",
)
@click.option(
    "--from",
    "current",
    metavar="X.Y",
    default=None,
    callback=_operator_version,
    help="The release running now. Default: the cluster's, as validate --live detects it.",
)
@click.option(
    "--local",
    is_flag=True,
    help="With -f and --from: contact no cluster; each file's graph is its own old object.",
)
@click.option(
    "-f",
    "--filename",
    "filenames",
    multiple=True,
    help="File or directory of graphs (repeatable); - for stdin.",
    shell_complete=completers.manifest_paths,
)
@output_option(["text", "json", "yaml", *TEMPLATE_FORMATS], "text")
@handle_errors
@cluster_options(all_namespaces=True)
def upgrade_check(
    name: str | None,
    target: str,
    current: str | None,
    filenames: tuple[str, ...],
    local: bool,
    output: str,
    all_namespaces: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Say what upgrading the Dynamo operator to a release does to each graph.

    For each graph: the verdict of its next update under the target release's admission
    rules (the live object as the old one), whether the worker hash changes between the
    releases (the new operator then starts a managed rolling update of those worker
    components as soon as it reconciles the graph), and the fields the target release
    deprecates or drops (unknown to its CRD: pruned on the next write). Graphs come from
    files (-f), one live graph (NAME), the namespace's graphs (no argument) or every
    namespace's (-A). Exit 0 when nothing would break, 1 when a graph's next update would be
    refused or a field dropped, 2 for bad input, 3 when NAME is not found or the files hold no
    graph, 4 for an API error.

    \b
    Examples:
      kubectl dgd upgrade-check --to 1.6 my-graph -n dynamo
      kubectl dgd upgrade-check --to 1.6 -A -o json
      kubectl dgd upgrade-check --to 1.6 -f manifests/
      kubectl dgd upgrade-check --from 1.4 --to 1.6 -f graph.yaml --local
    """
    del conn
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.errors import UsageError
    from kubectl_dgd.usecases import operator_version as detection
    from kubectl_dgd.usecases.upgrade_check import file_graphs, upgrade_check

    deps = current_deps()
    if filenames and (name or all_namespaces):
        raise UsageError("give -f PATH, NAME or -A, not more than one")
    if local and (not filenames or current is None):
        raise UsageError("--local needs -f PATH and --from RELEASE (no cluster to read them from)")
    cluster = None if local else deps.cluster()
    how = "given with --from"
    if current is None:
        assert cluster is not None
        graphs = [obj for obj, _ in file_graphs(list(filenames))] if filenames else None
        current, how = detection.detect(cluster, graphs)
    schemas = {v: bundled_schemas(v) for v in {current, target}}
    report, warnings = upgrade_check(
        (current, how),
        target,
        schemas,
        paths=list(filenames) or None,
        cluster=cluster,
        name=name,
        all_namespaces=all_namespaces,
    )
    for warning in warnings:
        deps.warn(f"warning: {warning}")
    deps.print(report, output)
    sys.exit(int(Exit.OK if report.ok else Exit.FAILED))
