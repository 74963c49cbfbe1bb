"""The component pathway: DCD -> Deployment or LeaderWorkerSet, plus Services."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.graph import DEPLOYMENT_STRATEGY_ANNOTATION as STRATEGY_ANNOTATION
from kubectl_dgd.core.graph import MAX_SURGE_ANNOTATION, MAX_UNAVAILABLE_ANNOTATION
from kubectl_dgd.core.render.context import Graph, RenderError, is_multinode, is_worker, node_count
from kubectl_dgd.core.render.dcd import build_dcd
from kubectl_dgd.core.render.objects import (
    HASH_PREVIEW,
    NOT_SHOWN_ANNOTATION,
    NOTE_ANNOTATION,
    PREVIEW_ANNOTATION,
    RenderedObject,
    metadata,
)
from kubectl_dgd.core.render.podtemplate import (
    LABEL_SELECTOR,
    kube_labels,
    not_shown,
    workload_pod_annotations,
    workload_pod_labels,
)
from kubectl_dgd.core.render.services import component_service, wants_service

LWS_API_VERSION = "leaderworkerset.x-k8s.io/v1"
TOPOLOGY_IGNORED = "topologyConstraint is accepted but has no effect on the component path"


def render_component(
    graph: Graph, component: dict[str, Any], worker_hash: str | None
) -> list[RenderedObject]:
    source = f"{graph.name}/{component.get('name')}"
    dcd = build_dcd(graph, component, worker_hash)
    preview = {PREVIEW_ANNOTATION: HASH_PREVIEW} if is_worker(component) and worker_hash else {}
    notes = dict(preview)
    if "topologyConstraint" in component or "topologyConstraint" in graph.spec:
        notes[NOTE_ANNOTATION] = TOPOLOGY_IGNORED
    if notes:
        annotations = {**dcd["metadata"].get("annotations", {}), **notes}
        dcd["metadata"]["annotations"] = dict(sorted(annotations.items()))
    name = dcd["metadata"]["name"]
    hidden = {NOT_SHOWN_ANNOTATION: not_shown(graph, component)}
    if is_multinode(component):
        if not graph.lws:
            raise RenderError(
                f"{graph.name}: the operator would fail to reconcile: no multinode orchestrator available "
                f"(component {component.get('name')} is multinode and LeaderWorkerSet is disabled)"
            )
        backing = leader_worker_set(graph, component, dcd, worker_hash, {**preview, **hidden})
    else:
        backing = deployment(graph, component, dcd, worker_hash, {**preview, **hidden})
    result = [RenderedObject(source, dcd), RenderedObject(source, backing)]
    if wants_service(graph, component):
        labels = kube_labels(dcd, graph.preserved(component, "labels"))
        service = component_service(graph, component, name, labels)
        if preview:
            service["metadata"]["annotations"] = {
                **service["metadata"].get("annotations", {}),
                **preview,
            }
        result.append(RenderedObject(source, service))
    return result


def _int_or_percent(value: str) -> int | str:
    return int(value) if value.strip().isdigit() else value


def deployment_strategy(template_annotations: dict[str, str]) -> dict[str, Any]:
    if template_annotations.get(STRATEGY_ANNOTATION) == "Recreate":
        return {"type": "Recreate"}
    surge = template_annotations.get(MAX_SURGE_ANNOTATION, "25%")
    unavailable = template_annotations.get(MAX_UNAVAILABLE_ANNOTATION, "25%")
    return {
        "type": "RollingUpdate",
        "rollingUpdate": {
            "maxSurge": _int_or_percent(surge),
            "maxUnavailable": _int_or_percent(unavailable),
        },
    }


def deployment(
    graph: Graph,
    component: dict[str, Any],
    dcd: dict[str, Any],
    worker_hash: str | None,
    annotations: dict[str, str],
) -> dict[str, Any]:
    name = dcd["metadata"]["name"]
    template = dcd["spec"]["podTemplate"]
    pod_labels = workload_pod_labels(graph, component, dcd, worker_hash)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": metadata(name, graph.namespace, dcd["metadata"].get("labels"), annotations),
        "spec": {
            "replicas": component.get("replicas", 1),
            "selector": {"matchLabels": {LABEL_SELECTOR: name}},
            "strategy": deployment_strategy(template["metadata"].get("annotations", {})),
            "template": {
                "metadata": _pod_metadata(graph, component, dcd, pod_labels),
                "spec": template["spec"],
            },
        },
    }


def leader_worker_set(
    graph: Graph,
    component: dict[str, Any],
    dcd: dict[str, Any],
    worker_hash: str | None,
    annotations: dict[str, str],
) -> dict[str, Any]:
    """``<dcd>-0`` with group size = nodeCount; leader and workers share the component's template,
    and the workers' pods carry no selector label."""
    name = dcd["metadata"]["name"]
    labels = workload_pod_labels(graph, component, dcd, worker_hash)
    template = dcd["spec"]["podTemplate"]
    leader = deep_copy(template)
    leader["metadata"] = _pod_metadata(graph, component, dcd, labels)
    worker = deep_copy(template)
    worker_labels = {k: v for k, v in labels.items() if k != LABEL_SELECTOR}
    worker["metadata"] = _pod_metadata(graph, component, dcd, worker_labels)
    return {
        "apiVersion": LWS_API_VERSION,
        "kind": "LeaderWorkerSet",
        "metadata": metadata(
            f"{name}-0", graph.namespace, dcd["metadata"].get("labels"), annotations
        ),
        "spec": {
            "replicas": component.get("replicas", 1),
            "leaderWorkerTemplate": {
                "size": node_count(component),
                "leaderTemplate": leader,
                "workerTemplate": worker,
            },
        },
    }


def _pod_metadata(
    graph: Graph, component: dict[str, Any], dcd: dict[str, Any], labels: dict[str, str]
) -> dict[str, Any]:
    """The workload pod template's metadata: the DCD template's, with the workload labels and
    the pod annotations (preserved v1alpha1 annotations included)."""
    meta = {k: v for k, v in dcd["spec"]["podTemplate"]["metadata"].items() if k != "labels"}
    result: dict[str, Any] = {"labels": labels, **deep_copy(meta)}
    if graph.preserved(component, "annotations"):
        result["annotations"] = workload_pod_annotations(graph, component, dcd)
    return result
