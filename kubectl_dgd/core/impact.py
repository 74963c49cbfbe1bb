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
from typing import Any, Literal

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile, decide_provider
from kubectl_dgd.core.runtime_version import resolved_runtime_version
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.pipeline import validate_object

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
WORKER_TYPES = frozenset({"worker", "prefill", "decode"})
# Left out of the worker hash, so not rollout inputs: they scale or are admission-only.
_NOT_HASHED = ("replicas", "minAvailable", "scalingAdapter", "runtimeVersionOverride")
# DGD metadata annotations the operator copies onto every pod template
# (docs/operator-semantics.md#pod-template-merge).
PROPAGATED_ANNOTATIONS = (
    "nvidia.com/enable-metrics",
    "nvidia.com/dynamo-discovery-backend",
    "nvidia.com/dynamo-kube-discovery-mode",
    "nvidia.com/dynamo-operator-origin-version",
    "nvidia.com/vllm-distributed-executor-backend",
)
HASH_RUNTIME_FLOOR = (1, 5, 0)
RECREATE_ANNOTATION = "nvidia.com/deployment-strategy"
GROVE_STRATEGY_ANNOTATION = "nvidia.com/grove-update-strategy"
ROLLING = ("Pending", "InProgress")


@dataclass(frozen=True)
class ComponentImpact:
    name: str
    type: str
    impact: ImpactKind
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "type": self.type, "impact": self.impact, "detail": self.detail}


@dataclass
class Impact:
    components: list[ComponentImpact] = field(default_factory=list)
    rejected: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rejected": [f.to_dict() for f in self.rejected],
            "components": [c.to_dict() for c in self.components],
            "notes": list(self.notes),
        }


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _components(obj: dict[str, Any]) -> dict[str, dict[str, Any]]:
    items = _mapping(obj.get("spec")).get("components")
    out: dict[str, dict[str, Any]] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("name") is not None:
            out[str(item["name"])] = item
    return out


def _graph_context(obj: dict[str, Any]) -> dict[str, Any]:
    """Graph-level inputs that land in every component's pod template."""
    spec = _mapping(obj.get("spec"))
    annotations = _mapping(_mapping(obj.get("metadata")).get("annotations"))
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
    if version is not None and (version.major, version.minor, version.patch) >= HASH_RUNTIME_FLOOR:
        own["__runtimeVersion"] = str(version.finalize_version())
    return {"component": own, "graph": _graph_context(obj)}


def _is_worker(component: dict[str, Any]) -> bool:
    return component.get("type") in WORKER_TYPES


def _is_multinode(component: dict[str, Any]) -> bool:
    node_count = _mapping(component.get("multinode")).get("nodeCount", 2)
    return "multinode" in component and isinstance(node_count, int) and node_count > 1


def _replicas(component: dict[str, Any]) -> int:
    value = component.get("replicas", 1)
    return value if isinstance(value, int) else 1


def _restart_id(obj: dict[str, Any]) -> str | None:
    value = _mapping(_mapping(obj.get("spec")).get("restart")).get("id")
    return str(value) if value else None


def predict_impact(
    live: dict[str, Any] | None,
    new: dict[str, Any],
    schemas: CrdSchemas,
    profile: Profile,
) -> Impact:
    """The predicted effect of applying ``new`` over ``live`` (None: the graph is created)."""
    impact = Impact()
    findings = validate_object(new, schemas, profile, old=live)
    impact.rejected = [f for f in findings if f.severity == "error" and f.layer != "lint"]
    new_components = _components(new)
    if live is None:
        impact.components = [
            ComponentImpact(n, str(c.get("type") or "-"), "created", "new graph: created")
            for n, c in new_components.items()
        ]
        return impact
    if impact.rejected:
        impact.components = [
            ComponentImpact(
                n, str(c.get("type") or "-"), "rejected", "admission refuses the update"
            )
            for n, c in new_components.items()
        ]
        return impact

    live_components = _components(live)
    annotations = _mapping(_mapping(live.get("metadata")).get("annotations"))
    provider = decide_provider(annotations, profile, creating=False)
    name = str(_mapping(new.get("metadata")).get("name") or "")

    def changed(component_name: str) -> bool:
        old = live_components.get(component_name)
        now = new_components[component_name]
        return old is None or rollout_inputs(old, live) != rollout_inputs(now, new)

    hashed = [n for n, c in new_components.items() if _is_worker(c)]
    hash_changed = [n for n in hashed if changed(n)]
    restart_new = _restart_id(new)
    restart_requested = restart_new is not None and restart_new != _restart_id(live)

    for component_name, component in new_components.items():
        ctype = str(component.get("type") or "-")
        old = live_components.get(component_name, {})
        rows: list[tuple[ImpactKind, str]] = []
        if provider == "grove":
            if changed(component_name):
                strategy = annotations.get(GROVE_STRATEGY_ANNOTATION) or "RollingRecreate"
                rows.append(
                    (
                        "grove-native-update",
                        f"PodCliqueSet rolls this clique natively ({strategy}); "
                        "no managed rolling update on Grove",
                    )
                )
        elif _is_worker(component) and hash_changed:
            causes = ", ".join(hash_changed)
            if _is_multinode(component):
                rows.append(
                    (
                        "lws-native-update",
                        f"worker hash changes ({causes}); a multinode worker's LeaderWorkerSet "
                        "rolls natively (event RollingUpdateNotSupported)",
                    )
                )
            else:
                why = (
                    "its rollout inputs changed"
                    if component_name in hash_changed
                    else f"the worker hash covers all workers and {causes} changed"
                )
                rows.append(
                    (
                        "managed-rolling-update",
                        f"{why}: new DCD {name}-{component_name.lower()}-<newhash> and runtime "
                        "namespace; old generation drained",
                    )
                )
        elif not _is_worker(component) and changed(component_name):
            recreate = (
                _mapping(_mapping(component.get("podTemplate")).get("metadata"))
                .get("annotations", {})
                .get(RECREATE_ANNOTATION)
                == "Recreate"
            )
            kind = "LeaderWorkerSet" if _is_multinode(component) else "Deployment"
            how = "recreates (Recreate strategy)" if recreate else "rolls in place"
            rows.append(
                ("in-place-rolling-update", f"{kind} {name}-{component_name.lower()} {how}")
            )
        if _replicas(component) != _replicas(old):
            rows.append(("scale", f"replicas {_replicas(old)} -> {_replicas(component)}"))
        if restart_requested:
            rows.append(("restart", f"restart {restart_new} requested"))
        if not rows:
            rows.append(("none", "no change"))
        for kind, detail in rows:
            impact.components.append(ComponentImpact(component_name, ctype, kind, detail))

    managed = any(c.impact == "managed-rolling-update" for c in impact.components)
    if restart_requested and managed:
        impact.notes.append(
            f"restart {restart_new} arrives with a managed rolling update: the operator marks it "
            "Superseded (the rolling update replaces the worker pods anyway)"
        )
    return impact
