"""``kubectl dgd undo NAME [--to-revision N]``: write a previous spec of the graph back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import Deps, current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


def write_back(
    deps: Deps, name: str, action: str, number: int | None, force: bool, output: str
) -> None:
    """Read, choose, guard, write once, report. After the write nothing can fail the exit."""
    from kubectl_dgd.core.history import Reverted, changed_paths, operator_effect
    from kubectl_dgd.errors import ConflictError
    from kubectl_dgd.usecases import history as uc

    cluster = deps.cluster()
    loaded = uc.load(cluster, name)
    for warning in loaded.warnings:
        deps.warn(f"warning: {warning}")
    history = loaded.history
    live_spec = loaded.live.get("spec") or {}
    if action == "abort":
        revision = uc.abort_target(history)
        spec = uc.worker_templates_of(revision.spec, live_spec)
    else:
        revision = uc.chosen(history, number)
        spec = revision.spec
    for warning in uc.argo_guard(cluster, loaded.live, force):
        deps.warn(f"warning: {warning}")
    written = uc.write_guarded(cluster, loaded, spec)  # type: ignore[arg-type]
    if written is None:
        raise ConflictError(
            f"conflict: the spec of {name} changed since it was read (resourceVersion "
            f"{history.resource_version}); nothing was written: look at `history` and run "
            f"{action} again",
            409,
            "Conflict",
        )
    written_hash = next((r.worker_hash for r in history.revisions if r.spec == spec), None)
    view = Reverted(
        action=action,
        name=name,
        namespace=cluster.namespace,
        revision=revision.number,
        source=revision.source,
        changes=changed_paths(live_spec, spec),
        resource_version=str((written.get("metadata") or {}).get("resourceVersion") or ""),
        operator=operator_effect(history, written_hash, action),
    )
    try:
        deps.print(view, output)
    except Exception as error:
        deps.warn(f"warning: written, but the report could not be printed: {error}")


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@click.option(
    "--to-revision",
    "to_revision",
    type=click.IntRange(min=1),
    default=None,
    help="The revision of `history` to go back to. Default: the one before the live spec.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Write even when Argo CD syncs the graph with selfHeal (it will revert it).",
)
@output_option(["text", "json", "yaml"], "text")
@handle_errors
@cluster_options()
def undo(
    name: str,
    to_revision: int | None,
    force: bool,
    output: str,
    conn: ConnectionSettings | None = None,
) -> None:
    """Write a previous spec of the graph back, as kubectl rollout undo does for a Deployment.

    The revisions are those of `history`. The patch carries the resourceVersion read, so a
    write in between is a conflict (exit 4, nothing written). A graph Argo CD tracks with
    selfHeal is refused (exit 1) unless --force: Argo CD would put the Git spec back at once;
    change Git instead. If the restored spec changes the worker hash the operator starts a
    managed rolling update of every worker component. Exit 0 when written, 1 when refused or
    there is no previous revision, 3 when NAME is not found, 4 for an API error.

    \b
    Examples:
      kubectl dgd undo my-graph -n dynamo
      kubectl dgd undo my-graph --to-revision 1
      kubectl dgd undo my-graph --force    # Argo CD will revert it if it self-heals
    """
    del conn
    write_back(current_deps(), name, "undo", to_revision, force, output)
