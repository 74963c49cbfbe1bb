"""``kubectl dgd logs NAME [COMPONENT]``: the containers' logs of a graph's pods, as stern shows them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options
from kubectl_dgd.errors import UsageError

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
    from kubectl_dgd.usecases.logs import PodFilter

_UNITS = {"s": 1, "m": 60, "h": 3600}
MAX_LOG_REQUESTS = 5  # kubectl logs' default --max-log-requests


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
@click.option("--tail", type=int, help="Only the last N lines of each container.")
@click.option("--since", help="Only lines newer than this (30s, 5m, 2h).")
@click.option("-c", "--container", help="This container instead of the main one.")
@click.option(
    "--all-containers", is_flag=True, help="Every container of each pod, init containers first."
)
@click.option("--timestamps", is_flag=True, help="Each line after the kubelet's RFC 3339 time.")
@click.option("--pod", "pod_regex", metavar="REGEX", help="Only pods whose name matches REGEX.")
@click.option(
    "--type",
    "component_type",
    metavar="TYPE",
    help="Only components of this type (frontend, prefill, decode, worker, planner, ...).",
)
@click.option(
    "--max-log-requests",
    type=click.IntRange(min=1),
    default=MAX_LOG_REQUESTS,
    show_default=True,
    help="With -f: at most this many streams at once (kubectl's limit).",
)
@click.option(
    "-o",
    "--output",
    type=click.Choice(["text", "json"]),
    default="text",
    help="json: one object per line (pod, container, component, timestamp, message).",
)
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
    all_containers: bool,
    timestamps: bool,
    pod_regex: str | None,
    component_type: str | None,
    max_log_requests: int,
    output: str,
    conn: ConnectionSettings | None = None,
) -> None:
    """Print the logs of a graph's pods (the main container; all components, or COMPONENT),
    each line prefixed with its pod.

    With --all-containers each line names its container too; on a terminal each pod has its
    colour.

    A graph, component or --type that does not exist exits 3 naming those that do.

    \b
    Examples:
      kubectl dgd logs my-graph decode --tail 20
      kubectl dgd logs my-graph -f --type prefill --timestamps
      kubectl dgd logs my-graph --pod '-0$' --all-containers
      kubectl dgd logs my-graph decode --previous -o json
    """
    del conn
    if follow and previous:
        raise UsageError("--follow and --previous cannot be used together")
    if all_containers and container:
        raise UsageError("--all-containers=true should not be specified with --container")
    deps = current_deps()
    from kubectl_dgd.output.log_lines import LinePrinter
    from kubectl_dgd.usecases.logs import (
        LogRequest,
        PodFilter,
        check_graph,
        follow_logs,
        graph_pods,
        read_logs,
    )

    which = PodFilter(component, component_type, _pattern(pod_regex))
    printer = LinePrinter(output, deps.style(), all_containers)
    request = LogRequest(
        container,
        previous,
        tail,
        since_seconds(since),
        timestamps or printer.needs_timestamps,
        all_containers,
    )
    cluster = deps.cluster()
    namespace = cluster.namespace
    which = check_graph(cluster, name, namespace, which)
    if follow:
        lines = follow_logs(
            cluster,
            name,
            namespace,
            which,
            request,
            cluster.sleep,
            max_requests=max_log_requests,
            warn=deps.warn,
        )
    else:
        pods = graph_pods(cluster, name, namespace, which)
        if not pods:
            deps.warn(f"no pods{_which(which)} of graph {name} in namespace {namespace}")
        lines = read_logs(cluster, pods, namespace, request)
    out = deps.stdout
    for line in lines:
        out.write(printer(line))
        out.flush()


def _pattern(text: str | None) -> re.Pattern[str] | None:
    if text is None:
        return None
    try:
        return re.compile(text)
    except re.error as err:
        raise UsageError(f"--pod: not a regular expression: {text!r} ({err})") from None


def _which(which: PodFilter) -> str:
    parts = []
    if which.component:
        parts.append(f"component {which.component}")
    if which.component_type:
        parts.append(f"type {which.component_type}")
    if which.pod is not None:
        parts.append(f"name matching {which.pod.pattern!r}")
    return (" of " + ", ".join(parts)) if parts else ""
