"""Reading the pods below a graph: scheduling, readiness, crash loops, and the Secrets,
ConfigMaps, PVCs and ServiceAccounts their templates refer to."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from kubectl_dgd.core.graph import items, mapping, read_graph
from kubectl_dgd.core.phase import graph_phase
from kubectl_dgd.core.why.report import (
    COMPONENT_LABEL,
    WhyInput,
)

IMAGE_PULL_WAITING = ("ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull")
START_FAILURES = ("CreateContainerError", "RunContainerError", "StartError")
# Objects every namespace has (Kubernetes makes them), never reported missing.
ALWAYS_THERE = {("ServiceAccount", "default"), ("ConfigMap", "kube-root-ca.crt")}
# 'secret "hf-token" not found', 'configmap "x" not found', kubelet and scheduler words.
_NOT_FOUND = re.compile(
    r'(secret|configmap|persistentvolumeclaim|serviceaccount)s? "([^"]+)" not found', re.I
)
_KINDS = {
    "secret": "Secret",
    "configmap": "ConfigMap",
    "persistentvolumeclaim": "PersistentVolumeClaim",
    "serviceaccount": "ServiceAccount",
}
MAX_NODES_SHOWN = 5
MAX_LOGS = 5  # previous logs read per run: one per crash-looping component and container


# -- reading pods ---------------------------------------------------------------------------


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    return mapping(obj.get("metadata"))


def _name(obj: Mapping[str, Any]) -> str:
    return str(_meta(obj).get("name") or "")


def _component(obj: Mapping[str, Any]) -> str:
    return str(mapping(_meta(obj).get("labels")).get(COMPONENT_LABEL) or "")


def _statuses(pod: Mapping[str, Any]) -> list[dict[str, Any]]:
    status = mapping(pod.get("status"))
    return items(status.get("initContainerStatuses")) + items(status.get("containerStatuses"))


def _unscheduled(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The pod's PodScheduled=False condition, when it is Pending on the scheduler."""
    status = mapping(pod.get("status"))
    if status.get("phase") not in (None, "Pending") or mapping(pod.get("spec")).get("nodeName"):
        return None
    for condition in items(status.get("conditions")):
        if condition.get("type") == "PodScheduled" and condition.get("status") == "False":
            return condition
    return None


def _is_ready(pod: Mapping[str, Any]) -> bool:
    conditions = items(mapping(pod.get("status")).get("conditions"))
    return any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)


def graph_pods(inputs: WhyInput) -> list[Mapping[str, Any]]:
    pods: list[Mapping[str, Any]] = [o for o in inputs.objects if o.get("kind") == "Pod"]
    return sorted(pods, key=_name)


def pending_on_scheduler(pods: Iterable[Mapping[str, Any]]) -> bool:
    """Whether any pod waits for the scheduler (then the nodes are worth reading)."""
    return any(_unscheduled(pod) is not None for pod in pods)


def crash_looping(pods: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(pod, container) whose previous log to read: the first pod (by name) of each component
    and container in a crash loop that is not an OOM kill, at most MAX_LOGS."""
    wanted: dict[tuple[str, str], tuple[str, str]] = {}
    for pod in sorted(pods, key=_name):
        for container in _statuses(pod):
            waiting = mapping(mapping(container.get("state")).get("waiting"))
            last = mapping(mapping(container.get("lastState")).get("terminated"))
            if waiting.get("reason") == "CrashLoopBackOff" and last.get("reason") != "OOMKilled":
                key = (_component(pod), str(container.get("name") or ""))
                wanted.setdefault(key, (_name(pod), key[1]))
    return list(wanted.values())[:MAX_LOGS]


def needs_operator(
    graph: Mapping[str, Any], pods: Iterable[Mapping[str, Any]] | None = None
) -> bool:
    """Whether to look at the operator: the graph is not Ready, or not observed yet, or (given
    its pods) its Ready status is stale (no pod at all, where components want some)."""
    phase = graph_phase(read_graph(dict(graph)))
    if not phase.reported or phase.unobserved or not phase.ready or phase.failed:
        return True
    return pods is not None and bool(stale_without_pods(graph, pods))


def stale_without_pods(graph: Mapping[str, Any], pods: Iterable[Mapping[str, Any]]) -> list[str]:
    """When the graph has no pod at all: its components that want replicas, in spec order
    (else []). Only "none at all" counts: some releases may label pods otherwise, and one
    component's missing pods show as not ready in its own status."""
    if any(True for _ in pods):
        return []
    return [c.name for c in read_graph(dict(graph)).components if c.desired_replicas > 0]


# -- references -----------------------------------------------------------------------------


def _refs(spec: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """(kind, name, where, key) of every object a pod spec needs to exist (optional ones left
    out); ``key`` is the Secret's or ConfigMap's key an env entry reads, else ""."""
    found: list[tuple[str, str, str, str]] = []

    def add(kind: str, ref: Mapping[str, Any], field_: str, where: str) -> None:
        name = ref.get(field_)
        if name and not ref.get("optional"):
            found.append((kind, str(name), where, str(ref.get("key") or "")))

    for container in items(spec.get("initContainers")) + items(spec.get("containers")):
        cname = str(container.get("name") or "")
        for env in items(container.get("env")):
            source = mapping(env.get("valueFrom"))
            where = f"env {env.get('name')} of container {cname}"
            add("Secret", mapping(source.get("secretKeyRef")), "name", where)
            add("ConfigMap", mapping(source.get("configMapKeyRef")), "name", where)
        for env in items(container.get("envFrom")):
            where = f"envFrom of container {cname}"
            add("Secret", mapping(env.get("secretRef")), "name", where)
            add("ConfigMap", mapping(env.get("configMapRef")), "name", where)
    for volume in items(spec.get("volumes")):
        where = f"volume {volume.get('name')}"
        add("Secret", mapping(volume.get("secret")), "secretName", where)
        add("ConfigMap", mapping(volume.get("configMap")), "name", where)
        add(
            "PersistentVolumeClaim",
            mapping(volume.get("persistentVolumeClaim")),
            "claimName",
            where,
        )
        for source in items(mapping(volume.get("projected")).get("sources")):
            add("Secret", mapping(source.get("secret")), "name", where)
            add("ConfigMap", mapping(source.get("configMap")), "name", where)
    account = spec.get("serviceAccountName") or spec.get("serviceAccount")
    if account:
        found.append(("ServiceAccount", str(account), "serviceAccountName", ""))
    return found


def _pull_secrets(spec: Mapping[str, Any]) -> list[str]:
    return [str(s.get("name")) for s in items(spec.get("imagePullSecrets")) if s.get("name")]
