"""A graph's previous specs, from what the cluster keeps, and the guarded way back to one.

The operator keeps no history of a DGD. What a cluster still holds:

- ``kubectl.kubernetes.io/last-applied-configuration``: the whole spec as ``kubectl apply`` last
  sent it (exact; absent for graphs written any other way);
- during a managed rolling update, the old generation's worker DCDs (worker-hash label = the
  hash still recorded in ``nvidia.com/current-worker-hash-v2``): their main containers' image,
  command, args and resources give back the old worker templates, or else their whole pod
  specs (a sidecar or the rest of the pod spec changed). Such a rebuilt spec is kept only when its
  worker hash equals the recorded one, so what it restores is what ran;
- ``metadata.managedFields``: which manager wrote which fields when, never the old values: shown
  as the writers, never a revision.

Revisions are numbered oldest first; the live spec is the highest.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.graph.names import WORKER_HASH_ANNOTATION, WORKER_HASH_LABEL, WORKER_TYPES
from kubectl_dgd.core.paths import child
from kubectl_dgd.core.render.context import RenderError, ShapeError

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
MAIN_FIELDS = ("image", "command", "args", "resources")
# Argo CD's resource tracking (annotation tracking, and the older label/annotation forms).
ARGO_TRACKING_ANNOTATION = "argocd.argoproj.io/tracking-id"
ARGO_INSTANCE = "argocd.argoproj.io/instance"

# obj -> its worker hash (None without workers); raises for a graph that cannot be rendered
Hasher = Callable[[dict[str, Any]], "str | None"]


@dataclass
class Revision:
    """One kept spec of the graph, where it came from and its worker hash."""

    number: int
    source: str
    spec: dict[str, Any]
    worker_hash: str | None
    exact: bool
    changes: list[str] = field(default_factory=list)
    live: bool = False

    def to_data(self) -> dict[str, Any]:
        return {
            "revision": self.number,
            "source": self.source,
            "workerHash": self.worker_hash,
            "exact": self.exact,
            "live": self.live,
            "changes": self.changes,
            "spec": self.spec,
        }


@dataclass
class History:
    """The revisions of one graph, oldest first, the live one last."""

    name: str
    namespace: str
    resource_version: str
    recorded_hash: str | None
    rolling: bool
    revisions: list[Revision]
    writers: list[str]
    notes: list[str]

    def previous(self) -> Revision | None:
        older = [r for r in self.revisions if not r.live]
        return older[-1] if older else None

    def get(self, number: int) -> Revision | None:
        return next((r for r in self.revisions if r.number == number), None)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "recordedWorkerHash": self.recorded_hash,
            "rollingUpdate": self.rolling,
            "revisions": [r.to_data() for r in self.revisions],
            "writers": self.writers,
            "notes": self.notes,
        }


def _meta(obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _main(template: Any) -> dict[str, Any] | None:
    spec = (template or {}).get("spec") if isinstance(template, dict) else None
    containers = spec.get("containers") if isinstance(spec, dict) else None
    for container in containers if isinstance(containers, list) else []:
        if isinstance(container, dict) and container.get("name") == "main":
            return container
    return None


def changed_paths(old: Any, new: Any, path: str = "spec") -> list[str]:
    """The paths where ``new`` differs from ``old`` (lists compared whole, components by name)."""
    if isinstance(old, dict) and isinstance(new, dict):
        found: list[str] = []
        for key in sorted(set(old) | set(new), key=str):
            found += changed_paths(old.get(key), new.get(key), child(path, str(key)))
        return found
    if path.endswith(".components") and isinstance(old, list) and isinstance(new, list):
        before = {c.get("name"): c for c in old if isinstance(c, dict)}
        found = []
        for i, c in enumerate(new):
            if isinstance(c, dict):
                found += changed_paths(before.get(c.get("name")), c, f"{path}[{i}]")
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and old != new:
        found = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found += changed_paths(a, b, f"{path}[{i}]")
        return found
    return [] if old == new else [path]


def merge_patch(old: Any, new: Any) -> Any:
    """The RFC 7386 merge patch that turns ``old`` into ``new`` (lists are replaced whole)."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return copy.deepcopy(new)
    patch: dict[str, Any] = {}
    for key in old:
        if key not in new:
            patch[key] = None
    for key, value in new.items():
        if key not in old:
            patch[key] = copy.deepcopy(value)
        elif old[key] != value:
            patch[key] = merge_patch(old[key], value)
    return patch


def _with_spec(live: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    obj = {k: v for k, v in live.items() if k not in ("spec", "status")}
    obj["spec"] = spec
    return obj


def rebuild_from_dcds(
    live_spec: dict[str, Any], old_dcds: list[dict[str, Any]], whole_template: bool = False
) -> dict[str, Any]:
    """The live spec with each worker's main container set back to its old DCD's; with
    ``whole_template``, each worker's whole pod spec (sidecars, init containers, volumes and
    the rest of it too)."""
    spec = copy.deepcopy(live_spec)
    by_name = {str((d.get("spec") or {}).get("name") or ""): d for d in old_dcds}
    for component in spec.get("components") or []:
        if not isinstance(component, dict) or component.get("type") not in WORKER_TYPES:
            continue
        dcd = by_name.get(str(component.get("name")))
        template = ((dcd or {}).get("spec") or {}).get("podTemplate")
        if whole_template:
            # the pod spec only: the DCD's template metadata carries what the operator adds
            old_spec = template.get("spec") if isinstance(template, dict) else None
            if isinstance(old_spec, dict):
                component.setdefault("podTemplate", {})["spec"] = copy.deepcopy(old_spec)
            continue
        ours, theirs = (
            _main(component.get("podTemplate")),
            _main((dcd or {}).get("spec", {}).get("podTemplate")),
        )
        if ours is None or theirs is None:
            continue
        for key in MAIN_FIELDS:
            if key in theirs and theirs[key] not in ({}, None):
                ours[key] = copy.deepcopy(theirs[key])
            elif key in ours and key != "resources":
                del ours[key]
    return spec


def argo_app(obj: dict[str, Any]) -> tuple[str, str | None] | None:
    """``(application name, its namespace or None)`` when Argo CD tracks the graph."""
    meta = _meta(obj)
    annotations = meta.get("annotations") or {}
    labels = meta.get("labels") or {}
    tracking = str(annotations.get(ARGO_TRACKING_ANNOTATION) or "")
    app = tracking.split(":", 1)[0] if tracking else ""
    app = app or str(annotations.get(ARGO_INSTANCE) or labels.get(ARGO_INSTANCE) or "")
    if not app:
        return None
    namespace, sep, name = app.partition("_")  # apps in any namespace: "<namespace>_<name>"
    return (name, namespace) if sep else (app, None)


def build_history(
    live: dict[str, Any], old_dcds: list[dict[str, Any]], worker_hash: Hasher
) -> History:
    meta = _meta(live)
    annotations = meta.get("annotations") or {}
    recorded = annotations.get(WORKER_HASH_ANNOTATION)
    live_spec = live.get("spec") or {}
    notes: list[str] = []
    candidates: list[Revision] = []

    def hashed(spec: dict[str, Any]) -> str | None:
        try:
            return worker_hash(_with_spec(live, spec))
        except (RenderError, ShapeError) as error:  # a spec we cannot render: say so
            notes.append(f"worker hash not computed: {error}")
            return None

    live_hash = hashed(live_spec)
    applied_text = annotations.get(LAST_APPLIED)
    if applied_text:
        import json

        try:
            applied = json.loads(applied_text)
        except ValueError:
            applied = None
            notes.append(f"{LAST_APPLIED} is not JSON: left out")
        spec = applied.get("spec") if isinstance(applied, dict) else None
        if isinstance(spec, dict) and spec != live_spec:
            candidates.append(Revision(0, "last-applied-configuration", spec, hashed(spec), True))
    old = [
        d
        for d in old_dcds
        if recorded and (_meta(d).get("labels") or {}).get(WORKER_HASH_LABEL) == recorded
    ]
    rolling = bool(recorded) and live_hash is not None and live_hash != recorded
    if rolling and old:
        # the main containers' fields first, then (a sidecar or the pod spec changed too) the
        # whole templates: the first that hashes to the recorded hash is what ran
        spec = rebuild_from_dcds(live_spec, old)
        got = hashed(spec)
        if got != recorded:
            whole = rebuild_from_dcds(live_spec, old, whole_template=True)
            if hashed(whole) == recorded:
                spec, got = whole, recorded
        source = f"old generation (DCDs of worker hash {recorded})"
        if got == recorded:
            same = next((c for c in candidates if c.spec == spec), None)
            if same is not None:
                same.source += f", {source}"
            else:
                candidates.append(Revision(0, source, spec, got, True))
        else:
            candidates.append(Revision(0, source + ", rebuilt inexactly", spec, got, False))
            notes.append(
                f"the old generation's templates rebuilt from its DCDs hash to {got}, not the "
                f"recorded {recorded}: shown, not restorable"
            )
    elif rolling:
        notes.append(f"a rolling update from {recorded} runs, but no DCD of that hash is left")
    revisions = []
    for number, revision in enumerate(candidates, 1):
        revision.number = number
        revision.changes = changed_paths(revision.spec, live_spec)
        revisions.append(revision)
    revisions.append(
        Revision(
            len(candidates) + 1,
            f"live (generation {meta.get('generation', '?')})",
            copy.deepcopy(live_spec),
            live_hash,
            True,
            live=True,
        )
    )
    writers = [
        f"{m.get('manager')} ({m.get('operation')}{', ' + m['subresource'] if m.get('subresource') else ''}) at {m.get('time')}"
        for m in meta.get("managedFields") or []
        if isinstance(m, dict)
    ]
    return History(
        name=str(meta.get("name") or ""),
        namespace=str(meta.get("namespace") or ""),
        resource_version=str(meta.get("resourceVersion") or ""),
        recorded_hash=str(recorded) if recorded else None,
        rolling=rolling,
        revisions=revisions,
        writers=writers,
        notes=notes,
    )


def worker_templates_of(target: dict[str, Any], live_spec: dict[str, Any]) -> dict[str, Any]:
    """``live_spec`` with only the worker components' pod templates taken from ``target``
    (abort: the previous worker templates back, other changes kept)."""
    spec = copy.deepcopy(live_spec)
    wanted = {
        c.get("name"): c
        for c in target.get("components") or []
        if isinstance(c, dict) and c.get("type") in WORKER_TYPES
    }
    for component in spec.get("components") or []:
        if isinstance(component, dict) and component.get("name") in wanted:
            component["podTemplate"] = copy.deepcopy(
                wanted[component.get("name")].get("podTemplate")
            )
    return spec


@dataclass
class Reverted:
    """What ``undo`` or ``abort`` wrote, and what the operator does with it."""

    action: str
    name: str
    namespace: str
    revision: int
    source: str
    changes: list[str]
    resource_version: str
    operator: str

    def to_data(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "name": self.name,
            "namespace": self.namespace,
            "revision": self.revision,
            "source": self.source,
            "changes": self.changes,
            "resourceVersion": self.resource_version,
            "operator": self.operator,
        }


def operator_effect(history: History, written_hash: str | None, action: str) -> str:
    """What the operator does with the spec just written (docs/operator-semantics.md)."""
    live = history.revisions[-1].worker_hash
    recorded = history.recorded_hash
    if action == "abort":
        return (
            f"the worker hash is again the recorded {recorded}: the operator ends the rolling "
            f"update, deletes the new generation's worker DCDs (hash {live}) and keeps the old "
            "ones, which kept serving"
        )
    baseline = recorded or live  # without a recorded hash, the live spec's
    if written_hash is None or written_hash == baseline:
        return (
            "the worker hash is the recorded one: no rolling update; non-worker components "
            "update their Deployments in place"
        )
    return (
        f"the worker hash becomes {written_hash} (was {baseline}): the operator starts a "
        "managed rolling update of every worker component; non-worker components update their "
        "Deployments in place"
    )
