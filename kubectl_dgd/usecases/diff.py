"""``diff -f FILE``: the field-level difference with the live graph and its predicted impact.

deepdiff is imported here only (about 200 ms), inside the function that needs it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from kubectl_dgd.core.gpu_peak import PeakNeed, peak_needs
from kubectl_dgd.core.graph import graph_annotations, mapping
from kubectl_dgd.core.impact import predict_impact
from kubectl_dgd.core.paths import child, index
from kubectl_dgd.core.profile import Profile, decide_provider
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.defaults import apply_defaults
from kubectl_dgd.core.views import DiffList, FieldChange, GraphDiff
from kubectl_dgd.errors import InputError, NotFoundError
from kubectl_dgd.usecases.ports import GraphCluster

# Written by the API server or the operator, never by the user's file.
SERVER_METADATA = (
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
    "finalizers",
    "ownerReferences",
)


def comparable(obj: dict[str, Any], like: dict[str, Any] | None = None) -> dict[str, Any]:
    """The parts of a graph an apply sets: apiVersion, kind, spec, and the labels/annotations
    the file names (``like``: only keys the file has, since apply keeps other writers' keys)."""
    meta = obj.get("metadata") or {}
    out: dict[str, Any] = {
        "apiVersion": obj.get("apiVersion"),
        "kind": obj.get("kind"),
        "metadata": {},
        "spec": copy.deepcopy(obj.get("spec") or {}),
    }
    like_meta = (like or {}).get("metadata") or {}
    for key in ("labels", "annotations"):
        values = dict(meta.get(key) or {})
        if like is not None:
            wanted = like_meta.get(key) or {}
            values = {k: v for k, v in values.items() if k in wanted}
        if values:
            out["metadata"][key] = values
    return out


def _path(keys: list[Any]) -> str:
    path = ""
    for key in keys:
        path = index(path, key) if isinstance(key, int) else child(path, str(key))
    return path


HIDDEN = "(env value hidden)"
_ENV_VALUE = re.compile(r"(^|\.)envs?\[\d+\]\.value$")  # v1alpha1 says envs


def hide_env_values(path: str, value: Any) -> Any:
    """Env values can carry credentials (tokens, keys): like the operator's own messages, the
    diff never prints them; it shows that they changed, and the variable names."""
    if _ENV_VALUE.search(path):
        return HIDDEN
    if isinstance(value, dict):
        return {k: hide_env_values(child(path, str(k)), v) for k, v in value.items()}
    if isinstance(value, list):
        return [hide_env_values(index(path, i), v) for i, v in enumerate(value)]
    return value


def field_changes(live: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    from deepdiff import DeepDiff

    diff = DeepDiff(live, new, view="tree", verbose_level=2)
    changes: list[FieldChange] = []
    for kind, levels in diff.items():
        for level in levels:
            path = _path(level.path(output_format="list"))
            old, new_value = hide_env_values(path, level.t1), hide_env_values(path, level.t2)
            if "added" in kind:
                changes.append(FieldChange("+", path, None, new_value))
            elif "removed" in kind:
                changes.append(FieldChange("-", path, old, None))
            else:
                changes.append(FieldChange("~", path, old, new_value))
    return sorted(changes, key=lambda c: c.path)


def created_fields(obj: dict[str, Any]) -> list[FieldChange]:
    """A graph that does not exist yet: each part the file sets is added, by its own path."""
    changes = [FieldChange("+", key, None, obj[key]) for key in ("apiVersion", "kind") if obj[key]]
    meta = obj.get("metadata") or {}
    changes += [FieldChange("+", child("metadata", key), None, meta[key]) for key in sorted(meta)]
    if obj.get("spec"):
        changes.append(FieldChange("+", "spec", None, obj["spec"]))
    return changes


def diff_graph(
    cluster: GraphCluster,
    obj: dict[str, Any],
    namespace: str,
    schemas: CrdSchemas,
    profile: Profile,
    needs: list[PeakNeed] | None = None,
) -> GraphDiff:
    """The diff of one graph; ``needs`` gets what its change needs in GPUs at the peak."""
    meta = obj.get("metadata") or {}
    name = str(meta.get("name") or "")
    if not name:
        raise InputError("the graph in the file has no metadata.name")
    namespace = str(meta.get("namespace") or namespace)
    try:
        live: dict[str, Any] | None = cluster.get_graph(name, namespace)
    except NotFoundError:
        live = None
    result = GraphDiff(name, namespace, live is not None)
    if live is None:
        result.changes = created_fields(comparable(obj))
    else:
        new = copy.deepcopy(obj)
        spec = new.setdefault("spec", {})
        live_restart = (live.get("spec") or {}).get("restart")
        if isinstance(spec, dict) and "restart" not in spec and live_restart is not None:
            spec["restart"] = copy.deepcopy(live_restart)  # apply keeps a field the file omits
        new.setdefault("metadata", {})["namespace"] = namespace
        defaulted_new = apply_defaults(new, schemas, profile, old=live)
        defaulted_live = apply_defaults(live, schemas, profile, old=live)
        result.changes = field_changes(
            comparable(defaulted_live, like=new), comparable(defaulted_new, like=new)
        )
        obj = new
    result.impact = predict_impact(live, obj, schemas, profile)
    if needs is not None:
        needs += _peak_needs(live, obj, result, profile)
    return result


def _peak_needs(
    live: dict[str, Any] | None, new: dict[str, Any], result: GraphDiff, profile: Profile
) -> list[PeakNeed]:
    restart = mapping(mapping(new.get("spec")).get("restart"))
    parallel = mapping(restart.get("strategy")).get("type") == "Parallel"
    annotations = graph_annotations(live if live is not None else new)
    grove = decide_provider(annotations, profile, creating=live is None) == "grove"
    return peak_needs(live, new, result.impact.components, parallel, grove)


def diff_graphs(
    cluster: GraphCluster,
    graphs: list[dict[str, Any]],
    schemas: CrdSchemas,
    profile: Profile,
    needs: list[PeakNeed] | None = None,
) -> DiffList:
    """Each graph of a file against its live twin (in the cluster's namespace unless it names
    its own); ``needs`` gets what the changes need in GPUs at their peak."""
    return DiffList(
        [diff_graph(cluster, g, cluster.namespace, schemas, profile, needs) for g in graphs]
    )
