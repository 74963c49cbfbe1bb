"""The values ``<TAB>`` offers for a parameter: click ``shell_complete=`` callbacks.

Each callback reads what is already on the line from ``ctx.params`` (click parses the words
before the cursor resiliently), so ``-n other``, ``--context``, ``--kubeconfig`` and kubectl's
other connection flags choose the cluster and namespace asked, as they would for the command.
Cluster values are asked with a short timeout and every failure (no kubeconfig, unreachable,
forbidden, a missing CRD) gives no candidates: completion must never print an error into the
user's command line. The adapters, and with them ``kubernetes``, are imported only when a
cluster value is asked for.

Item types beyond click's ``plain``/``file``/``dir`` (``cli/complete.py`` turns them into Cobra
directives): ``ext`` (a file extension to filter file completion by) and ``nospace`` (a value
the user goes on typing, such as a comma list).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

if TYPE_CHECKING:
    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings

# Seconds a completion waits for the API server: a TAB that hangs is worse than none.
TIMEOUT = 5.0
MANIFEST_EXTENSIONS = ("yaml", "yml", "json")

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def quietly(func: Completer) -> Completer:
    """No candidates instead of an exception: the shell shows nothing rather than a traceback."""

    @functools.wraps(func)
    def wrapper(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        try:
            return func(ctx, param, incomplete)
        except Exception:
            return []

    return wrapper


def _matching(values: Iterable[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(v) for v in sorted(set(values)) if v.startswith(incomplete)]


# ---- files ---------------------------------------------------------------------------------


def manifest_paths(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``-f <TAB>``: directories and .yaml/.yml/.json files (the shell lists them)."""
    del ctx, param, incomplete
    return [CompletionItem(ext, type="ext") for ext in MANIFEST_EXTENSIONS]


def any_path(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``--kubeconfig <TAB>``, certificate and key files: every file (the shell lists them)."""
    del ctx, param
    return [CompletionItem(incomplete, type="file")]


# ---- the kubeconfig (no API call) ------------------------------------------------------------


def _settings(ctx: click.Context) -> ConnectionSettings:
    from kubectl_dgd.cli.flags import connection_settings

    return connection_settings(ctx.params)


def _environ(ctx: click.Context) -> Any:
    from kubectl_dgd.cli.deps import Deps

    obj = ctx.find_root().obj
    return obj.environ if isinstance(obj, Deps) else os.environ


def _kubeconfig(ctx: click.Context) -> dict[str, Any]:
    """The merged kubeconfig the command would read (--kubeconfig, else $KUBECONFIG, else
    ~/.kube/config)."""
    from pathlib import Path

    from kubectl_dgd.adapters.kubeconfig import merged_config

    environ = _environ(ctx)
    return merged_config(_settings(ctx), environ, environ.get("HOME") or str(Path.home()))


def _entry_names(ctx: click.Context, section: str) -> list[str]:
    entries = _kubeconfig(ctx).get(section) or []
    return [str(e["name"]) for e in entries if isinstance(e, dict) and e.get("name")]


@quietly
def contexts(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``--context <TAB>``: the kubeconfig's contexts."""
    return _matching(_entry_names(ctx, "contexts"), incomplete)


@quietly
def clusters(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``--cluster <TAB>``: the kubeconfig's clusters."""
    return _matching(_entry_names(ctx, "clusters"), incomplete)


@quietly
def users(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``--user <TAB>``: the kubeconfig's users."""
    return _matching(_entry_names(ctx, "users"), incomplete)


# ---- the cluster -----------------------------------------------------------------------------


def _cluster(ctx: click.Context) -> Cluster:
    """The cluster and namespace the line's flags select, with at most TIMEOUT per request."""
    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.adapters.kubeconfig import resolve

    conn = _settings(ctx)
    timeout = min(TIMEOUT, conn.request_timeout or TIMEOUT)
    conn = dataclasses.replace(conn, request_timeout=timeout, verbose=False)
    return Cluster(resolve(conn, _environ(ctx)), timeout)


@quietly
def namespaces(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``-n <TAB>``: the cluster's namespaces."""
    return _matching(_cluster(ctx).list_namespaces(), incomplete)


@quietly
def graph_names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``NAME``: the graphs of the namespace on the line (else the context's)."""
    cluster = _cluster(ctx)
    found = cluster.list_graphs(cluster.namespace).get("items") or []
    names = [str((g.get("metadata") or {}).get("name") or "") for g in found if isinstance(g, dict)]
    return _matching([n for n in names if n], incomplete)


def _components_of_graph(obj: dict[str, Any]) -> dict[str, str]:
    """Component name -> its type (frontend, decode, ...; the candidate's description)."""
    from kubectl_dgd.core.convert import alpha_to_beta, is_alpha
    from kubectl_dgd.core.graph.raw import components_by_name

    found = components_by_name(alpha_to_beta(obj).obj if is_alpha(obj) else obj)
    return {name: str(body.get("type") or "") for name, body in found.items()}


def _components_of_file(path: str, graph: str | None) -> dict[str, str]:
    """The components of the graphs of a manifest (only ``graph``'s when --name is given)."""
    from kubectl_dgd.adapters.yamlload import load_file
    from kubectl_dgd.model.kinds import is_dgd

    found: dict[str, str] = {}
    for document in load_file(path):
        obj = document.data
        if not isinstance(obj, dict) or not is_dgd(obj):
            continue
        if graph is not None and (obj.get("metadata") or {}).get("name") != graph:
            continue
        found = {**_components_of_graph(obj), **found}
    return found


def _component_names(ctx: click.Context) -> dict[str, str]:
    """The components of the graph on the line: the live one of NAME, else the file of -f."""
    name = ctx.params.get("name")
    if isinstance(name, str) and name:
        return _components_of_graph(_cluster(ctx).get_graph(name))
    path = ctx.params.get("path") or ctx.params.get("filename")
    if isinstance(path, str) and path and path != "-":
        graph = ctx.params.get("graph_name")
        return _components_of_file(path, graph if isinstance(graph, str) else None)
    return {}


@quietly
def components(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``COMPONENT``: one component of the graph on the line."""
    found = _component_names(ctx)
    return [CompletionItem(c, help=found[c]) for c in sorted(found) if c.startswith(incomplete)]


@quietly
def component_list(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """``--order a,b,<TAB>``: the next component after the last comma, among those not listed
    yet; the typed items are kept, as the shell replaces the whole word."""
    done, _, last = incomplete.rpartition(",")
    listed = [item for item in done.split(",") if item] if done else []
    prefix = f"{done}," if done else ""
    found = _component_names(ctx)
    left = [c for c in found if c not in listed]
    return [
        CompletionItem(prefix + c, "plain" if len(left) == 1 else "nospace", help=found[c])
        for c in sorted(left)
        if c.startswith(last)
    ]
