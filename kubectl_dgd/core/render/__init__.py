"""Render the children the operator will create from a graph, offline (docs/operator-semantics.md#render-recipe).

``render_graph`` is the one entry point, shared by ``kubectl dgd render`` and the Argo CD plugin.
What the operator injects that cannot be known offline is listed in an annotation, never guessed.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.convert import alpha_to_beta, is_alpha, preserved_pod_metadata
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render.component_path import render_component
from kubectl_dgd.core.render.context import Graph, RenderError, ShapeError, graph_context
from kubectl_dgd.core.render.extras import alpha_pvcs, gms_claim_template, scaling_adapter
from kubectl_dgd.core.render.grove import render_grove
from kubectl_dgd.core.render.objects import RenderedObject
from kubectl_dgd.core.render.services import model_services
from kubectl_dgd.core.render.worker_hash import worker_hash

__all__ = ["RenderError", "RenderedObject", "render_graph"]


def render_graph(obj: dict[str, Any], profile: Profile) -> list[RenderedObject]:
    """The graph's children, sorted by source, kind and name. Raises RenderError when the
    operator would fail to reconcile the graph. A v1alpha1 graph is rendered from its v1beta1
    conversion, as the operator's controller reads it."""
    alpha = obj if is_alpha(obj) else None
    conversion = alpha_to_beta(alpha) if alpha is not None else None
    try:
        graph = graph_context(obj if conversion is None else conversion.obj, profile)
    except ShapeError as error:
        if conversion is None:
            raise
        # Name the field as the v1alpha1 file spells it (spec.services is a map there).
        path = conversion.paths.alpha_of(error.path) or error.path
        raise ShapeError(path, "an object" if path == "spec.services" else error.expected) from None
    if alpha is not None:
        # The controller reads the preserved service metadata back for the pods, not the DCD spec.
        graph.alpha_metadata = preserved_pod_metadata(alpha)
    hashed = worker_hash(graph)
    objects = (
        render_grove(graph, hashed) if graph.provider == "grove" else _component_path(graph, hashed)
    )
    for component in graph.components:
        source = f"{graph.name}/{component.get('name')}"
        if "scalingAdapter" in component and component.get("scalingAdapter") is not None:
            objects.append(RenderedObject(source, scaling_adapter(graph, component)))
        claim = gms_claim_template(graph, component)
        if claim is not None:
            objects.append(RenderedObject(source, claim))
    for name, service in model_services(graph).items():
        objects.append(RenderedObject(f"{graph.name}/{name}", service))
    if alpha is not None:
        objects.extend(
            RenderedObject(graph.name, pvc) for pvc in alpha_pvcs(alpha, graph.namespace)
        )
    return sorted(objects, key=RenderedObject.sort_key)


def _component_path(graph: Graph, hashed: str | None) -> list[RenderedObject]:
    if any(c.get("type") == "lpx" for c in graph.components):
        raise RenderError(
            f'{graph.name}: spec.components: Forbidden: requires the Grove pathway, but workload provider "component" is selected'
        )
    objects: list[RenderedObject] = []
    for component in graph.components:
        objects.extend(render_component(graph, component, hashed))
    return objects
