"""The children the Dynamo operator (and Kubernetes' controllers) create for a DGD, simulated.

Component path: DGD -> DynamoComponentDeployment ``<dgd>-<component>`` (workers add
``-<worker hash>``) -> Deployment of the same name -> ReplicaSet ``<deploy>-<template hash>`` ->
Pods ``<rs>-<index>``; a multinode component (``multinode.nodeCount``, default 2) gets a
LeaderWorkerSet ``<dcd>-0`` instead, which (as the LWS controller does) runs a leader
StatefulSet ``<lws>`` with a leader pod ``<lws>-<group>`` per replica, and per leader pod a
worker StatefulSet ``<lws>-<group>`` with pods ``<lws>-<group>-<1..n-1>``, each pod labelled
``leaderworkerset.sigs.k8s.io/name``. Grove path: DGD -> PodCliqueSet ``<dgd>`` -> PodClique
``<dgd>-0-<component>`` -> Pods; multinode: PodCliqueScalingGroup ``<dgd>-0-<component>`` ->
per replica i the cliques ``<pcsg>-<i>-<component>-ldr`` (1 pod) and ``...-wkr`` (n-1 pods).
Every child has an owner reference to its parent and the operator's labels
(``nvidia.com/dynamo-graph-deployment-name``, ``nvidia.com/dynamo-component``); the
LeaderWorkerSets and scaling groups report ready replicas (groups whose pods are all ready).

A simple scheduler places each new pod on the first node (by name) with enough free
``nvidia.com/gpu`` (allocatable minus the requests of pods bound there); when none has, the pod
stays Pending with ``PodScheduled`` False, reason Unschedulable and the scheduler's message, plus a
FailedScheduling Event. With no Node objects at all, pods run without a node. A container whose
Secret (``env[].valueFrom.secretKeyRef``, ``envFrom[].secretRef``) is missing waits in
CreateContainerConfigError; ``faults`` (component name -> ImagePullBackOff, CrashLoopBackOff or
OOMKilled) makes a component's containers fail that way, and with ``logs`` set a crashed
container leaves a previous log (``crash_logs[component]``, or one default line).

The scheduler also filters nodes as kube-scheduler does before it counts GPUs: a pod whose
``nodeSelector`` a node's labels do not match, or that does not tolerate a node's NoSchedule
taint, cannot go there; a PersistentVolumeClaim the pod mounts that is missing or not Bound
keeps it Pending; the message counts the nodes per reason, as the real one. A pod template's
``serviceAccountName`` that does not exist stops the ReplicaSet creating pods (a FailedCreate
Event on it), as the ServiceAccount admission plugin does.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.apiserver import errors
from tests.apiserver.resources import (
    DCD,
    DEPLOYMENTS,
    EVENTS,
    LEADERWORKERSETS,
    NODES,
    PODCLIQUES,
    PODCLIQUESCALINGGROUPS,
    PODCLIQUESETS,
    PODS,
    PVCS,
    REPLICASETS,
    SECRETS,
    SERVICEACCOUNTS,
    STATEFULSETS,
    ResourceType,
)
from tests.apiserver.store import Obj, Store

if TYPE_CHECKING:
    from tests.apiserver.podlogs import PodLogs

DGD_LABEL = "nvidia.com/dynamo-graph-deployment-name"
COMPONENT_LABEL = "nvidia.com/dynamo-component"
GPU = "nvidia.com/gpu"
LWS_NAME_LABEL = "leaderworkerset.sigs.k8s.io/name"
LWS_GROUP_LABEL = "leaderworkerset.sigs.k8s.io/group-index"


def _ref(obj: Obj) -> dict[str, Any]:
    meta = obj["metadata"]
    return {
        "apiVersion": obj["apiVersion"],
        "kind": obj["kind"],
        "name": meta["name"],
        "uid": meta["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def _ensure(store: Store, rt: ResourceType, namespace: str, obj: Obj) -> Obj:
    """Create the object, or return the stored one (children are never rewritten here)."""
    try:
        return store.get(rt, namespace, obj["metadata"]["name"])
    except errors.ApiError:
        return store.create(rt, namespace, obj)


def _ensure_owned(
    store: Store, rt: ResourceType, owner: Obj, name: str, labels: dict[str, str], spec: Obj
) -> Obj:
    """``_ensure`` of a ``rt`` object named ``name`` that ``owner`` controls, in its namespace."""
    return _ensure(
        store,
        rt,
        owner["metadata"]["namespace"],
        {
            "apiVersion": rt.group_version,
            "kind": rt.kind,
            "metadata": {"name": name, "labels": labels, "ownerReferences": [_ref(owner)]},
            "spec": spec,
        },
    )


def _hash(value: Any, size: int = 10) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:size]


def nodes_per_replica(component: Obj) -> int:
    """1 for a single-node component; ``multinode.nodeCount`` (default 2) for a multinode one."""
    multinode = component.get("multinode")
    if not isinstance(multinode, dict):
        return 1
    return int(multinode.get("nodeCount", 2))


def pod_gpus(spec: Obj, resource: str = GPU) -> int:
    total = 0
    for container in spec.get("containers") or []:
        resources = container.get("resources") or {}
        value = (resources.get("limits") or {}).get(resource) or (
            resources.get("requests") or {}
        ).get(resource)
        total += int(value or 0)
    return total


def gpu_resource(spec: Obj) -> str:
    """The pod's MIG profile (an extended resource of its own, as the GPU operator's mixed
    strategy exposes them) when it asks for one, else nvidia.com/gpu."""
    for container in spec.get("containers") or []:
        resources = container.get("resources") or {}
        for key in sorted({**(resources.get("requests") or {}), **(resources.get("limits") or {})}):
            if key.startswith("nvidia.com/mig-"):
                return str(key)
    return GPU


class Children:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.faults: dict[str, str] = {}  # component -> failure mode
        self.logs: PodLogs | None = None  # where a crashed container's previous log goes
        self.crash_logs: dict[str, list[str]] = {}  # component -> its previous log's lines

    # -- the operator's objects -----------------------------------------------------------------

    def reconcile(self, dgd: Obj, worker_hash: str, grove: bool) -> None:
        name = dgd["metadata"]["name"]
        if grove:
            pcs = _ensure_owned(
                self.store, PODCLIQUESETS, dgd, name, {DGD_LABEL: name}, {"replicas": 1}
            )
        for component in dgd["spec"].get("components") or []:
            cname = component["name"]
            labels = {DGD_LABEL: name, COMPONENT_LABEL: cname}
            template = component.get("podTemplate") or {}
            replicas = int(component.get("replicas", 1))
            nodes = nodes_per_replica(component)
            if grove and nodes > 1:
                self._scaling_group(pcs, cname, labels, template, replicas, nodes)
                continue
            if grove:
                clique = _ensure_owned(
                    self.store,
                    PODCLIQUES,
                    pcs,
                    f"{name}-0-{cname.lower()}",
                    labels,
                    {"replicas": replicas, "podSpec": template.get("spec") or {}},
                )
                self._pods(clique, cname, labels, template, replicas)
                continue
            worker = component.get("type") in ("worker", "prefill", "decode")
            child = f"{name}-{cname.lower()}" + (f"-{worker_hash}" if worker else "")
            dcd = _ensure_owned(
                self.store, DCD, dgd, child, labels, {"replicas": replicas, "podTemplate": template}
            )
            if nodes > 1:
                self._leader_worker_set(dcd, cname, labels, template, replicas, nodes)
            else:
                self._deployment(dcd, cname, labels, template, replicas)

    def _scaling_group(
        self, pcs: Obj, cname: str, labels: dict[str, str], template: Obj, replicas: int, nodes: int
    ) -> None:
        lower = cname.lower()
        pcsg = _ensure_owned(
            self.store,
            PODCLIQUESCALINGGROUPS,
            pcs,
            f"{pcs['metadata']['name']}-0-{lower}",
            labels,
            {"replicas": replicas, "cliqueNames": [f"{lower}-ldr", f"{lower}-wkr"]},
        )
        complete = 0
        for index in range(replicas):
            ready = 0
            for role, count in (("ldr", 1), ("wkr", nodes - 1)):
                clique = _ensure_owned(
                    self.store,
                    PODCLIQUES,
                    pcsg,
                    f"{pcsg['metadata']['name']}-{index}-{lower}-{role}",
                    labels,
                    {"replicas": count, "podSpec": template.get("spec") or {}},
                )
                ready += self._pods(clique, cname, labels, template, count)
            complete += int(ready == nodes)
        self._report(PODCLIQUESCALINGGROUPS, pcsg, replicas, complete)

    def _leader_worker_set(
        self, dcd: Obj, cname: str, labels: dict[str, str], template: Obj, replicas: int, nodes: int
    ) -> None:
        namespace, name = dcd["metadata"]["namespace"], f"{dcd['metadata']['name']}-0"
        pod_template = {"metadata": {"labels": labels}, "spec": template.get("spec") or {}}
        lws = _ensure_owned(
            self.store,
            LEADERWORKERSETS,
            dcd,
            name,
            labels,
            {
                "replicas": replicas,
                "leaderWorkerTemplate": {"size": nodes, "workerTemplate": pod_template},
            },
        )
        leader_labels = {**labels, LWS_NAME_LABEL: name}
        leaders = self._stateful_set(lws, name, leader_labels, replicas)
        self._pods(leaders, cname, leader_labels, pod_template, replicas)
        complete = 0
        for group in range(replicas):
            try:
                leader = self.store.get(PODS, namespace, f"{name}-{group}")
            except errors.ApiError:
                continue  # not created (a missing ServiceAccount)
            worker_labels = {**leader_labels, LWS_GROUP_LABEL: str(group)}
            workers = self._stateful_set(leader, f"{name}-{group}", worker_labels, nodes - 1)
            ready = _ready(leader)
            ready += self._pods(workers, cname, worker_labels, pod_template, nodes - 1, first=1)
            complete += int(ready == nodes)
        self._report(LEADERWORKERSETS, lws, replicas, complete)

    def _stateful_set(self, owner: Obj, name: str, labels: dict[str, str], replicas: int) -> Obj:
        return _ensure_owned(self.store, STATEFULSETS, owner, name, labels, {"replicas": replicas})

    def _report(self, rt: ResourceType, obj: Obj, replicas: int, ready: int) -> None:
        """A group controller's status: its replicas, and those whose pods are all ready."""
        status = {"replicas": replicas, "readyReplicas": ready, "availableReplicas": ready}
        if obj.get("status") != status:
            namespace, name = obj["metadata"]["namespace"], obj["metadata"]["name"]
            self.store.write_status(rt, namespace, name, status)

    def _deployment(
        self, dcd: Obj, cname: str, labels: dict[str, str], template: Obj, replicas: int
    ) -> None:
        namespace, name = dcd["metadata"]["namespace"], dcd["metadata"]["name"]
        pod_template = {"metadata": {"labels": labels}, "spec": template.get("spec") or {}}
        deploy = _ensure_owned(
            self.store,
            DEPLOYMENTS,
            dcd,
            name,
            labels,
            {"replicas": replicas, "template": pod_template},
        )
        if deploy["spec"].get("template") != pod_template or deploy["spec"]["replicas"] != replicas:
            deploy = self.store.patch(
                DEPLOYMENTS,
                namespace,
                name,
                lambda obj: {
                    **obj,
                    "spec": {**obj["spec"], "replicas": replicas, "template": pod_template},
                },
            )
        template_hash = _hash(pod_template)
        current = f"{name}-{template_hash}"
        sets, _ = self.store.list(
            REPLICASETS,
            namespace,
            lambda obj: any(
                r.get("uid") == deploy["metadata"]["uid"]
                for r in obj["metadata"].get("ownerReferences") or []
            ),
        )
        rs_labels = {**labels, "pod-template-hash": template_hash}
        new_rs = _ensure_owned(
            self.store,
            REPLICASETS,
            deploy,
            current,
            rs_labels,
            {"replicas": replicas, "template": pod_template},
        )
        if new_rs["spec"].get("replicas") != replicas:
            new_rs = self.store.patch(REPLICASETS, namespace, current, _scale(replicas))
        ready_new = self._pods(new_rs, cname, rs_labels, pod_template, replicas)
        # Old generations shrink as new pods become ready (a rolling update), then stay at 0.
        for old in sets:
            if old["metadata"]["name"] == current:
                continue
            keep = max(0, int(old["spec"]["replicas"]) - ready_new)
            if keep != old["spec"]["replicas"]:
                self.store.patch(REPLICASETS, namespace, old["metadata"]["name"], _scale(keep))
            self._pods(
                old, cname, old["metadata"].get("labels") or {}, old["spec"]["template"], keep
            )

    # -- managed rolling updates ------------------------------------------------------------------

    def generation_ready(self, namespace: str, dcd_name: str) -> int:
        """Ready pods of one worker DCD (one generation): its pods are named after it."""
        pods, _ = self.store.list(
            PODS, namespace, lambda pod: pod["metadata"]["name"].startswith(dcd_name + "-")
        )
        return sum(_ready(pod) for pod in pods)

    def old_generation(self, dgd: Obj, old_hash: str, keep: dict[str, int]) -> None:
        """The old worker DCDs run their own (old) template at ``keep`` replicas each, as the
        operator drains them while the new generation comes up."""
        namespace, name = dgd["metadata"]["namespace"], dgd["metadata"]["name"]
        for cname, replicas in keep.items():
            try:
                dcd = self.store.get(DCD, namespace, f"{name}-{cname.lower()}-{old_hash}")
            except errors.ApiError:
                continue
            if dcd["spec"].get("replicas") != replicas:
                dcd = self.store.patch(DCD, namespace, dcd["metadata"]["name"], _scale(replicas))
            labels = {DGD_LABEL: name, COMPONENT_LABEL: cname}
            self._deployment(dcd, cname, labels, dcd["spec"].get("podTemplate") or {}, replicas)

    def delete_generation(self, namespace: str, dcd_name: str) -> None:
        """The old worker DCD and everything below it (the operator deletes it at Completed)."""
        for rt in (PODS, REPLICASETS):
            found, _ = self.store.list(
                rt, namespace, lambda obj: obj["metadata"]["name"].startswith(dcd_name + "-")
            )
            for obj in found:
                self.store.delete(rt, namespace, obj["metadata"]["name"])
        for rt in (DEPLOYMENTS, DCD):
            with contextlib.suppress(errors.ApiError):
                self.store.delete(rt, namespace, dcd_name)

    # -- pods -----------------------------------------------------------------------------------

    def _pods(
        self,
        owner: Obj,
        cname: str,
        labels: dict[str, str],
        template: Obj,
        count: int,
        first: int = 0,
    ) -> int:
        """Pods ``<owner>-<index>``, ``count`` of them numbered from ``first`` (extra ones
        deleted); how many are ready."""
        namespace, name = owner["metadata"]["namespace"], owner["metadata"]["name"]
        uid = owner["metadata"]["uid"]
        pods, _ = self.store.list(
            PODS,
            namespace,
            lambda obj: any(
                r.get("uid") == uid for r in obj["metadata"].get("ownerReferences") or []
            ),
        )
        for pod in pods:
            index = int(pod["metadata"]["name"].rsplit("-", 1)[1])
            if index >= first + count:
                self.store.delete(PODS, namespace, pod["metadata"]["name"])
        have = {pod["metadata"]["name"] for pod in pods}
        ready = 0
        for index in range(first, first + count):
            pod_name = f"{name}-{index}"
            if pod_name not in have:
                if self._missing_service_account(owner, pod_name, template):
                    continue
                pod = self._new_pod(owner, pod_name, labels, template)
                self._place(pod, cname)
            pod = self.store.get(PODS, namespace, pod_name)
            if pod["metadata"]["name"] not in have and pod["status"].get("phase") == "Pending":
                self._place(pod, cname)
            ready += _ready(self.store.get(PODS, namespace, pod_name))
        return ready

    def _missing_service_account(self, owner: Obj, pod_name: str, template: Obj) -> bool:
        namespace = owner["metadata"]["namespace"]
        account = (template.get("spec") or {}).get("serviceAccountName") or "default"
        if account == "default":
            return False  # every namespace has it
        try:
            self.store.get(SERVICEACCOUNTS, namespace, account)
        except errors.ApiError:
            message = (
                f'Error creating: pods "{pod_name}" is forbidden: error looking up service '
                f'account {namespace}/{account}: serviceaccount "{account}" not found'
            )
            seen, _ = self.store.list(EVENTS, namespace, lambda e: e.get("message") == message)
            if not seen:  # the controller retries with back-off; one Event is enough here
                self.event(owner, "Warning", "FailedCreate", message, "replicaset-controller")
            return True
        return False

    def _new_pod(self, owner: Obj, name: str, labels: dict[str, str], template: Obj) -> Obj:
        namespace = owner["metadata"]["namespace"]
        pod = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "labels": labels, "ownerReferences": [_ref(owner)]},
            "spec": json.loads(json.dumps(template.get("spec") or {})),
        }
        self.store.create(PODS, namespace, pod)
        return self.store.write_status(PODS, namespace, name, {"phase": "Pending"})

    def _place(self, pod: Obj, cname: str) -> None:
        namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        now = self.store.clock().strftime("%Y-%m-%dT%H:%M:%SZ")
        nodes, _ = self.store.list(NODES, None)
        node_name = ""
        if nodes:
            message, fits = self._filter(pod, nodes)
            if not fits:
                status = {
                    "phase": "Pending",
                    "conditions": [
                        {
                            "type": "PodScheduled",
                            "status": "False",
                            "reason": "Unschedulable",
                            "message": message,
                            "lastTransitionTime": now,
                        }
                    ],
                }
                self.store.write_status(PODS, namespace, name, status)
                self.event(pod, "Warning", "FailedScheduling", message, "default-scheduler")
                return
            node_name = fits[0]
            self.store.patch(
                PODS,
                namespace,
                name,
                lambda obj: {**obj, "spec": {**obj["spec"], "nodeName": node_name}},
            )
            self.event(
                pod,
                "Normal",
                "Scheduled",
                f"Successfully assigned {namespace}/{name} to {node_name}",
                "default-scheduler",
            )
        self.store.write_status(PODS, namespace, name, self._run(pod, cname, now))

    def _filter(self, pod: Obj, nodes: list[Obj]) -> tuple[str, list[str]]:
        """The nodes (by name) the pod fits, or the scheduler's message why none does."""
        spec = pod["spec"]
        total = len(nodes)
        claim = self._unbound_claim(pod)
        if claim:
            return f"0/{total} nodes are available: {claim}.", []
        resource = gpu_resource(spec)
        wanted = pod_gpus(spec, resource)
        free = self.free_gpus(resource)
        selector = spec.get("nodeSelector") or {}
        tolerated = {t.get("key") for t in spec.get("tolerations") or []}
        reasons: dict[str, int] = {}
        fits = []
        for node in sorted(nodes, key=lambda n: str(n["metadata"]["name"])):
            node_labels = node["metadata"].get("labels") or {}
            taints = [
                t
                for t in (node.get("spec") or {}).get("taints") or []
                if t.get("effect") == "NoSchedule" and t.get("key") not in tolerated
            ]
            if any(node_labels.get(k) != v for k, v in selector.items()):
                why = "node(s) didn't match Pod's node affinity/selector"
            elif taints:
                taint = taints[0]
                why = f"node(s) had untolerated taint {{{taint['key']}: {taint.get('value', '')}}}"
            elif free.get(node["metadata"]["name"], 0) < wanted:
                why = f"Insufficient {resource}"
            else:
                fits.append(str(node["metadata"]["name"]))
                continue
            reasons[why] = reasons.get(why, 0) + 1
        counted = ", ".join(f"{count} {why}" for why, count in sorted(reasons.items()))
        return f"0/{total} nodes are available: {counted}.", fits

    def _unbound_claim(self, pod: Obj) -> str:
        """The scheduler's words for a claimed volume that is missing or not Bound, or ""."""
        namespace = pod["metadata"]["namespace"]
        for volume in pod["spec"].get("volumes") or []:
            claim = (volume.get("persistentVolumeClaim") or {}).get("claimName")
            if not claim:
                continue
            try:
                pvc = self.store.get(PVCS, namespace, claim)
            except errors.ApiError:
                return f'persistentvolumeclaim "{claim}" not found'
            if (pvc.get("status") or {}).get("phase") != "Bound":
                return "pod has unbound immediate PersistentVolumeClaims"
        return ""

    def _run(self, pod: Obj, cname: str, now: str) -> Obj:
        """The status the kubelet would report for the pod's containers."""
        fault = self.faults.get(cname) or self._missing_secret(pod)
        statuses = []
        for container in pod["spec"].get("containers") or []:
            entry: Obj = {
                "name": container.get("name", ""),
                "image": container.get("image", ""),
                "restartCount": 0,
                "ready": fault is None,
                "started": fault is None,
            }
            if fault is None:
                entry["state"] = {"running": {"startedAt": now}}
            elif fault == "ImagePullBackOff":
                message = f'Back-off pulling image "{entry["image"]}"'
                entry["state"] = {"waiting": {"reason": fault, "message": message}}
                self.event(pod, "Warning", "Failed", message, "kubelet")
            elif fault in ("CrashLoopBackOff", "OOMKilled"):
                code, reason = (137, "OOMKilled") if fault == "OOMKilled" else (1, "Error")
                entry["restartCount"] = 5
                entry["state"] = {"waiting": {"reason": "CrashLoopBackOff"}}
                entry["lastState"] = {
                    "terminated": {"exitCode": code, "reason": reason, "finishedAt": now}
                }
                if self.logs is not None:
                    lines = self.crash_logs.get(cname) or [f"{cname}: exiting with code {code}"]
                    self.logs.append(
                        pod["metadata"]["namespace"],
                        pod["metadata"]["name"],
                        *lines,
                        container=entry["name"],
                        previous=True,
                    )
                self.event(
                    pod,
                    "Warning",
                    "BackOff",
                    f"Back-off restarting failed container {entry['name']} in pod "
                    f"{pod['metadata']['name']}",
                    "kubelet",
                )
            else:
                entry["state"] = {
                    "waiting": {"reason": "CreateContainerConfigError", "message": fault}
                }
                self.event(pod, "Warning", "Failed", f"Error: {fault}", "kubelet")
            statuses.append(entry)
        ok = fault is None
        conditions = [
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": now},
            {"type": "Initialized", "status": "True", "lastTransitionTime": now},
            {"type": "ContainersReady", "status": str(ok), "lastTransitionTime": now},
            {"type": "Ready", "status": str(ok), "lastTransitionTime": now},
        ]
        return {
            "phase": "Running" if ok or fault != "ImagePullBackOff" else "Pending",
            "conditions": conditions,
            "containerStatuses": statuses,
            "startTime": now,
        }

    def _missing_secret(self, pod: Obj) -> str | None:
        namespace = pod["metadata"]["namespace"]
        for container in pod["spec"].get("containers") or []:
            names = [
                ((e.get("valueFrom") or {}).get("secretKeyRef") or {}).get("name")
                for e in container.get("env") or []
            ] + [(e.get("secretRef") or {}).get("name") for e in container.get("envFrom") or []]
            for secret in filter(None, names):
                try:
                    self.store.get(SECRETS, namespace, secret)
                except errors.ApiError:
                    return f'secret "{secret}" not found'
        return None

    def ready_pods(self, dgd: Obj, component: str) -> int:
        """Ready replicas of one component (any generation), counted from its pods as the
        operator counts them (a multinode replica is its nodes' pods)."""
        spec: Obj = next(
            (c for c in dgd["spec"].get("components") or [] if c.get("name") == component), {}
        )
        return self._ready_pod_count(dgd, component) // nodes_per_replica(spec)

    def _ready_pod_count(self, dgd: Obj, component: str) -> int:
        meta = dgd["metadata"]
        pods, _ = self.store.list(
            PODS,
            meta["namespace"],
            lambda pod: (
                (pod["metadata"].get("labels") or {}).get(DGD_LABEL) == meta["name"]
                and (pod["metadata"].get("labels") or {}).get(COMPONENT_LABEL) == component
            ),
        )
        return sum(_ready(pod) for pod in pods)

    def free_gpus(self, resource: str = GPU) -> dict[str, int]:
        nodes, _ = self.store.list(NODES, None)
        pods, _ = self.store.list(PODS, None)
        free = {
            n["metadata"]["name"]: int(
                ((n.get("status") or {}).get("allocatable") or {}).get(resource, 0)
            )
            for n in nodes
        }
        for pod in pods:
            node = (pod.get("spec") or {}).get("nodeName")
            if node in free:
                free[node] -= pod_gpus(pod["spec"], resource)
        return free

    def event(self, obj: Obj, type_: str, reason: str, message: str, source: str) -> None:
        """An Event about ``obj``; a repeat raises the count of the existing one (as the
        kubelet's event correlator does)."""
        meta = obj["metadata"]
        namespace = meta["namespace"]
        moment = self.store.clock().strftime("%Y-%m-%dT%H:%M:%SZ")
        existing, _ = self.store.list(
            EVENTS,
            namespace,
            lambda e: (
                e["involvedObject"].get("uid") == meta["uid"]
                and e.get("reason") == reason
                and e.get("message") == message
            ),
        )
        if existing:
            self.store.patch(
                EVENTS,
                namespace,
                existing[0]["metadata"]["name"],
                lambda e: {**e, "count": int(e.get("count", 1)) + 1, "lastTimestamp": moment},
            )
            return
        self.store.create(
            EVENTS,
            namespace,
            {
                "apiVersion": "v1",
                "kind": "Event",
                "metadata": {"name": f"{meta['name']}.{uuid.uuid4().hex[:16]}"},
                "involvedObject": {
                    "apiVersion": obj.get("apiVersion", ""),
                    "kind": obj.get("kind", ""),
                    "name": meta["name"],
                    "namespace": namespace,
                    "uid": meta["uid"],
                },
                "reason": reason,
                "message": message,
                "type": type_,
                "source": {"component": source},
                "reportingComponent": source,
                "firstTimestamp": moment,
                "lastTimestamp": moment,
                "count": 1,
            },
        )


def _scale(replicas: int) -> Callable[[Obj], Obj]:
    return lambda obj: {**obj, "spec": {**obj["spec"], "replicas": replicas}}


def _ready(pod: Obj) -> int:
    conditions = (pod.get("status") or {}).get("conditions") or []
    return int(any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions))


def gpu_node(name: str, gpus: int, product: str = "NVIDIA-H100-80GB-HBM3") -> Obj:
    """A Node with ``gpus`` nvidia.com/gpu capacity and allocatable and the GPU product label."""
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": {"nvidia.com/gpu.product": product}},
        "status": {
            "capacity": {GPU: str(gpus), "cpu": "64"},
            "allocatable": {GPU: str(gpus), "cpu": "64"},
            "conditions": [{"type": "Ready", "status": "True"}],
        },
    }
