"""The worker hash (v2) that names worker DCDs and labels worker pods (docs/operator-semantics.md#rolling-update).

SHA-256 over the generated worker DCDs, keyed by component name: the labels and annotations
the DCD controller renders onto workloads (the DCD's own, then its pod template's), the
resolved runtime version when it is 1.5.0 or later, and the spec without the fields that must
not start a new worker generation. The operator generates the DCDs with a placeholder in place
of the hash. Its JSON follows Go struct field order; ours sorts keys, so the value is a preview.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from kubectl_dgd.core.render.context import Graph, is_worker
from kubectl_dgd.core.render.dcd import build_dcd
from kubectl_dgd.core.render.podtemplate import kube_labels
from kubectl_dgd.core.runtime_version import RuntimeVersion, resolved_runtime_version

HASH_PLACEHOLDER = "worker-hash-placeholder"
MIN_HASHED_RUNTIME = RuntimeVersion(1, 5, 0)
# Replica count, availability and autoscaling ownership patch the live DCD; the override is
# hashed through the resolved version instead.
EXCLUDED_SPEC_FIELDS = ("replicas", "minAvailable", "scalingAdapter", "runtimeVersionOverride")


def hash_input(graph: Graph) -> dict[str, Any]:
    """What the hash covers, per worker component name (empty when there are no workers)."""
    entries: dict[str, Any] = {}
    # The operator hashes the DCDs of the component pathway whatever the provider.
    graph = replace(graph, provider="component")
    for component in graph.components:
        if not is_worker(component):
            continue
        dcd = build_dcd(graph, component, HASH_PLACEHOLDER, restart=False)
        entry: dict[str, Any] = {}
        labels = kube_labels(dcd)
        if labels:
            entry["labels"] = dict(sorted(labels.items()))
        annotations = {
            **dcd["metadata"].get("annotations", {}),
            **dcd["spec"]["podTemplate"]["metadata"].get("annotations", {}),
        }
        if annotations:
            entry["annotations"] = dict(sorted(annotations.items()))
        version = resolved_runtime_version(component)
        if version is not None and version >= MIN_HASHED_RUNTIME:
            entry["runtimeVersion"] = str(version)
        entry["spec"] = {k: v for k, v in dcd["spec"].items() if k not in EXCLUDED_SPEC_FIELDS}
        entries[str(component.get("name"))] = entry
    return entries


def worker_hash(graph: Graph) -> str | None:
    """8 hex characters, or None for a graph without worker components."""
    entries = hash_input(graph)
    if not entries:
        return None
    data = json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()[:8]
