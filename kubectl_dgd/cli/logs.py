"""``kubectl dgd logs NAME [COMPONENT]``: the main container's log of a graph's pods."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.style import Color

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings

_COLOURS: tuple[Color, ...] = ("cyan", "green", "yellow", "bold")
_UNITS = {"s": 1, "m": 60, "h": 3600}


def since_seconds(text: str | None) -> int | None:
    """kubectl's --since: 30s, 5m, 2h (a number alone is seconds)."""
    if text is None:
        return None
    unit = text[-1:] if text[-1:] in _UNITS else "s"
    number = text[:-1] if text[-1:] in _UNITS else text
    if not number.isdigit() or int(number) <= 0:
        raise UsageError(f"--since: not a duration: {text!r} (e.g. 30s, 5m, 2h)")
    return int(number) * _UNITS[unit]


@click.command()
@click.argument("name", shell_complete=completers.graph_names)
@click.argument("component", required=False, shell_complete=completers.components)
@click.option("-f", "--follow", is_flag=True, help="Follow every pod, and pods that appear.")
@click.option("-p", "--previous", is_flag=True, help="The previous (terminated) container's log.")
@click.option("--tail", type=int, help="Only the last N lines of each pod.")
@click.option("--since", help="Only lines newer than this (30s, 5m, 2h).")
@click.option("-c", "--container", help="This container instead of the main one.")
@handle_errors
@cluster_options()
def logs(
    name: str,
    component: str | None,
    follow: bool,
    previous: bool,
    tail: int | None,
    since: str | None,
    container: str | None,
    conn: ConnectionSettings | None = None,
) -> None:
    """Print the logs of a graph's pods (the main container; all components, or COMPONENT),
    each line prefixed with its pod.

    \b
    Examples:
      kubectl dgd logs my-graph decode --tail 20
      kubectl dgd logs my-graph -f
      kubectl dgd logs my-graph decode --previous
    """
    del conn
    if follow and previous:
        raise UsageError("--follow and --previous cannot be used together")
    deps = current_deps()
    from kubectl_dgd.usecases.logs import LogRequest, follow_logs, graph_pods, read_logs

    request = LogRequest(container, previous, tail, since_seconds(since))
    cluster = deps.cluster()
    namespace = cluster.namespace
    style = deps.style()
    colours: dict[str, Color] = {}
    if follow:
        lines = follow_logs(cluster, name, namespace, component, request, cluster.sleep)
    else:
        pods = graph_pods(cluster, name, namespace, component)
        if not pods:
            which = f" of component {component}" if component else ""
            deps.warn(f"no pods{which} of graph {name} in namespace {namespace}")
        lines = read_logs(cluster, pods, namespace, request)
    out = deps.stdout
    for pod, line in lines:
        colour = colours.setdefault(pod, _COLOURS[len(colours) % len(_COLOURS)])
        out.write(f"{style(pod, colour)} {line}\n")
        out.flush()
