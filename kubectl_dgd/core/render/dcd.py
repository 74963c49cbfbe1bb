"""The DynamoComponentDeployment the operator generates for one component (docs/operator-semantics.md#child-names)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.naming import dcd_name
from kubectl_dgd.core.render.context import Graph, is_worker, mapping
from kubectl_dgd.core.render.objects import metadata
from kubectl_dgd.core.render.podtemplate import dcd_labels, pod_template

DCD_API_VERSION = "nvidia.com/v1beta1"
TOPOLOGY_LABEL_KEY_ANNOTATION = "nvidia.com/topology-label-key"
TOPOLOGY_CLUSTER_ANNOTATION = "nvidia.com/topology-cluster-topology-name"


def dcd_annotations(graph: Graph, component: dict[str, Any]) -> dict[str, str]:
    """Operator annotations on the DCD object: the kvTransferPolicy topology source for workers."""
    policy = mapping(mapping(graph.spec.get("experimental")).get("kvTransferPolicy"))
    if not policy or not is_worker(component):
        return {}
    if policy.get("labelKey"):
        return {TOPOLOGY_LABEL_KEY_ANNOTATION: str(policy["labelKey"])}
    if policy.get("clusterTopologyName"):
        return {TOPOLOGY_CLUSTER_ANNOTATION: str(policy["clusterTopologyName"])}
    return {}


def build_dcd(
    graph: Graph, component: dict[str, Any], worker_hash: str | None, *, restart: bool = True
) -> dict[str, Any]:
    """The DCD: the component's spec with the merged pod template and the resolved backend."""
    name = str(component.get("name"))
    template = pod_template(graph, component, worker_hash, restart=restart)
    spec = deep_copy(component)
    spec["podTemplate"] = template
    backend = graph.backends.get(name)
    if backend:
        spec["backendFramework"] = backend
    hashed = worker_hash if is_worker(component) else None
    return {
        "apiVersion": DCD_API_VERSION,
        "kind": "DynamoComponentDeployment",
        "metadata": metadata(
            dcd_name(graph.name, name, hashed),
            graph.namespace,
            labels=dcd_labels(graph, component, hashed),
            annotations=dcd_annotations(graph, component),
        ),
        "spec": spec,
    }
