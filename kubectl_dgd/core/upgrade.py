"""What upgrading the operator from one release to another does to one graph (``upgrade-check``).

Three answers, each from the rules we already model per release: the verdict of the graph's next
update under the target release (its validating rules with ``old`` = the live object), whether the
worker hash changes between the releases (the new controller recomputes it on its first
reconcile, so a change rolls every worker component: docs/operator-semantics.md#rolling-update),
and the fields the target release deprecates (its warnings) or drops (unknown to its schema, so
the API server prunes them on the next write).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph.names import WORKER_HASH_ANNOTATION
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.crd import CrdSchemas

# (findings of one release) for a graph: validate_object with that release's schemas and rules
Validator = Callable[[dict[str, Any], CrdSchemas, Profile, "dict[str, Any] | None"], list[Finding]]

DEPRECATION_CODES = frozenset(
    {
        "deprecated-version",
        "min-available-deprecated",
        "dynamo-namespace-deprecated",
        "autoscaling-deprecated",
    }
)


@dataclass
class GraphUpgrade:
    """One graph's answer. ``verdict``: admitted, admitted-with-warnings or refused."""

    name: str
    namespace: str
    source: str
    verdict: str
    findings: list[Finding]
    new_codes: set[str]
    workers: list[str]
    hash_from: str | None
    hash_to: str | None
    hash_note: str | None
    deprecated: list[str]
    dropped: list[str]

    @property
    def rolls(self) -> bool:
        return bool(self.workers) and self.hash_from != self.hash_to

    @property
    def breaks(self) -> bool:
        return self.verdict == "refused" or bool(self.dropped)

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "namespace": self.namespace,
            "source": self.source,
            "verdict": self.verdict,
            "breaks": self.breaks,
            "workerHash": {
                "from": self.hash_from,
                "to": self.hash_to,
                "changes": self.rolls,
                "rolls": self.workers if self.rolls else [],
                "note": self.hash_note,
            },
            "deprecated": self.deprecated,
            "dropped": self.dropped,
            "findings": [
                {**f.to_dict(), "newInTarget": f.code in self.new_codes} for f in self.findings
            ],
        }


@dataclass
class UpgradeReport:
    """The answers for every graph checked, and the two releases."""

    current: str
    target: str
    how: str
    graphs: list[GraphUpgrade] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(g.breaks for g in self.graphs)

    def to_data(self) -> dict[str, Any]:
        return {
            "from": self.current,
            "to": self.target,
            "fromDetectedBy": self.how,
            "ok": self.ok,
            "graphs": [g.to_data() for g in self.graphs],
        }


def _hash(obj: dict[str, Any], version: str) -> tuple[str | None, list[str]]:
    """The worker hash under ``version`` and the worker components it covers."""
    from kubectl_dgd.core.convert import alpha_to_beta, is_alpha
    from kubectl_dgd.core.render.context import graph_context, is_worker
    from kubectl_dgd.core.render.worker_hash import worker_hash

    beta = alpha_to_beta(obj).obj if is_alpha(obj) else obj
    graph = graph_context(beta, Profile(operator_version=version))
    workers = [str(c.get("name")) for c in graph.components if is_worker(c)]
    return worker_hash(graph), workers


def check_graph(
    obj: dict[str, Any],
    live: dict[str, Any] | None,
    source: str,
    current: tuple[str, CrdSchemas],
    target: tuple[str, CrdSchemas],
    validate: Validator,
) -> GraphUpgrade:
    """The upgrade's effect on ``obj`` (the spec to be written next; ``live`` the stored one)."""
    meta = obj.get("metadata") or {}
    now = validate(obj, current[1], Profile(operator_version=current[0]), live)
    then = validate(obj, target[1], Profile(operator_version=target[0]), live)
    known_now = {(f.code, f.path) for f in now}
    new_codes = {f.code for f in then if (f.code, f.path) not in known_now}
    errors = [f for f in then if f.severity == "error" and f.code != "unknown-field"]
    warnings = [f for f in then if f.severity == "warning"]
    verdict = "refused" if errors else "admitted-with-warnings" if warnings else "admitted"
    unknown_now = {f.path for f in now if f.code == "unknown-field"}
    dropped = sorted(
        f.path for f in then if f.code == "unknown-field" and f.path not in unknown_now
    )
    # The target warns of a deprecated field only when a write sets or changes it; checked as
    # a create, every deprecated field the graph carries is named.
    fresh = validate(obj, target[1], Profile(operator_version=target[0]), None)
    deprecated = sorted(
        {f.path or "apiVersion" for f in [*then, *fresh] if f.code in DEPRECATION_CODES}
    )
    hash_from = hash_to = note = None
    workers: list[str] = []
    from kubectl_dgd.core.render.context import RenderError, ShapeError

    stored = live or obj  # the upgrade reconciles what is stored, before any next update
    recorded = ((stored.get("metadata") or {}).get("annotations") or {}).get(WORKER_HASH_ANNOTATION)
    try:
        hash_from, workers = _hash(stored, current[0])
        hash_to, _ = _hash(stored, target[0])
        if live is not None and recorded and recorded != "legacy":
            # What the running operator recorded wins over our computation of its release.
            if recorded != hash_from:
                note = (
                    f"the operator recorded worker hash {recorded}, computed for "
                    f"{current[0]}: {hash_from}; compared with the recorded one"
                )
            hash_from = str(recorded)
    except (
        RenderError,
        ShapeError,
    ) as error:  # a graph the renderer cannot read: say so, do not guess
        note = f"worker hash not computed: {error}"
    return GraphUpgrade(
        name=str(meta.get("name") or ""),
        namespace=str(meta.get("namespace") or ""),
        source=source,
        verdict=verdict,
        findings=[f for f in then if f.severity != "info"],
        new_codes=new_codes,
        workers=workers,
        hash_from=hash_from,
        hash_to=hash_to,
        hash_note=note,
        deprecated=deprecated,
        dropped=dropped,
    )
