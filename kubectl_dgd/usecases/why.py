"""``why NAME``: read what the diagnosis needs in a bounded number of requests, then diagnose.

Requests, whatever the number of pods: one GET of the graph, the tree's LISTs (one per kind,
usecases/tree.py), one LIST each of the namespace's Events and PersistentVolumeClaims, and
metadata-only LISTs of its Secrets, ConfigMaps and ServiceAccounts (names only: a Secret's data
is never asked for). Only when a pod waits for the scheduler: one LIST of the nodes and one of
the pods of every namespace that have not terminated (who holds the GPUs). Only when the graph
is not Ready or not observed: one LIST of Deployments in every namespace (the operator's). One
previous log per crash-looping component and container, at most ``core.why.MAX_LOGS``.

A LIST the account may not make (403) or a kind not served (404) leaves that part unjudged; the
refused LISTs are named in one warning (a namespace-scoped account is refused several).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from kubectl_dgd.core.node_gpus import ACTIVE_PODS_SELECTOR
from kubectl_dgd.core.why import (
    WhyInput,
    WhyReport,
    crash_looping,
    diagnose,
    graph_pods,
    is_operator_deployment,
    needs_operator,
    pending_on_scheduler,
)
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import GraphCluster
from kubectl_dgd.usecases.tree import list_children

DEFAULT_TAIL = 10
# kind -> plural of the objects a pod template names and whose existence is checked
NAMED_KINDS = (
    ("Secret", "secrets"),
    ("ConfigMap", "configmaps"),
    ("ServiceAccount", "serviceaccounts"),
)

T = TypeVar("T")


def _tolerant(read: Callable[[], T], refused: list[str], what: str) -> T | None:
    """What ``read`` returns, or None when it is forbidden (``what`` joins ``refused``) or not
    served."""
    try:
        return read()
    except NotFoundError:
        return None
    except ApiError as err:
        if err.status != 403:
            raise
        refused.append(what)
        return None


def refused_note(refused: list[str], namespace: str) -> list[str]:
    """One note for every LIST refused (a namespace-scoped account is refused several)."""
    if not refused:
        return []
    local = [what for what in refused if what != "nodes" and not what.endswith(" (all)")]
    wide = [what.removesuffix(" (all)") for what in refused if what not in local]
    parts = [f'{", ".join(local)} in namespace "{namespace}"'] if local else []
    parts += [f"{', '.join(wide)} at the cluster scope"] if wide else []
    return [
        f"forbidden (403): this account may not list {' nor '.join(parts)}; "
        "what needs them was not judged"
    ]


def _previous_log(
    cluster: GraphCluster,
    namespace: str,
    pod: str,
    container: str,
    tail: int,
    unread: list[str],
) -> list[str] | None:
    """The last lines of the container's previous instance; None, and a line in ``unread``
    when they could not be read (not when the kubelet keeps no previous instance)."""
    try:
        return list(cluster.pod_log(namespace, pod, container, previous=True, tail=tail))
    except ApiError as err:
        if err.status == 403:
            unread.append(f"forbidden (403): this account may not read pods/log in {namespace}")
        elif not (err.status in (400, 404) and "not found" in str(err)):
            unread.append(f"the previous log of {pod}, container {container}, not read: {err}")
        return None


def live_why(
    cluster: GraphCluster, name: str, namespace: str, tail: int = DEFAULT_TAIL, width: int = 80
) -> WhyReport:
    graph = named_graph(cluster, name, namespace)
    meta = graph.get("metadata") or {}
    ns = str(meta.get("namespace") or namespace)
    children = list_children(cluster, str(meta.get("name") or name), ns)
    refused = list(children.refused)
    inputs = WhyInput(graph=graph, objects=children.objects, unread=frozenset(children.unread))
    inputs.events = _tolerant(lambda: cluster.list_objects("v1", "events", ns), refused, "events")
    inputs.pvcs = _tolerant(
        lambda: cluster.list_objects("v1", "persistentvolumeclaims", ns),
        refused,
        "persistentvolumeclaims",
    )
    names: dict[str, set[str] | None] = {}
    for kind, plural in NAMED_KINDS:
        found = _tolerant(partial(cluster.list_names, "v1", plural, ns), refused, plural)
        names[kind] = None if found is None else set(found)
    inputs.names = names
    pods = graph_pods(inputs)
    if pending_on_scheduler(pods):
        inputs.nodes = _tolerant(
            lambda: cluster.list_objects("v1", "nodes", None), refused, "nodes"
        )
        if inputs.nodes is not None:
            inputs.node_pods = _tolerant(
                lambda: cluster.list_objects(
                    "v1", "pods", None, field_selector=ACTIVE_PODS_SELECTOR
                ),
                refused,
                "pods (all)",
            )
    if needs_operator(graph, pods):
        deployments: list[dict[str, Any]] | None = _tolerant(
            lambda: cluster.list_objects("apps/v1", "deployments", None),
            refused,
            "deployments (all)",
        )
        if deployments is not None:
            inputs.operators = [d for d in deployments if is_operator_deployment(d)]
    logs: dict[tuple[str, str], list[str]] = {}
    unread: list[str] = []
    for pod, container in crash_looping(pods):
        lines = _previous_log(cluster, ns, pod, container, tail, unread)
        if lines is not None:
            logs[(pod, container)] = lines
    inputs.previous_logs = logs
    report = diagnose(inputs)
    report.width = width
    report.warnings = refused_note(refused, ns) + sorted(set(unread))
    return report
