"""The facts about one graph that every child needs: names, provider, discovery, backends."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kubectl_dgd.core import graph as dgd
from kubectl_dgd.core.backend import resolve_backend
from kubectl_dgd.core.profile import NEWEST_VERSION, Profile, Provider, decide_provider
from kubectl_dgd.errors import InputError, ReconcileError

# Render's modules read components through core.graph's helpers (one definition each).
DISCOVERY_BACKEND_ANNOTATION = dgd.DISCOVERY_BACKEND_ANNOTATION
mapping = dgd.mapping
items = dgd.items
is_worker = dgd.is_worker
is_multinode = dgd.is_multinode
node_count = dgd.node_count


class RenderError(ReconcileError):
    """The operator would fail to reconcile this graph (its Ready reason and message)."""


class ShapeError(InputError):
    """A field render keys on has the wrong type (the API server would refuse the graph)."""

    def __init__(self, path: str, expected: str) -> None:
        super().__init__(f"{path}: expected {expected}; run `kubectl dgd validate` for the details")
        self.path = path
        self.expected = expected


@dataclass
class Graph:
    """A graph being rendered: its object, names and the facts every child needs."""

    obj: dict[str, Any]
    name: str
    namespace: str
    annotations: dict[str, str]
    spec: dict[str, Any]
    components: list[dict[str, Any]]
    provider: Provider
    kubernetes_discovery: bool
    lws: bool
    backends: dict[str, str | None] = field(default_factory=dict)
    operator_version: str = NEWEST_VERSION  # whose worker-hash layout and labels apply
    # v1alpha1 service labels/annotations the operator keeps in its conversion record, by
    # component name (convert.preserved_pod_metadata); empty for a v1beta1 graph.
    alpha_metadata: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    def preserved(self, component: dict[str, Any], key: str) -> dict[str, str]:
        """The preserved v1alpha1 ``labels`` or ``annotations`` of ``component`` ({} if none)."""
        return dict(self.alpha_metadata.get(str(component.get("name")), {}).get(key, {}))

    @cached_property
    def has_epp(self) -> bool:
        # Asked once per component: computed once, or render is quadratic in the components.
        return any(c.get("type") == "epp" for c in self.components)

    @property
    def restart_id(self) -> str | None:
        restart_id = mapping(self.spec.get("restart")).get("id")
        return str(restart_id) if restart_id else None


def graph_context(obj: dict[str, Any], profile: Profile) -> Graph:
    """Read the graph as the operator will have it: mutating defaults applied."""
    meta = mapping(obj.get("metadata"))
    annotations = {str(k): str(v) for k, v in mapping(meta.get("annotations")).items()}
    # A saved live object (it has a uid) keeps its stored provider; a new one gets the webhook's.
    provider = decide_provider(annotations, profile, creating=not meta.get("uid"))
    _check_shape(meta, obj.get("spec"))
    spec = mapping(obj.get("spec"))
    components = [_defaulted(c, provider) for c in items(spec.get("components"))]
    discovery = annotations.get(DISCOVERY_BACKEND_ANNOTATION, "").lower() == "kubernetes"
    graph = Graph(
        obj=obj,
        name=str(meta.get("name") or ""),
        namespace=str(meta.get("namespace") or "default"),
        annotations=annotations,
        spec=spec,
        components=components,
        provider=provider,
        kubernetes_discovery=profile.kubernetes_discovery or discovery,
        lws=profile.lws,
        operator_version=profile.operator_version,
    )
    graph.backends = _backends(graph)
    return graph


def _check_shape(meta: dict[str, Any], spec: Any) -> None:
    """The fields render keys on must have their shape; the rest is validate's job.

    A ``spec`` or ``components`` of the wrong type would otherwise render as an empty graph
    (a PodCliqueSet without cliques) that the API server would refuse.
    """
    wrong = [("metadata.name", "a string")] if not isinstance(meta.get("name"), str) else []
    if spec is not None and not isinstance(spec, dict):
        wrong.append(("spec", "an object"))
    listed = mapping(spec).get("components")
    if listed is not None and not isinstance(listed, list):
        wrong.append(("spec.components", "a list"))
    for i, component in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(component, dict):
            wrong.append((f"spec.components[{i}]", "an object"))
            continue
        for key in ("name", "type"):
            if key in component and not isinstance(component[key], str):
                wrong.append((f"spec.components[{i}].{key}", "a string"))
    if wrong:
        raise ShapeError(*wrong[0])


def _defaulted(component: dict[str, Any], provider: Provider) -> dict[str, Any]:
    result = dict(component)
    if result.get("replicas") is None and dgd.replicas_default(result) is not None:
        result["replicas"] = dgd.replicas_default(result)
    if provider == "grove" and result.get("minAvailable") is None:
        result["minAvailable"] = dgd.DEFAULT_MIN_AVAILABLE
    return result


def _backends(graph: Graph) -> dict[str, str | None]:
    """Each component's backend: detected > explicit > none; conflicts fail reconciliation."""
    explicit = graph.spec.get("backendFramework")
    explicit = str(explicit) if explicit else None
    result: dict[str, str | None] = {}
    for component in graph.components:
        if not is_worker(component):
            continue
        resolution = resolve_backend(component, explicit)
        if resolution.error:
            raise RenderError(
                f"{graph.name}: the operator would fail to reconcile: {resolution.error}"
            )
        result[str(component.get("name"))] = resolution.framework
    workers = sorted({b for b in result.values() if b})
    if explicit is None and len(workers) > 1:
        raise RenderError(
            f"{graph.name}: the operator would fail to reconcile: multiple backend frameworks detected "
            f"for generated DynamoComponentDeployments: {workers[0]} and {workers[1]}"
        )
    graph_backend = explicit or (workers[0] if workers else None)
    for component in graph.components:
        result.setdefault(str(component.get("name")), graph_backend)
    return result
