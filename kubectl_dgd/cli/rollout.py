"""``kubectl dgd rollout status|explain NAME``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, now_option
from kubectl_dgd.cli.main import SuggestingGroup
from kubectl_dgd.exitcodes import Exit

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.group(cls=SuggestingGroup)
def rollout() -> None:
    """Follow or explain a graph's rollout (managed rolling update, restart, readiness).

    \b
    Examples:
      kubectl dgd rollout status my-graph --timeout 10m
      kubectl dgd rollout explain my-graph
    """


@rollout.command("status")
@click.argument("name", shell_complete=completers.graph_names)
@click.option("--timeout", metavar="DURATION", help="Give up after this long (0 = never).")
@click.option(
    "-w",
    "--watch/--no-watch",
    default=True,
    help="Wait for the rollout to finish (the default); --watch=false prints the state once.",
)
@handle_errors
@cluster_options()
def status(name: str, timeout: str | None, watch: bool, conn: ConnectionSettings) -> None:
    """Wait until the graph is Ready with no rolling update or restart in flight.

    Like kubectl rollout status: one line per change, exit 0 once rolled out, 1 when the graph
    fails or the timeout passes. The graph is followed through a watch stream.

    \b
    Examples:
      kubectl dgd rollout status my-graph --timeout 10m
      kubectl dgd rollout status my-graph --watch=false
    """
    from kubectl_dgd.adapters.kubeconfig import parse_timeout
    from kubectl_dgd.output.printer import format_view
    from kubectl_dgd.usecases.rollout import RolloutState, blocking_reason, rollout_status

    deps = current_deps()
    limit = parse_timeout(timeout)
    cluster = deps.cluster()

    screen = deps.last_change() if watch else None  # a terminal: "Last change" under the lines

    def report(state: RolloutState) -> None:
        if screen is not None:
            screen.lines(format_view(state, "text", deps.options()))
            return
        deps.print(state, "text")
        deps.stdout.flush()  # a line per change, as it happens, also when piped

    try:
        outcome = rollout_status(
            cluster,
            name,
            cluster.namespace,
            deps.monotonic,
            limit,
            watch,
            report,
            lambda: blocking_reason(cluster, name, cluster.namespace),
        )
    except BaseException:
        if screen is not None:
            screen.close()
        raise
    if screen is not None:  # rolled out: the result is the last line, no "Last change" under it
        if outcome.ok:
            screen.erase()
        else:
            screen.close()
    if not outcome.ok:
        deps.warn(f"error: {outcome.message}")
        sys.exit(int(Exit.FAILED))


@rollout.command("explain")
@click.argument("name", shell_complete=completers.graph_names)
@now_option
@handle_errors
@cluster_options()
def explain(name: str, now: str | None, conn: ConnectionSettings) -> None:
    """Explain, in prose, the graph's rolling update and restart.

    What triggered it (a worker hash change: every worker component is replaced), where it
    stands, old and new worker generations with their ready counts, what the operator waits
    for, and what you can do.

    \b
    Examples:
      kubectl dgd rollout explain my-graph
      kubectl dgd rollout explain my-graph -n prod
    """
    from kubectl_dgd.usecases.graph_lookup import named_graph
    from kubectl_dgd.usecases.rollout import blocking_reason, explain, rollout_state

    deps = current_deps()
    moment = deps.now(now)
    cluster = deps.cluster()
    graph = named_graph(cluster, name, cluster.namespace)
    settled = rollout_state(graph).done  # nothing to diagnose (and no LISTs) once rolled out
    blocked = None if settled else blocking_reason(cluster, name, cluster.namespace)
    deps.print(explain(graph, moment, blocked), "text")
