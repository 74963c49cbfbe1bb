"""``kubectl dgd restart``: request a rolling restart of a graph's pods by a new ``spec.restart.id``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import Deps, current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, dry_run_option
from kubectl_dgd.errors import UsageError

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@click.argument("name", required=False, shell_complete=completers.graph_names)
@click.option(
    "-f",
    "--filename",
    "path",
    type=click.Path(),
    shell_complete=completers.manifest_paths,
    help="Edit this manifest in place (GitOps); - reads stdin and prints the edited stream.",
)
@click.option(
    "--name", "graph_name", help="With -f: the graph to restart when the file holds several."
)
@click.option("--parallel", is_flag=True, help="Restart every component at once.")
@click.option(
    "--order",
    help="Sequential order: every component name, comma-separated (e.g. a,b,c).",
    shell_complete=completers.component_list,
)
@click.option("--id", "restart_id", help="Restart id. Default: the current UTC time (RFC 3339).")
@dry_run_option(
    "Show the plan and change nothing (with -f: print the unified diff); server (NAME only): "
    "the API server's admission judges the patch, nothing is stored."
)
@click.option("--wait", is_flag=True, help="NAME: follow the restart until it completes.")
@click.option("--timeout", metavar="DURATION", help="NAME with --wait: give up after (5m, 30s).")
@handle_errors
@cluster_options()
def restart(
    name: str | None,
    path: str | None,
    graph_name: str | None,
    parallel: bool,
    order: str | None,
    restart_id: str | None,
    dry_run: str,
    wait: bool,
    timeout: str | None,
    conn: ConnectionSettings,
) -> None:
    """Request a restart: set spec.restart.id (and the strategy) of a graph.

    With -f FILE the manifest is edited in place: only spec.restart changes, comments, key
    order, quoting and the file's other documents stay as they were. Commit the change and
    let your GitOps tool apply it. Without --parallel or --order the file's strategy is kept
    (default Sequential, components in alphabetical order).

    Refuses, with the operator's reason and the file unchanged, what admission would reject:
    --order with --parallel, an order that is not the complete set of component names, an
    LPX graph without --parallel. Exit 0 done, 1 refused, 2 bad input.

    With NAME the live graph is patched (spec.restart only, guarded by the resourceVersion
    read; also refused during a rolling update). --wait follows status.restart to Completed
    (exit 0), Superseded/Failed or --timeout (exit 1), with rollout status's lines on stderr
    (the restart's progress, each unsettled component's replicas, what why finds blocking
    it); a timeout names the why and rollout status commands, with -n. Exit 3 not found, 4
    API error.
    With --wait, a warning per component whose restarted pods the cluster's free GPUs cannot
    hold beside the old ones (a restart rolls pods with the Deployment's surge; one LIST of
    nodes and one of pods; Sequential restarts are judged one component at a time).

    \b
    Examples:
      kubectl dgd restart my-graph --parallel
      kubectl dgd restart my-graph -n prod --wait --timeout 20m
      kubectl dgd restart -f graph.yaml
      kubectl dgd restart -f graph.yaml --order Frontend,VllmDecodeWorker --dry-run
      kubectl dgd restart -f graphs.yaml --name my-graph --parallel --id fix-1234
    """
    if timeout is not None and not wait:
        raise UsageError("--timeout applies to --wait; add --wait")
    if path is None:
        if name is None:
            raise UsageError("give a graph NAME or -f FILE")
        if graph_name is not None:
            raise UsageError("--name picks a graph in -f FILE; for a live graph give NAME alone")
        _restart_live(current_deps(), name, parallel, order, restart_id, wait, timeout, dry_run)
        return
    if name is not None:
        raise UsageError(
            "give either a graph NAME or -f FILE, not both (use --name to pick a graph in FILE)"
        )
    if wait:
        raise UsageError(
            "--wait follows a live restart (NAME); with -f nothing changes until the file is applied"
        )
    if dry_run == "server":
        raise UsageError("--dry-run=server needs a live graph (NAME); with -f use --dry-run")
    _restart_file(
        current_deps(), path, graph_name, parallel, order, restart_id, dry_run == "client"
    )


def _restart_live(deps: Deps, name: str, *args: Any) -> None:
    from kubectl_dgd.cli.restart_live import restart_live

    restart_live(deps, name, *args)


def _restart_file(
    deps: Deps,
    path: str,
    graph_name: str | None,
    parallel: bool,
    order: str | None,
    restart_id: str | None,
    dry_run: bool,
) -> None:
    from kubectl_dgd.core.restart import CREATE_MESSAGE, RestartRequest
    from kubectl_dgd.usecases.restart_file import restart_file

    request = RestartRequest.from_flags(parallel, order, restart_id)
    result = restart_file(path, request, deps.wall_clock(), name=graph_name, dry_run=dry_run)
    if result.streamed:  # - or /dev/stdin: the edited stream is the output, the rest is talk
        deps.stdout.write(result.output)
        deps.stdout.flush()
        from kubectl_dgd.output.printer import print_view

        print_view(result.summary(), "text", deps.stderr, deps.options())
    else:
        deps.print(result.summary(), "text")
    if result.may_be_new:
        deps.warn(f"warning: apply this only to a graph that already exists: {CREATE_MESSAGE}")
