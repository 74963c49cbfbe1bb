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
@click.argument("name", required=False, shell_complete=completers.graph_names)
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
@click.option(
    "-f",
    "--filename",
    "filename",
    default=None,
    help="The GitOps form: write the previous spec into this file (comments kept), not the cluster.",
    shell_complete=completers.manifest_paths,
)
@output_option(["text", "json", "yaml"], "text")
@handle_errors
@cluster_options()
def undo(
    name: str | None,
    to_revision: int | None,
    force: bool,
    filename: str | None,
    output: str,
    conn: ConnectionSettings | None = None,
) -> None:
    """Write a previous spec of the graph back, as kubectl rollout undo does for a Deployment.

    The revisions are those of `history`. The patch carries the resourceVersion read, so a
    write in between is a conflict (exit 4, nothing written). A graph Argo CD tracks with
    selfHeal is refused (exit 1) unless --force: Argo CD would put the Git spec back at once;
    change Git instead: -f FILE sets the fields where the previous spec differs from the live
    one in the file's graph (read from the cluster by the file's name and namespace), under
    the file's edit lock, comments kept, the cluster untouched. If the restored spec changes
    the worker hash the operator starts a managed rolling update of every worker component.
    Exit 0 when written, 1 when refused or there is no previous revision, 2 for a bad file,
    3 when the graph is not found, 4 for an API error.

    \b
    Examples:
      kubectl dgd undo my-graph -n dynamo
      kubectl dgd undo my-graph --to-revision 1
      kubectl dgd undo my-graph --force    # Argo CD will revert it if it self-heals
      kubectl dgd undo -f graphs/my-graph.yaml && git commit -am "undo my-graph"
    """
    from kubectl_dgd.errors import UsageError

    deps = current_deps()
    if filename is not None:
        undo_in_file(deps, filename, name, to_revision, output, conn)
        return
    if name is None:
        raise UsageError("give NAME, or -f FILE for the GitOps form")
    del conn
    write_back(deps, name, "undo", to_revision, force, output)


def undo_in_file(
    deps: Deps,
    path: str,
    name: str | None,
    number: int | None,
    output: str,
    conn: ConnectionSettings | None,
) -> None:
    from kubectl_dgd.errors import UsageError
    from kubectl_dgd.usecases import history as uc
    from kubectl_dgd.usecases.undo_file import graph_name, undo_file

    graph, namespace = graph_name(path, name)
    if namespace and conn is not None and conn.namespace and conn.namespace != namespace:
        raise UsageError(f"the file's graph is in namespace {namespace!r}, not {conn.namespace!r}")
    cluster = deps.cluster()
    if namespace:
        cluster.namespace = namespace
    loaded = uc.load(cluster, graph)
    for warning in loaded.warnings:
        deps.warn(f"warning: {warning}")
    revision = uc.chosen(loaded.history, number)
    result = undo_file(path, graph, loaded.live.get("spec") or {}, revision)
    deps.print(result, output)
