"""Services the operator creates for components, and the model discovery Service."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.naming import model_service_name, service_name
from kubectl_dgd.core.render.context import Graph, mapping
from kubectl_dgd.core.render.objects import NOT_SHOWN_ANNOTATION, metadata
from kubectl_dgd.core.render.podtemplate import (
    LABEL_COMPONENT,
    LABEL_COMPONENT_TYPE,
    LABEL_DISCOVERY_BACKEND,
    LABEL_DISCOVERY_ENABLED,
    LABEL_GRAPH,
    LABEL_NAMESPACE,
    component_namespace,
)

FRONTEND_PORT = {"name": "http", "port": 8000, "targetPort": "http", "protocol": "TCP"}
EPP_PORT = {
    "name": "grpc",
    "port": 9002,
    "targetPort": 9002,
    "protocol": "TCP",
    "appProtocol": "http2",
}
SYSTEM_PORT = {"name": "system", "port": 9090, "targetPort": "system", "protocol": "TCP"}


def wants_service(graph: Graph, component: dict[str, Any]) -> bool:
    """The frontend always; every component when Kubernetes discovery is on."""
    return component.get("type") == "frontend" or graph.kubernetes_discovery


def component_service(
    graph: Graph, component: dict[str, Any], name: str, labels: dict[str, str] | None = None
) -> dict[str, Any]:
    """The component's Service; ``labels`` are the DCD's on the component path (the Grove path's
    Services carry the graph and component labels)."""
    component_type = component.get("type")
    if component_type == "frontend":
        port = FRONTEND_PORT
    elif component_type == "epp":
        port = EPP_PORT
    else:
        port = SYSTEM_PORT
    if labels is None:
        labels = {LABEL_GRAPH: graph.name, LABEL_COMPONENT: str(component.get("name"))}
    labels = dict(labels)
    if graph.kubernetes_discovery:
        labels |= {LABEL_DISCOVERY_BACKEND: "kubernetes", LABEL_DISCOVERY_ENABLED: "true"}
    selector = {
        LABEL_COMPONENT_TYPE: str(component_type or ""),
        LABEL_NAMESPACE: component_namespace(graph, component),
        LABEL_COMPONENT: str(component.get("name")),
    }
    annotations = {}
    if "multinode" in component and graph.provider == "component":
        annotations[NOT_SHOWN_ANNOTATION] = "leader role selector label (multinode)"
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": metadata(service_name(name), graph.namespace, labels, annotations),
        "spec": {"selector": dict(sorted(selector.items())), "ports": [dict(port)]},
    }


def model_services(graph: Graph) -> dict[str, dict[str, Any]]:
    """One headless Service per distinct ``modelRef.name``, keyed by the first component using it."""
    result: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for component in graph.components:
        model = mapping(component.get("modelRef")).get("name")
        if not isinstance(model, str) or not model or model in seen:
            continue
        seen.add(str(model))
        result[str(component.get("name"))] = {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": metadata(
                model_service_name(str(model)),
                graph.namespace,
                annotations={
                    NOT_SHOWN_ANNOTATION: f"selector and ports of the model service for {model}"
                },
            ),
            "spec": {"clusterIP": "None"},
        }
    return result
