"""The worker hash that names worker DCDs and labels worker pods (docs/operator-semantics.md#rolling-update).

v2 (``ComputeDGDWorkersSpecHash``): SHA-256 over ``json.Marshal`` of a map from worker component
name to {labels, annotations, runtimeVersion, spec} of the DCDs the operator generates with a
placeholder in place of the hash, first 8 hex characters. Bytes follow Go's encoding of the
release's own types (``gojson``, ``dynamo_types``): struct field order, omitempty, sorted map keys.
Our serialiser reproduces every upstream golden of the older hash test (tests/unit/
test_worker_hash_golden.py); the v2 bytes are derived by the same rules, but upstream publishes no
v2 golden, so the value stays marked as a preview until a value from a real cluster confirms it.

Per release: 1.3 hashes labels, annotations and spec; 1.4 adds ``runtimeVersion`` (only for a
resolved runtime of 1.5.0 or later) and clears the override; 1.5 and 1.6 add their new spec
fields. ``annotations`` drop the origin-version annotation and the template's topology-source
keys (the DCD's own topology-source annotations are added back), while the spec's pod template
keeps the origin version: the hash depends on the creating operator. A v1alpha1 graph's service
``labels``/``annotations`` enter ``labels``/``annotations`` only, never the hashed spec.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kubectl_dgd.core.containers import pod_spec
from kubectl_dgd.core.profile import ORIGIN_VERSION_ANNOTATION, at_least
from kubectl_dgd.core.render.context import Graph, is_worker
from kubectl_dgd.core.render.dcd import (
    TOPOLOGY_CLUSTER_ANNOTATION,
    TOPOLOGY_LABEL_KEY_ANNOTATION,
    build_dcd,
)
from kubectl_dgd.core.render.dynamo_types import ALPHA_SERVICES, worker_template
from kubectl_dgd.core.render.gojson import GoType, map_of, marshal
from kubectl_dgd.core.render.podtemplate import kube_labels
from kubectl_dgd.core.runtime_version import (
    RuntimeVersion,
    parse_runtime_version,
    resolved_runtime_version,
)
from kubectl_dgd.core.sha256 import hexdigest

HASH_PLACEHOLDER = "worker-hash-placeholder"
RUNTIME_SIDECAR = "runtime"  # the init container that selects 1.6 Dynamo sidecar mode
MIN_HASHED_RUNTIME = RuntimeVersion(1, 5, 0)
# Replica count, availability and autoscaling ownership patch the live DCD (workerHashSpec).
CLEARED_SPEC_FIELDS = ("replicas", "minAvailable", "scalingAdapter", "runtimeVersionOverride")
UNHASHED_ANNOTATIONS = (
    ORIGIN_VERSION_ANNOTATION,
    TOPOLOGY_LABEL_KEY_ANNOTATION,
    TOPOLOGY_CLUSTER_ANNOTATION,
)
TOPOLOGY_SOURCE_ANNOTATIONS = (TOPOLOGY_LABEL_KEY_ANNOTATION, TOPOLOGY_CLUSTER_ANNOTATION)
# v1alpha1 fields the legacy v1 hash clears (stripV1alpha1NonPodTemplateFields).
LEGACY_STRIPPED = [
    "annotations",
    "labels",
    "serviceName",
    "componentType",
    "subComponentType",
    "runtimeVersionOverride",
    "dynamoNamespace",
    "replicas",
    "autoscaling",
    "scalingAdapter",
    "ingress",
    "modelRef",
    "eppConfig",
]
LEGACY_WORKER_TYPES = ("worker", "prefill", "decode")


def hash_input(graph: Graph) -> dict[str, Any]:
    """What the v2 hash covers, per worker component name (empty when there are no workers)."""
    entries: dict[str, Any] = {}
    # The operator hashes the DCDs of the component pathway whatever the provider.
    graph = replace(graph, provider="component")
    newer = at_least(graph.operator_version, "1.4")
    for component in graph.components:
        if not is_worker(component):
            continue
        dcd = build_dcd(graph, component, HASH_PLACEHOLDER, restart=False)
        # GetDCDKubeLabels / GetDCDKubeAnnotations: the preserved v1alpha1 service metadata
        # sits under the pod template's; the hashed spec below carries neither.
        entry: dict[str, Any] = {"labels": kube_labels(dcd, graph.preserved(component, "labels"))}
        annotations = {
            **graph.preserved(component, "annotations"),
            **dcd["spec"]["podTemplate"]["metadata"].get("annotations", {}),
        }
        kept = {k: v for k, v in annotations.items() if k not in UNHASHED_ANNOTATIONS}
        # The topology-source keys are dropped from the template's and re-added from the DCD's own.
        topology = dcd["metadata"].get("annotations", {})
        kept.update({k: v for k, v in topology.items() if k in TOPOLOGY_SOURCE_ANNOTATIONS and v})
        entry["annotations"] = kept
        version = _hashed_runtime_version(component, graph.operator_version)
        if newer and version is not None and version >= MIN_HASHED_RUNTIME:
            entry["runtimeVersion"] = str(version)
        spec = dict(dcd["spec"])  # a fresh DCD: only its own top-level keys are dropped
        for key in CLEARED_SPEC_FIELDS:
            spec.pop(key, None)
        entry["spec"] = spec
        entries[str(component.get("name"))] = entry
    return entries


def _hashed_runtime_version(component: dict[str, Any], operator: str) -> RuntimeVersion | None:
    """1.6 reads a Dynamo-sidecar component's runtime from the ``runtime`` init container's image
    (resolvedRuntimeVersionForHash, search index 70474665178); the override still wins."""
    if at_least(operator, "1.6") and not component.get("runtimeVersionOverride"):
        init = pod_spec(component).get("initContainers")
        for container in init if isinstance(init, list) else []:
            if isinstance(container, dict) and container.get("name") == RUNTIME_SIDECAR:
                image = container.get("image")
                return parse_runtime_version(image) if isinstance(image, str) else None
    return resolved_runtime_version(component)


def hash_bytes(graph: Graph) -> tuple[str, bool]:
    """The JSON the operator would hash, and whether a key had no modelled Go field."""
    return marshal(hash_input(graph), map_of(worker_template(graph.operator_version)))


def sha8(data: str) -> str:
    return hexdigest(data)[:8]


def worker_hash(graph: Graph) -> str | None:
    """8 hex characters, or None for a graph without worker components."""
    if not any(is_worker(c) for c in graph.components):
        return None
    return sha8(hash_bytes(graph)[0])


def legacy_hash_bytes(services: dict[str, Any] | None) -> str:
    """The legacy v1 hash input of a v1alpha1 graph's ``spec.services`` (worker types only)."""
    stripped = {
        name: {k: v for k, v in spec.items() if k not in LEGACY_STRIPPED}
        for name, spec in (services or {}).items()
        if isinstance(spec, dict) and spec.get("componentType") in LEGACY_WORKER_TYPES
    }
    return marshal(stripped, ALPHA_SERVICES)[0]


def legacy_worker_hash(services: dict[str, Any] | None) -> str:
    """``nvidia.com/current-worker-hash``: the v1 value older operators recorded."""
    return sha8(legacy_hash_bytes(services))


def typed_hash(value: Any, go_type: GoType) -> tuple[str, str]:
    """``(bytes, first 8 hex of their SHA-256)`` for any typed value (tests, diagnostics)."""
    data = marshal(value, go_type)[0]
    return data, sha8(data)
