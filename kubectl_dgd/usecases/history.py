"""``history``, ``undo`` and ``abort``: read a graph's previous specs (core/history.py) and write
one back, guarded: the patch carries the resourceVersion read (a concurrent write is a 409, and
nothing is lost), and a graph Argo CD syncs with selfHeal is refused unless forced, since Argo CD
would put the Git spec back at once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from kubectl_dgd.core.history import History, Revision, argo_app, build_history, merge_patch
from kubectl_dgd.core.history import worker_templates_of as _worker_templates_of
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.errors import ApiError, ConflictError, NotFoundError, RefusedError, UsageError
from kubectl_dgd.usecases import operator_version
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import GraphCluster

GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
ARGO_NAMESPACE = "argocd"  # where Argo CD keeps Applications unless the tracking id names one


class GraphWriter(GraphCluster, Protocol):
    def patch_graph(self, name: str, namespace: str, patch: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class Loaded:
    """The live graph, its history and the operator release its hashes were computed for."""

    live: dict[str, Any]
    history: History
    release: str
    warnings: list[str] = field(default_factory=list)


def _dcd_version(cluster: GraphCluster) -> str:
    served = cluster.served_versions("nvidia.com", "dynamocomponentdeployments")
    return f"nvidia.com/{served[0]}" if served else "nvidia.com/v1alpha1"


def load(cluster: GraphCluster, name: str) -> Loaded:
    """The live graph and its history; the DCDs that could not be read are a warning."""
    from kubectl_dgd.core.render.context import graph_context
    from kubectl_dgd.core.render.worker_hash import worker_hash

    live = named_graph(cluster, name, cluster.namespace)
    release, _ = operator_version.detect(cluster, [live])
    profile = Profile(operator_version=release)
    warnings: list[str] = []
    try:
        dcds = cluster.list_objects(
            _dcd_version(cluster),
            "dynamocomponentdeployments",
            cluster.namespace,
            selector=f"{GRAPH_LABEL}={name}",
        )
    except (ApiError, NotFoundError) as err:
        dcds = []
        warnings.append(f"DynamoComponentDeployments not read ({err}): no old generation shown")
    history = build_history(live, dcds, lambda obj: worker_hash(graph_context(obj, profile)))
    return Loaded(live, history, release, warnings)


def argo_guard(cluster: GraphCluster, live: dict[str, Any], force: bool) -> list[str]:
    """Refuse (RefusedError) a write Argo CD would revert; the warnings of one it allows."""
    tracked = argo_app(live)
    if tracked is None:
        return []
    app, namespace = tracked
    namespace = namespace or ARGO_NAMESPACE
    where = f"Argo CD Application {namespace}/{app}"
    try:
        found = cluster.list_objects(
            "argoproj.io/v1alpha1", "applications", namespace, field_selector=f"metadata.name={app}"
        )
    except (ApiError, NotFoundError) as err:
        found = None
        reason = f"the graph is tracked by {where}, which could not be read ({err}), so selfHeal may be on"
    if found is not None:
        automated = (
            ((found[0].get("spec") or {}).get("syncPolicy") or {}).get("automated")
            if found
            else None
        )
        if not found:
            reason = f"the graph is tracked by {where}, which was not found, so selfHeal may be on"
        elif isinstance(automated, dict) and automated.get("selfHeal"):
            reason = f"{where} syncs it with selfHeal: Argo CD would revert this at once"
        else:
            return [
                f"{where} tracks the graph (no selfHeal): it will show OutOfSync until Git agrees"
            ]
    if not force:
        raise RefusedError(f"refused: {reason}; change Git instead (undo -f FILE), or pass --force")
    return [f"--force: {reason}"]


def write_spec(cluster: GraphWriter, loaded: Loaded, spec: dict[str, Any]) -> dict[str, Any]:
    """Patch the graph's spec to ``spec``, failing with 409 if it changed since it was read."""
    meta = loaded.live.get("metadata") or {}
    patch = {
        "metadata": {"resourceVersion": meta.get("resourceVersion")},
        "spec": merge_patch(loaded.live.get("spec") or {}, spec),
    }
    return cluster.patch_graph(str(meta.get("name")), cluster.namespace, patch)


STATUS_RETRIES = 5


def write_guarded(
    cluster: GraphWriter, loaded: Loaded, spec: dict[str, Any]
) -> dict[str, Any] | None:
    """``write_spec``; on a 409 the graph is read again, and when only its status or metadata
    moved (the operator writes status all through a rollout) the write is retried with the
    new resourceVersion. None when the spec or generation changed: nothing written."""
    meta = loaded.live.get("metadata") or {}
    for _ in range(STATUS_RETRIES):
        try:
            return write_spec(cluster, loaded, spec)
        except ConflictError:
            now = cluster.get_graph(str(meta.get("name")), cluster.namespace)
            same = now.get("spec") == loaded.live.get("spec") and (now.get("metadata") or {}).get(
                "generation"
            ) == meta.get("generation")
            if not same:
                return None
            loaded.live = now
    return None


def chosen(history: History, number: int | None) -> Revision:
    """The revision to undo to: ``number``, else the newest before the live one."""
    if number is None:
        revision = history.previous()
        if revision is None:
            raise RefusedError(
                f"no previous revision of {history.name!r} is kept in the cluster "
                "(no last-applied-configuration, no old worker generation): see `history`"
            )
    else:
        found = history.get(number)
        if found is None:
            numbers = ", ".join(str(r.number) for r in history.revisions)
            raise UsageError(f"no revision {number} of {history.name!r}; revisions: {numbers}")
        revision = found
    if revision.live:
        raise RefusedError(f"revision {revision.number} is the live spec: nothing to undo")
    if not revision.exact:
        raise RefusedError(
            f"revision {revision.number} ({revision.source}) is not exact: not written"
        )
    return revision


def abort_target(history: History) -> Revision:
    """The revision whose worker hash is the one the operator still records: the old generation."""
    if not history.rolling:
        raise RefusedError(f"no managed rolling update of {history.name!r} runs: nothing to abort")
    for revision in reversed(history.revisions):
        if not revision.live and revision.exact and revision.worker_hash == history.recorded_hash:
            return revision
    raise RefusedError(
        f"the old worker templates (hash {history.recorded_hash}) cannot be rebuilt exactly "
        "from what the cluster keeps: not aborted (see `history`)"
    )


worker_templates_of = _worker_templates_of
