"""Children of either pathway: scaling adapters, GMS ResourceClaimTemplates and the PVCs a
v1alpha1 graph asks the operator to create (``spec.pvcs`` with ``create: true``)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.naming import child_name
from kubectl_dgd.core.render.context import Graph, mapping
from kubectl_dgd.core.render.objects import NOT_SHOWN_ANNOTATION, NOTE_ANNOTATION, metadata
from kubectl_dgd.core.render.podtemplate import LABEL_COMPONENT, LABEL_GRAPH

DGDSA_API_VERSION = "nvidia.com/v1beta1"
RESOURCE_API_VERSION = "resource.k8s.io/v1"
DEFAULT_GMS_DEVICE_CLASS = "gpu.nvidia.com"


def scaling_adapter(graph: Graph, component: dict[str, Any]) -> dict[str, Any]:
    """The DGDSA; its replicas are seeded from the component only when it is created."""
    name = str(component.get("name"))
    return {
        "apiVersion": DGDSA_API_VERSION,
        "kind": "DynamoGraphDeploymentScalingAdapter",
        "metadata": metadata(
            child_name(graph.name, name),
            graph.namespace,
            labels={LABEL_GRAPH: graph.name, LABEL_COMPONENT: name},
        ),
        "spec": {
            "replicas": component.get("replicas", 1),
            "dgdRef": {"name": graph.name, "componentName": name},
        },
    }


def gms_claim_template(graph: Graph, component: dict[str, Any]) -> dict[str, Any] | None:
    gms = mapping(component.get("experimental")).get("gpuMemoryService")
    if not isinstance(gms, dict):
        return None
    device_class = str(gms.get("deviceClassName") or DEFAULT_GMS_DEVICE_CLASS)
    return {
        "apiVersion": RESOURCE_API_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": metadata(
            child_name(graph.name, str(component.get("name"))) + "-gpu",
            graph.namespace,
            annotations={
                NOT_SHOWN_ANNOTATION: "device count and allocation mode of the request",
                NOTE_ANNOTATION: "resource.k8s.io version depends on the cluster",
            },
        ),
        "spec": {
            "spec": {
                "devices": {
                    "requests": [{"name": "gpus", "exactly": {"deviceClassName": device_class}}]
                }
            }
        },
    }


def alpha_pvcs(alpha: dict[str, Any], namespace: str) -> list[dict[str, Any]]:
    """The PVCs the operator creates from a v1alpha1 graph's preserved ``spec.pvcs`` (its legacy
    PVC reconciler): only entries with ``create: true``; others must already exist."""
    found: list[dict[str, Any]] = []
    pvcs = mapping(alpha.get("spec")).get("pvcs")
    for pvc in pvcs if isinstance(pvcs, list) else []:
        if not isinstance(pvc, dict) or pvc.get("create") is not True or not pvc.get("name"):
            continue
        found.append(
            {
                "apiVersion": "v1",
                "kind": "PersistentVolumeClaim",
                "metadata": metadata(str(pvc["name"]), namespace),
                "spec": {
                    "accessModes": [pvc.get("volumeAccessMode", "")],
                    "resources": {"requests": {"storage": pvc.get("size", "")}},
                    "storageClassName": pvc.get("storageClass", ""),
                },
            }
        )
    return found
