"""``kubectl dgd abort NAME``: stop a managed rolling update by writing the old worker templates back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@click.option(
    "--force",
    is_flag=True,
    help="Write even when Argo CD syncs the graph with selfHeal (it will revert it).",
)
@output_option(["text", "json", "yaml"], "text")
@handle_errors
@cluster_options()
def abort(name: str, force: bool, output: str, conn: ConnectionSettings | None = None) -> None:
    """Stop a managed rolling update by writing the previous worker templates back.

    During a managed rolling update the operator still records the old worker hash and the old
    generation's worker DCDs still run (see `tree`). abort writes back the worker templates
    whose hash is the recorded one (from last-applied-configuration or rebuilt from those
    DCDs, checked against the hash), leaving other changes; the operator then ends the
    update, deletes the new generation and keeps the old. Guarded as `undo` is
    (resourceVersion, Argo CD selfHeal). Exit 0 when written, 1 when no rolling update runs
    or the old templates cannot be rebuilt exactly, 3 when NAME is not found, 4 for an API
    error.

    \b
    Examples:
      kubectl dgd abort my-graph -n dynamo
      kubectl dgd abort my-graph -o json
    """
    del conn
    from kubectl_dgd.cli.undo import write_back

    write_back(current_deps(), name, "abort", None, force, output)
