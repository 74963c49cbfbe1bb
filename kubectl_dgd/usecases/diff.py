"""``diff -f FILE``: the field-level difference with the live graph and its predicted impact.

Components (and multinode roles) are matched by name, as the CRD keys them, so a reorder is no
change. By default only what an apply of the file sets is compared, after the CRD and webhook
defaults are applied to both sides; ``everything`` (``--all``) compares the objects literally.

deepdiff is imported here only (about 200 ms), inside the function that needs it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from kubectl_dgd.adapters.manifest_tree import expand_paths
from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.gpu_peak import PeakNeed, peak_needs
from kubectl_dgd.core.graph import WORKER_HASH_ANNOTATION, graph_annotations, mapping
from kubectl_dgd.core.impact import predict_impact
from kubectl_dgd.core.named_lists import file_path, key_by_name
from kubectl_dgd.core.paths import child, index
from kubectl_dgd.core.profile import Profile, decide_provider
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.defaults import apply_defaults
from kubectl_dgd.core.views import DiffList, FieldChange, GraphDiff
from kubectl_dgd.errors import InputError, NoGraphError, NotFoundError
from kubectl_dgd.model.kinds import CRD_MISSING, is_dgd
from kubectl_dgd.usecases.ports import GraphCluster
from kubectl_dgd.usecases.validate import as_beta, inputs_named, refuse_unserved, unpack

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
# Annotations the operator's controllers and kubectl keep up to date themselves: a file exported
# with ``kubectl get -o yaml`` carries a value that goes stale and that no apply means to set.
# (The webhook-stamped workload-provider and origin-version annotations are compared when the
# file sets them: a different provider is refused by admission, a different origin version is
# stored as sent and moves the worker hash.)
WRITTEN_FOR_THE_USER = (
    WORKER_HASH_ANNOTATION,
    "nvidia.com/current-worker-hash",
    "kubectl.kubernetes.io/last-applied-configuration",
)


def comparable(obj: dict[str, Any], like: dict[str, Any] | None = None) -> dict[str, Any]:
    """The parts of a graph an apply sets: apiVersion, kind, spec, and the labels/annotations
    the file names (``like``: only keys the file has, since apply keeps other writers' keys),
    less those the operator and kubectl keep up to date."""
    meta = obj.get("metadata") or {}
    out: dict[str, Any] = {
        "apiVersion": obj.get("apiVersion"),
        "kind": obj.get("kind"),
        "metadata": {},
        "spec": copy.deepcopy(obj.get("spec") or {}),
    }
    like_meta = (like or {}).get("metadata") or {}
    for key in ("labels", "annotations"):
        values = {
            k: v for k, v in dict(meta.get(key) or {}).items() if k not in WRITTEN_FOR_THE_USER
        }
        if like is not None:
            wanted = like_meta.get(key) or {}
            values = {k: v for k, v in values.items() if k in wanted}
        if values:
            out["metadata"][key] = values
    return out


HIDDEN = "(env value hidden)"
_ENV_VALUE = re.compile(r"(^|\.)envs?\[\d+\]\.value$")  # v1alpha1 says envs
# Annotations holding a whole serialized object (an earlier file, the alpha-only fields), env
# values included: shown as changed, never printed.
SERIALIZED_HIDDEN = "(serialized object hidden: it can hold env values)"
_SERIALIZED = frozenset(
    child("metadata.annotations", key)
    for key in ("kubectl.kubernetes.io/last-applied-configuration", "nvidia.com/dgd-spec")
)


def hide_env_values(path: str, value: Any) -> Any:
    """Env values can carry credentials (tokens, keys): like the operator's own messages, the
    diff never prints them; it shows that they changed, and the variable names."""
    if _ENV_VALUE.search(path):
        return HIDDEN
    if path in _SERIALIZED:
        return SERIALIZED_HIDDEN
    if isinstance(value, dict):
        return {k: hide_env_values(child(path, str(k)), v) for k, v in value.items()}
    if isinstance(value, list):
        return [hide_env_values(index(path, i), v) for i, v in enumerate(value)]
    return value


def field_changes(live: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    """What differs, by path; components and roles are matched by name (named_lists)."""
    from deepdiff import DeepDiff

    keyed_live, keyed_new, positions = key_by_name(live, new)
    # threshold 0: always descend into a mapping, whatever share of its keys changed (deepdiff 8
    # otherwise reports a mostly-changed mapping as one replaced value). Values are tagged by
    # type: Python has False == 0 and True == 1, and deepdiff's list comparison took [false]
    # for [0].
    diff = DeepDiff(
        _tag(keyed_live), _tag(keyed_new), view="tree", verbose_level=2, threshold_to_diff_deeper=0
    )
    changes: list[FieldChange] = []
    for kind, levels in diff.items():
        for level in levels:
            path = file_path(level.path(output_format="list"), positions)
            old = hide_env_values(path, _untag(level.t1))
            new_value = hide_env_values(path, _untag(level.t2))
            if "added" in kind:
                changes.append(FieldChange("+", path, None, new_value))
            elif "removed" in kind:
                changes.append(FieldChange("-", path, old, None))
            else:
                changes.append(FieldChange("~", path, old, new_value))
    # by path; at one path a removal before an addition, as a unified diff (a component only
    # the live graph has keeps its live position, which a new one may hold in the file)
    return sorted(changes, key=lambda c: (c.path, "-~+".index(c.change)))


def _tag(value: Any) -> Any:
    """``value`` with each string and boolean tagged by its type ("s:" / "b:"), so that no two
    values of different YAML types compare equal."""
    if isinstance(value, bool):
        return f"b:{value}"
    if isinstance(value, str):
        return f"s:{value}"
    if isinstance(value, dict):
        return {key: _tag(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_tag(item) for item in value]
    return value


def _untag(value: Any) -> Any:
    if isinstance(value, str):
        return value == "b:True" if value.startswith("b:") else value[2:]
    if isinstance(value, dict):
        return {key: _untag(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_untag(item) for item in value]
    return value


def created_fields(obj: dict[str, Any]) -> list[FieldChange]:
    """A graph that does not exist yet: each part the file sets is added, by its own path."""
    meta = obj.get("metadata") or {}
    paths = [key for key in obj if key not in ("metadata", "spec") and obj[key]]
    paths += [child("metadata", key) for key in sorted(meta)]
    paths += ["spec"] if obj.get("spec") else []
    values = {**obj, **{child("metadata", key): value for key, value in meta.items()}}
    return [FieldChange("+", p, None, hide_env_values(p, values[p])) for p in paths]


def as_applied(obj: dict[str, Any], live: dict[str, Any], namespace: str) -> dict[str, Any]:
    """The graph an apply of ``obj`` over ``live`` leaves: what the file sets, plus the labels,
    annotations and ``spec.restart`` other writers set that the file does not name (apply keeps
    them; ``kubectl dgd restart`` writes the restart)."""
    new = copy.deepcopy(obj)
    spec = new.setdefault("spec", {})
    live_restart = (live.get("spec") or {}).get("restart")
    if isinstance(spec, dict) and "restart" not in spec and live_restart is not None:
        spec["restart"] = copy.deepcopy(live_restart)
    meta = new.setdefault("metadata", {})
    meta["namespace"] = namespace
    live_meta = live.get("metadata") or {}
    for key in ("labels", "annotations"):
        kept = live_meta.get(key)
        if isinstance(kept, dict) and kept:
            meta[key] = {**kept, **(meta.get(key) or {})}
    return new


def diff_graph(
    cluster: GraphCluster,
    obj: dict[str, Any],
    namespace: str,
    schemas: CrdSchemas,
    profile: Profile,
    everything: bool = False,
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
        if not cluster.crd_installed():
            raise NotFoundError(CRD_MISSING) from None
        live = None
    result = GraphDiff(name, namespace, live is not None)
    if live is None:
        result.changes = created_fields(obj if everything else comparable(obj))
        result.impact = predict_impact(None, obj, schemas, profile)
        if needs is not None:
            needs += _peak_needs(None, obj, result, profile)
        return result
    new = as_applied(obj, live, namespace)
    # Both sides defaulted, so a field the file omits equals the default the server stored;
    # the impact sees the same two objects, so the table and the change list agree.
    defaulted_new = apply_defaults(new, schemas, profile, old=live)
    defaulted_live = apply_defaults(live, schemas, profile, old=live)
    if everything:
        literal = copy.deepcopy(obj)
        literal.setdefault("metadata", {})["namespace"] = namespace
        result.changes = field_changes(live, literal)
    else:
        result.changes = field_changes(
            comparable(defaulted_live, like=obj), comparable(defaulted_new, like=obj)
        )
    result.impact = predict_impact(defaulted_live, defaulted_new, schemas, profile)
    if needs is not None:
        needs += _peak_needs(live, new, result, profile)
    return result


def graphs_in_paths(paths: list[str], recursive: bool = False) -> list[dict[str, Any]]:
    """Every DGD of every document below ``paths`` (``-`` is standard input), v1alpha1 ones
    converted as the operator stores them. A directory's files without a DGD are skipped (a
    kustomization, a ConfigMap); a named file without one, or no DGD at all, is an error."""
    graphs: list[dict[str, Any]] = []
    files = others = 0
    for path in expand_paths(paths, recursive=recursive):
        found = []
        files += 1
        other = 0
        for doc in load_file(path):
            for obj, _, line in unpack(doc):
                refuse_unserved(obj, path, line)
                if is_dgd(obj):
                    _refuse_unnamed(obj, path, line)
                    found.append(as_beta(obj))
                else:
                    other += 1
        if not found and path in paths:
            raise NoGraphError(inputs_named([path]), 1, other)
        graphs += found
        others += other
    if not graphs:
        raise NoGraphError(inputs_named(paths), files, others)
    return graphs


def _refuse_unnamed(obj: dict[str, Any], path: str, line: int | None) -> None:
    """A graph is diffed against the live one of its name: without a name there is none (as
    kubectl, which cannot decode such an object, diffs nothing)."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        raise InputError("metadata must be a mapping with the graph's name; not diffed", path, line)
    if not isinstance(meta.get("name"), str) or not meta["name"]:
        raise InputError("metadata.name must be a non-empty string; not diffed", path, line)


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
    everything: bool = False,
    needs: list[PeakNeed] | None = None,
) -> DiffList:
    """Each graph against its live twin (in the cluster's namespace unless it names its own);
    ``needs`` gets what the changes need in GPUs at their peak."""
    return DiffList(
        [
            diff_graph(cluster, g, cluster.namespace, schemas, profile, everything, needs)
            for g in graphs
        ]
    )
