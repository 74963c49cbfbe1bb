"""``kubectl dgd history NAME``: a graph's previous specs, from what the cluster keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option
from kubectl_dgd.output.printer import TEMPLATE_FORMATS

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@output_option(["text", "json", "yaml", *TEMPLATE_FORMATS], "text")
@handle_errors
@cluster_options()
def history(name: str, output: str, conn: ConnectionSettings | None = None) -> None:
    """List a graph's previous specs, from what the cluster keeps, oldest first.

    The operator keeps no history of a graph. The revisions come from the
    kubectl.kubernetes.io/last-applied-configuration annotation (the whole spec kubectl apply
    last sent) and, during a managed rolling update, from the old generation's worker
    DynamoComponentDeployments (their main containers' image, command, args and resources;
    kept only when the rebuilt spec hashes to the worker hash the operator still records).
    managedFields name who wrote which fields when, never the old values. The highest
    revision is the live spec; `undo` and `abort` write one back. -o json carries each
    revision's spec.

    \b
    Examples:
      kubectl dgd history my-graph -n dynamo
      kubectl dgd history my-graph -o json
      kubectl dgd undo my-graph --to-revision 1
    """
    del conn
    from kubectl_dgd.usecases.history import load

    deps = current_deps()
    loaded = load(deps.cluster(), name)
    for warning in loaded.warnings:
        deps.warn(f"warning: {warning}")
    deps.print(loaded.history, output)
