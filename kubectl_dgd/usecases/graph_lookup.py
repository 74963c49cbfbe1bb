"""The graph a command was given by NAME, and when it is not there, what the user may have meant.

One GET when the graph exists. When it does not (and the CRD is installed), two requests more:
a metadata-only LIST of the namespace's graphs for the names within cobra's rule of the one
typed ("did you mean"), and a cluster-wide LIST narrowed to that name by a field selector
("found in namespace X"). Either may be refused: an account without the right (the
namespace-scoped user, for the cluster-wide one) gets the plain line, with no warning and no
retry. Every command that takes a graph NAME reads it through ``named_graph``.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.near_names import near_names
from kubectl_dgd.errors import DgdError, NotFoundError
from kubectl_dgd.model.kinds import CRD_NAME, KIND, V1BETA1
from kubectl_dgd.usecases.ports import GraphCluster

PLURAL = CRD_NAME.split(".", maxsplit=1)[0]
# Names listed when none is near the one typed (the rest are counted).
MAX_LISTED = 5


def named_graph(cluster: GraphCluster, name: str, namespace: str | None = None) -> dict[str, Any]:
    """The graph ``name`` in ``namespace`` (the context's when None); NotFoundError with the
    near names and the other namespaces holding it when it is not there."""
    ns = namespace or cluster.namespace
    try:
        return cluster.get_graph(name, ns)
    except NotFoundError as err:
        raise not_found(cluster, name, ns, err) from None


def not_found(
    cluster: GraphCluster, name: str, namespace: str, error: NotFoundError
) -> NotFoundError:
    """The not-found error of graph ``name``, saying what the namespace and the cluster hold."""
    if not cluster.crd_installed():  # asked already by the GET's 404: no request
        return error
    try:
        here = cluster.list_names(V1BETA1, PLURAL, namespace)
    except DgdError:  # not allowed to list them (or not now): the GET's answer stands
        return error
    message = f'{CRD_NAME} "{name}" in namespace "{namespace}" not found'
    near = near_names(name, sorted(here))
    if near:
        message += f"; did you mean {' or '.join(near)}?"
    elif here:
        shown = ", ".join(sorted(here)[:MAX_LISTED])
        more = f" and {len(here) - MAX_LISTED} more" if len(here) > MAX_LISTED else ""
        message += f"; graphs there: {shown}{more}"
    else:
        message += f"; the namespace has no graphs (the {KIND} CRD is installed; check -n)"
    elsewhere = _namespaces_holding(cluster, name, namespace)
    if elsewhere:
        where = "namespace" if len(elsewhere) == 1 else "namespaces"
        message += f"; found in {where} {', '.join(elsewhere)} (-n {elsewhere[0]})"
    return NotFoundError(message)


def _namespaces_holding(cluster: GraphCluster, name: str, namespace: str) -> list[str]:
    """The other namespaces with a graph of this name; [] when the account may not list every
    namespace (no warning: the plain answer is the right one for it)."""
    try:
        found = cluster.list_graphs(None, fields=f"metadata.name={name}").get("items") or []
    except DgdError:
        return []
    holding = {
        str(meta.get("namespace") or "")
        for meta in (g.get("metadata") for g in found if isinstance(g, dict))
        if isinstance(meta, dict) and meta.get("name") == name
    }
    return sorted(holding - {namespace, ""})
