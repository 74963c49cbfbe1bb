"""What applying a changed graph over the live one will do, per component (``diff``).

The operator's rules (docs/operator-semantics.md, sections Update rules, Restart, Rolling update):
- admission first: if the update would be rejected (immutable fields, the component set, a
  restart during a rolling update, ...) nothing changes at all;
- component pathway: the worker hash covers every worker component (worker/prefill/decode)
  together — their pod templates, labels, annotations, env, and the graph-level env, labels and
  annotations that land in them, but not replicas, minAvailable or scalingAdapter. Any change of
  those inputs starts a managed rolling update of ALL single-node workers (new DCDs, new runtime
  namespace); multinode workers (LeaderWorkerSet) roll natively instead;
- non-worker components run in plain Deployments: a template change rolls them in place;
- Grove pathway: the PodCliqueSet rolls changed cliques natively;
- a replicas change alone is a scale; a new ``spec.restart.id`` restarts components.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import (
    GROVE_UPDATE_STRATEGY_ANNOTATION,
    PROPAGATED_ANNOTATIONS,
    components_by_name,
    desired_replicas,
    graph_annotations,
    is_multinode,
    is_worker,
    mapping,
    read_graph,
    recreates,
    restart_id,
)
from kubectl_dgd.core.health import phase_health
from kubectl_dgd.core.phase import graph_phase
from kubectl_dgd.core.profile import Profile, decide_provider
from kubectl_dgd.core.runtime_version import resolved_runtime_version

if TYPE_CHECKING:
    from kubectl_dgd.core.validate.crd import CrdSchemas

ImpactKind = Literal[
    "rejected",
    "created",
    "managed-rolling-update",
    "in-place-rolling-update",
    "grove-native-update",
    "lws-native-update",
    "scale",
    "restart",
    "none",
]
# Not part of a component's rollout inputs (docs/operator-semantics.md#rolling-update): they
# scale or are admission-only.
_NOT_HASHED = ("replicas", "minAvailable", "scalingAdapter", "runtimeVersionOverride")
HASH_RUNTIME_FLOOR = (1, 5, 0)
Row = tuple[ImpactKind, str]


@dataclass(frozen=True)
class ComponentImpact:
    """What a change does to one component (restart, scale, nothing)."""

    name: str
    type: str
    impact: ImpactKind
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "type": self.type, "impact": self.impact, "detail": self.detail}


@dataclass
class Impact:
    """What applying a change would do: per component, and what admission would reject."""

    components: list[ComponentImpact] = field(default_factory=list)
    rejected: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rejected": [f.to_dict() for f in self.rejected],
            "components": [c.to_dict() for c in self.components],
            "notes": list(self.notes),
        }


def _graph_context(obj: dict[str, Any]) -> dict[str, Any]:
    """Graph-level inputs that land in every component's pod template
    (docs/operator-semantics.md#pod-template-merge)."""
    spec = mapping(obj.get("spec"))
    annotations = graph_annotations(obj)
    return {
        "env": spec.get("env"),
        "labels": spec.get("labels"),
        "annotations": spec.get("annotations"),
        "backendFramework": spec.get("backendFramework"),
        "propagated": {k: annotations.get(k) for k in PROPAGATED_ANNOTATIONS if k in annotations},
    }


def rollout_inputs(component: dict[str, Any], obj: dict[str, Any]) -> dict[str, Any]:
    """What a change of would roll this component's pods: its spec minus the scale fields, plus
    the graph-level context; workers also hash the resolved runtime version when >= 1.5.0."""
    own = {k: copy.deepcopy(v) for k, v in component.items() if k not in _NOT_HASHED}
    version = resolved_runtime_version(component)
    if version is not None and version >= HASH_RUNTIME_FLOOR:
        own["__runtimeVersion"] = str(version)
    return {"component": own, "graph": _graph_context(obj)}


@dataclass(frozen=True)
class _Change:
    """The live and the new graph side by side, with what every component's row needs."""

    live: dict[str, Any]
    new: dict[str, Any]
    live_components: dict[str, dict[str, Any]]
    new_components: dict[str, dict[str, Any]]
    provider: str
    grove_strategy: str
    name: str
    restart_new: str | None

    @classmethod
    def of(cls, live: dict[str, Any], new: dict[str, Any], profile: Profile) -> _Change:
        annotations = graph_annotations(live)
        return cls(
            live=live,
            new=new,
            live_components=components_by_name(live),
            new_components=components_by_name(new),
            provider=decide_provider(annotations, profile, creating=False),
            grove_strategy=str(
                annotations.get(GROVE_UPDATE_STRATEGY_ANNOTATION) or "RollingRecreate"
            ),
            name=str(mapping(new.get("metadata")).get("name") or ""),
            restart_new=restart_id(new),
        )

    def changed(self, name: str) -> bool:
        """The component's rollout inputs differ (a new component counts as changed)."""
        old = self.live_components.get(name)
        now = self.new_components[name]
        return old is None or rollout_inputs(old, self.live) != rollout_inputs(now, self.new)

    @property
    def hash_changed(self) -> list[str]:
        """Workers whose change moves the worker hash, which covers every worker together."""
        return [n for n, c in self.new_components.items() if is_worker(c) and self.changed(n)]

    @property
    def restart_requested(self) -> bool:
        return self.restart_new is not None and self.restart_new != restart_id(self.live)


def predict_impact(
    live: dict[str, Any] | None,
    new: dict[str, Any],
    schemas: CrdSchemas,
    profile: Profile,
) -> Impact:
    """The predicted effect of applying ``new`` over ``live`` (None: the graph is created)."""
    # The validation pipeline loads here: the status views import this module for Impact only.
    from kubectl_dgd.core.validate.pipeline import validate_object

    findings = validate_object(new, schemas, profile, old=live)
    rejected = [f for f in findings if f.severity == "error" and f.layer != "lint"]
    if live is None:
        return Impact(_every(new, "created", "new graph: created"), rejected)
    if rejected:
        return Impact(_every(new, "rejected", "admission refuses the update"), rejected)
    change = _Change.of(live, new, profile)
    hash_changed = change.hash_changed
    impact = Impact(rejected=rejected)
    for name, component in change.new_components.items():
        ctype = _type(component)
        rows = _component_rows(change, name, component, hash_changed)
        impact.components += [ComponentImpact(name, ctype, kind, why) for kind, why in rows]
    impact.notes = _notes(change, impact)
    return impact


def _type(component: dict[str, Any]) -> str:
    return str(component.get("type") or "-")


def _every(obj: dict[str, Any], kind: ImpactKind, detail: str) -> list[ComponentImpact]:
    """One row of the same kind for every component of ``obj``."""
    return [ComponentImpact(n, _type(c), kind, detail) for n, c in components_by_name(obj).items()]


def _component_rows(
    change: _Change, name: str, component: dict[str, Any], hash_changed: list[str]
) -> list[Row]:
    """Template roll, scale and restart rows of one component, or "no change"."""
    rows = [
        row
        for row in (
            _template_row(change, name, component, hash_changed),
            _scale_row(change.live_components.get(name, {}), component),
            _restart_row(change),
        )
        if row is not None
    ]
    return rows or [("none", "no change")]


def template_change(component: dict[str, Any], provider: str) -> ImpactKind:
    """How a change of this component's rollout inputs rolls its pods: Grove rolls cliques
    natively; a worker change moves the worker hash, so every single-node worker gets a managed
    rolling update and multinode ones roll their LeaderWorkerSet natively; the others roll their
    Deployment (or LeaderWorkerSet) in place."""
    if provider == "grove":
        return "grove-native-update"
    if is_worker(component):
        return "lws-native-update" if is_multinode(component) else "managed-rolling-update"
    return "in-place-rolling-update"


def _template_row(
    change: _Change, name: str, component: dict[str, Any], hash_changed: list[str]
) -> Row | None:
    """How the component's pods roll, if its rollout inputs (or the worker hash) changed."""
    kind = template_change(component, change.provider)
    if kind == "grove-native-update":
        return _grove_row(change) if change.changed(name) else None
    if kind == "in-place-rolling-update":
        return _in_place_row(change, name, component) if change.changed(name) else None
    return _worker_row(change, name, component, hash_changed) if hash_changed else None


def _grove_row(change: _Change) -> Row:
    return (
        "grove-native-update",
        f"PodCliqueSet rolls this clique natively ({change.grove_strategy}); "
        "no managed rolling update on Grove",
    )


def _worker_row(
    change: _Change, name: str, component: dict[str, Any], hash_changed: list[str]
) -> Row:
    causes = ", ".join(hash_changed)
    if template_change(component, change.provider) == "lws-native-update":
        return (
            "lws-native-update",
            f"worker hash changes ({causes}); a multinode worker's LeaderWorkerSet "
            "rolls natively (event RollingUpdateNotSupported)",
        )
    why = (
        "its rollout inputs changed"
        if name in hash_changed
        else f"the worker hash covers all workers and {causes} changed"
    )
    return (
        "managed-rolling-update",
        f"{why}: new DCD {change.name}-{name.lower()}-<newhash> and runtime "
        "namespace; old generation drained",
    )


def _in_place_row(change: _Change, name: str, component: dict[str, Any]) -> Row:
    kind = "LeaderWorkerSet" if is_multinode(component) else "Deployment"
    how = "recreates (Recreate strategy)" if recreates(component) else "rolls in place"
    return ("in-place-rolling-update", f"{kind} {change.name}-{name.lower()} {how}")


def _scale_row(old: dict[str, Any], component: dict[str, Any]) -> Row | None:
    before, after = desired_replicas(old), desired_replicas(component)
    return ("scale", f"replicas {before} -> {after}") if before != after else None


def _restart_row(change: _Change) -> Row | None:
    return (
        ("restart", f"restart {change.restart_new} requested") if change.restart_requested else None
    )


def _notes(change: _Change, impact: Impact) -> list[str]:
    notes = []
    managed = any(c.impact == "managed-rolling-update" for c in impact.components)
    if change.restart_requested and managed:
        notes.append(
            f"restart {change.restart_new} arrives with a managed rolling update: the operator "
            "marks it Superseded (the rolling update replaces the worker pods anyway)"
        )
    live = graph_phase(read_graph(change.live))
    if live.reported and not live.settled:
        verdict, message = phase_health(live)
        notes.append(
            f"the live graph has not settled ({verdict}: {message}); this change lands on top"
        )
    return notes
