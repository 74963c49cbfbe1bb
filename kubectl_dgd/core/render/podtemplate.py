"""The pod template the operator builds for a component (docs/operator-semantics.md#pod-template-merge).

Order matters and follows the operator: graph env merged into ``main`` (component wins, sorted
by name); EPP's istio annotation before the graph annotations so a graph-wide value cannot win;
the five propagated DGD metadata annotations when absent; ``spec.annotations``/``spec.labels`` as
a low-priority base; system labels last so users cannot override them.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import MAIN_CONTAINER
from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.graph import ENABLE_METRICS_ANNOTATION, PROPAGATED_ANNOTATIONS
from kubectl_dgd.core.graph import WORKER_HASH_LABEL as LABEL_WORKER_HASH
from kubectl_dgd.core.naming import child_name, runtime_namespace
from kubectl_dgd.core.profile import at_least
from kubectl_dgd.core.render.context import Graph, is_worker, items, mapping

RESTART_AT_ANNOTATION = "nvidia.com/restartAt"
ISTIO_INJECT_ANNOTATION = "sidecar.istio.io/inject"
PLANNER_SERVICE_ACCOUNT = "planner-serviceaccount"

LABEL_GRAPH = "nvidia.com/dynamo-graph-deployment-name"
LABEL_COMPONENT = "nvidia.com/dynamo-component"
LABEL_COMPONENT_TYPE = "nvidia.com/dynamo-component-type"
LABEL_COMPONENT_CLASS = "nvidia.com/dynamo-component-class"
LABEL_NAMESPACE = "nvidia.com/dynamo-namespace"
LABEL_SELECTOR = "nvidia.com/selector"
LABEL_METRICS = "nvidia.com/metrics-enabled"
LABEL_DISCOVERY_BACKEND = "nvidia.com/dynamo-discovery-backend"
LABEL_DISCOVERY_ENABLED = "nvidia.com/dynamo-discovery-enabled"
# Set for every prefill and decode component: the operator's v1alpha1 view of a v1beta1
# prefill/decode type is componentType worker + subComponentType.
LABEL_SUB_COMPONENT_TYPE = "nvidia.com/dynamo-sub-component-type"
SUB_COMPONENT_TYPES = ("prefill", "decode")


def component_namespace(graph: Graph, component: dict[str, Any]) -> str:
    return runtime_namespace(
        graph.namespace, graph.name, bool(component.get("globalDynamoNamespace"))
    )


def system_labels(
    graph: Graph, component: dict[str, Any], worker_hash: str | None
) -> dict[str, str]:
    """The labels the operator re-applies last on every pod (and on the DCD)."""
    name = str(component.get("name"))
    labels = {LABEL_GRAPH: graph.name, LABEL_COMPONENT: name}
    if component.get("type"):
        labels[LABEL_COMPONENT_TYPE] = str(component["type"])
    if component.get("type") in SUB_COMPONENT_TYPES:
        labels[LABEL_SUB_COMPONENT_TYPE] = str(component["type"])
    if is_worker(component) and graph.has_epp:
        labels[LABEL_COMPONENT_CLASS] = "worker"
    labels[LABEL_NAMESPACE] = component_namespace(graph, component)
    if worker_hash and is_worker(component):
        labels[LABEL_WORKER_HASH] = worker_hash
    if graph.kubernetes_discovery:
        labels[LABEL_DISCOVERY_BACKEND] = "kubernetes"
        labels[LABEL_DISCOVERY_ENABLED] = "true"
    return labels


def generation_labels(
    graph: Graph, component: dict[str, Any], worker_hash: str | None
) -> dict[str, str]:
    """What the graph controller stamps on a worker DCD and its template: the worker hash, and
    the worker class when the graph has an EPP."""
    labels: dict[str, str] = {}
    if is_worker(component):
        if worker_hash:
            labels[LABEL_WORKER_HASH] = worker_hash
        if graph.has_epp:
            labels[LABEL_COMPONENT_CLASS] = "worker"
    return labels


def dcd_labels(graph: Graph, component: dict[str, Any], worker_hash: str | None) -> dict[str, str]:
    """The DCD object's labels: the component's own pod template labels (before the graph's are
    merged in), the identity labels and the generation labels."""
    own = _strings(mapping(mapping(component.get("podTemplate")).get("metadata")).get("labels"))
    return {
        **own,
        LABEL_COMPONENT: str(component.get("name")),
        LABEL_NAMESPACE: component_namespace(graph, component),
        LABEL_GRAPH: graph.name,
        **generation_labels(graph, component, worker_hash),
    }


def kube_labels(dcd: dict[str, Any], preserved: dict[str, str] | None = None) -> dict[str, str]:
    """The labels the DCD controller starts every workload and Service from (GetDCDKubeLabels):
    the DCD's own labels, the preserved v1alpha1 service labels, then its pod template's."""
    template_labels = dcd["spec"]["podTemplate"]["metadata"].get("labels", {})
    labels = {**dcd["metadata"].get("labels", {}), **(preserved or {}), **template_labels}
    if dcd["spec"].get("type") in SUB_COMPONENT_TYPES:
        labels[LABEL_SUB_COMPONENT_TYPE] = str(dcd["spec"]["type"])
    return labels


def workload_pod_labels(
    graph: Graph, component: dict[str, Any], dcd: dict[str, Any], worker_hash: str | None
) -> dict[str, str]:
    """The Deployment (or LeaderWorkerSet) pod labels the DCD controller renders."""
    labels = kube_labels(dcd, graph.preserved(component, "labels"))
    annotations = dcd["spec"]["podTemplate"]["metadata"].get("annotations", {})
    # The pod template's annotation (a component value, else the propagated graph value) decides.
    if annotations.get(ENABLE_METRICS_ANNOTATION) != "false":
        labels[LABEL_METRICS] = "true"
    labels.update(system_labels(graph, component, worker_hash))
    labels[LABEL_SELECTOR] = dcd["metadata"]["name"]
    return dict(sorted(labels.items()))


def workload_pod_annotations(
    graph: Graph, component: dict[str, Any], dcd: dict[str, Any]
) -> dict[str, str]:
    """The Deployment (or LeaderWorkerSet) pod annotations: the preserved v1alpha1 service
    annotations under the DCD pod template's own (GetDCDKubeAnnotations' order)."""
    own = dcd["spec"]["podTemplate"]["metadata"].get("annotations", {})
    return dict(sorted({**graph.preserved(component, "annotations"), **own}.items()))


def merge_env(graph_env: list[dict[str, Any]], own: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Graph env then the container's, by name (the container wins), sorted by name."""
    merged = {str(e.get("name")): e for e in graph_env}
    merged.update({str(e.get("name")): e for e in own})
    return [deep_copy(merged[name]) for name in sorted(merged)]


def pod_template(
    graph: Graph, component: dict[str, Any], worker_hash: str | None, *, restart: bool = True
) -> dict[str, Any]:
    """The merged pod template; ``restart=False`` leaves out ``nvidia.com/restartAt`` (the
    restart controller writes it separately, so it is not part of the worker hash)."""
    template = deep_copy(mapping(component.get("podTemplate")))
    meta = mapping(template.get("metadata"))
    spec = mapping(template.get("spec"))
    containers = items(spec.get("containers"))
    main = next((c for c in containers if c.get("name") == MAIN_CONTAINER), None)
    if main is None:  # the operator creates a main container when there is none
        main = {"name": MAIN_CONTAINER}
        containers.append(main)
    graph_env = items(graph.spec.get("env"))
    if graph_env:
        main["env"] = merge_env(graph_env, items(main.get("env")))
    spec["containers"] = containers

    # Grove cliques carry the preserved v1alpha1 service metadata under the template's own; on
    # the component path it reaches the workload pods, not the DCD's template (kube_labels).
    grove = graph.provider == "grove"
    alpha_annotations = graph.preserved(component, "annotations") if grove else {}
    alpha_labels = graph.preserved(component, "labels") if grove else {}
    own_annotations = {
        **alpha_annotations,
        **{str(k): str(v) for k, v in mapping(meta.get("annotations")).items()},
    }
    if component.get("type") == "epp":
        own_annotations.setdefault(ISTIO_INJECT_ANNOTATION, "false")
    for key in PROPAGATED_ANNOTATIONS:
        if key in graph.annotations:
            own_annotations.setdefault(key, graph.annotations[key])
    annotations = {**_strings(graph.spec.get("annotations")), **own_annotations}
    if restart and graph.restart_id:
        annotations[RESTART_AT_ANNOTATION] = graph.restart_id

    labels = {**_strings(graph.spec.get("labels")), **alpha_labels, **_strings(meta.get("labels"))}
    if grove:
        # Grove reads the graph's own annotation, and only the exact value "false" turns it off.
        metrics_off = graph.annotations.get(ENABLE_METRICS_ANNOTATION) == "false"
        labels = ({} if metrics_off else {LABEL_METRICS: "true"}) | labels
        labels[LABEL_SELECTOR] = child_name(graph.name, str(component.get("name")))
        # Grove worker cliques carry the worker hash from 1.5 on (#12769).
        hashed = worker_hash if at_least(graph.operator_version, "1.5") else None
        labels.update(system_labels(graph, component, hashed))
    else:
        # The DCD's template carries only the generation labels; the DCD controller adds the
        # system labels when it builds the Deployment (workload_pod_labels).
        labels.update(generation_labels(graph, component, worker_hash))

    if component.get("type") == "planner":
        spec["serviceAccountName"] = PLANNER_SERVICE_ACCOUNT
    if labels:
        meta["labels"] = dict(sorted(labels.items()))
    else:
        meta.pop("labels", None)
    if annotations:
        meta["annotations"] = dict(sorted(annotations.items()))
    else:
        meta.pop("annotations", None)
    return {"metadata": meta, "spec": spec}


def not_shown(graph: Graph, component: dict[str, Any]) -> str:
    """What the operator adds to this component's pods that an offline preview cannot know."""
    parts = [
        "operator-injected container defaults (command/args, probes, ports, resources)",
        "DYN_* and DYNAMO_* env (e.g. DYN_NAMESPACE, DYNAMO_PORT)",
    ]
    if is_worker(component):
        backend = graph.backends.get(str(component.get("name")))
        parts.append(f"backend-specific flags and env ({backend or 'no backend detected'})")
        parts.append("DYN_NAMESPACE_WORKER_SUFFIX")
    if "multinode" in component:
        parts.append("leader/worker role-specific command, args and env")
    shm = component.get("sharedMemorySize")
    if str(shm) != "0":
        parts.append(f"/dev/shm memory volume ({shm or '8Gi'})")
    if "compilationCache" in component:
        parts.append("compilation cache PVC volume and mount")
    if is_worker(component) and "kvTransferPolicy" in mapping(graph.spec.get("experimental")):
        parts.append("kvTransferPolicy env (DYN_KV_TRANSFER_*, DYN_TOPOLOGY_*) and topology volume")
    if "modelRef" in component:
        parts.append("modelRef labels (nvidia.com/dynamo-base-model*)")
    if "gpuMemoryService" in mapping(component.get("experimental")):
        parts.append("GPU memory service containers, claim and toleration")
    if component.get("type") == "frontend" and graph.provider == "component":
        parts.append("Ingress/VirtualService from the operator's ingress configuration")
    return "; ".join(parts)


def _strings(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in mapping(value).items()}
