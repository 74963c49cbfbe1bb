"""The tree of a live graph: the objects the operator built below it, linked by owner reference.

Pure: it gets the graph and every listed object (one list per kind), and links each object to
its controller (``metadata.ownerReferences`` by uid). Component path: DGD -> component ->
DynamoComponentDeployment -> Deployment -> ReplicaSet -> Pod, or -> LeaderWorkerSet -> Pod (its
pods by the LWS name label: their StatefulSets are not shown); Grove path:
DGD -> PodCliqueSet -> PodCliqueScalingGroup -> PodClique -> Pod. Components come from the spec
and hold the DCDs labelled with their name (``nvidia.com/dynamo-component``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph import read_graph
from kubectl_dgd.core.graph_events import GraphNames
from kubectl_dgd.core.node_gpus import pod_gpu_request
from kubectl_dgd.core.phase import graph_phase
from kubectl_dgd.core.timefmt import parse_time, seconds_between

COMPONENT_LABEL = "nvidia.com/dynamo-component"
# Marks the stand-in of an object that could not be read (its kind's LIST was forbidden).
UNREAD = "kubectl-dgd/unread"
LWS_LABEL = "leaderworkerset.sigs.k8s.io/name"

# Statuses, and what a reader should make of them (the symbol in text).
HEALTHY = "Healthy"
PROGRESSING = "Progressing"
DEGRADED = "Degraded"
SCALED_DOWN = "ScaledDown"
UNKNOWN = "Unknown"  # not readable: the account may not list its kind
RUNNING = "Running"
PENDING = "Pending"
# The reason of a component of the spec that nothing below the graph stands for.
NOTHING_FOUND = "no objects found"
NOTHING_READ = "no objects read (a LIST was refused)"
# Container waiting reasons that mean the pod will not become ready on its own.
BAD_WAITING = (
    "ImagePullBackOff",
    "ErrImagePull",
    "CrashLoopBackOff",
    "CreateContainerConfigError",
    "CreateContainerError",
    "InvalidImageName",
)


@dataclass
class TreeNode:
    """One object of `tree`, with the objects it owns."""

    kind: str
    name: str
    namespace: str
    status: str
    ready: str  # "ready/desired", or "" where it means nothing
    reason: str  # why an unhealthy pod is unhealthy ("" otherwise)
    restarts: int | None = None
    ageSeconds: int | None = None
    node: str | None = None
    gpus: int | None = None
    children: list[TreeNode] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "namespace": self.namespace,
            "status": self.status,
            "ready": self.ready,
            "reason": self.reason,
            "restarts": self.restarts,
            "ageSeconds": self.ageSeconds,
            "node": self.node,
            "gpus": self.gpus,
            "children": [child.to_data() for child in self.children],
        }


@dataclass
class TreeView:
    """``tree NAME``: the root, and one line per LIST that was refused (forbidden)."""

    root: TreeNode
    warnings: list[str]
    width: int = 80  # of the terminal, for text; not part of the data

    def to_data(self) -> dict[str, Any]:
        return {**self.root.to_data(), "warnings": list(self.warnings)}


# -- reading objects --------------------------------------------------------------------------


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, Mapping) else {}


def _section(obj: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = obj.get(key)
    return value if isinstance(value, Mapping) else {}


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _owner_ref(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    refs = _meta(obj).get("ownerReferences")
    for ref in refs if isinstance(refs, list) else []:
        if isinstance(ref, Mapping) and ref.get("controller", True):
            return ref
    return {}


def _owner_uid(obj: Mapping[str, Any]) -> str:
    return str(_owner_ref(obj).get("uid") or "")


def _unread_owners(
    objects: list[Mapping[str, Any]], graph_uid: str, unread: Iterable[str]
) -> list[Mapping[str, Any]]:
    """Stand-ins for the owners of listed objects whose kind could not be listed (forbidden):
    named by the owner reference, hung below the graph (the operator's objects are its), and
    labelled with their first child's component, so that what they own is still shown."""
    unread = set(unread)
    known = {str(_meta(obj).get("uid") or "") for obj in objects} | {graph_uid}
    stand_ins: dict[str, Mapping[str, Any]] = {}
    for obj in objects:
        ref = _owner_ref(obj)
        uid = str(ref.get("uid") or "")
        if ref.get("kind") in unread and uid and uid not in known and uid not in stand_ins:
            labels = _meta(obj).get("labels")
            component = labels.get(COMPONENT_LABEL) if isinstance(labels, Mapping) else None
            stand_ins[uid] = {
                "kind": str(ref.get("kind")),
                "metadata": {
                    "name": str(ref.get("name") or ""),
                    "namespace": _meta(obj).get("namespace"),
                    "uid": uid,
                    "labels": {COMPONENT_LABEL: component} if component else {},
                    "ownerReferences": [{"uid": graph_uid, "controller": True}],
                },
                UNREAD: True,
            }
    return list(stand_ins.values())


def _age(obj: Mapping[str, Any], now: datetime) -> int | None:
    return seconds_between(parse_time(_meta(obj).get("creationTimestamp")), now)


def pod_reason(pod: Mapping[str, Any]) -> str:
    """Why a pod is not ready, in the words a user searches for ("" when it is fine)."""
    status = _section(pod, "status")
    statuses = status.get("containerStatuses")
    for container in statuses if isinstance(statuses, list) else []:
        if not isinstance(container, Mapping):
            continue
        waiting = _section(_section(container, "state"), "waiting")
        reason = str(waiting.get("reason") or "")
        last = _section(_section(container, "lastState"), "terminated")
        if reason == "CrashLoopBackOff":
            if last.get("reason") == "OOMKilled":
                return f"OOMKilled (exit code {_int(last.get('exitCode'))})"
            return f"CrashLoopBackOff (exit code {_int(last.get('exitCode'))})"
        if reason in BAD_WAITING:
            message = str(waiting.get("message") or "")
            return f"{reason}: {message}" if message else reason
        terminated = _section(_section(container, "state"), "terminated")
        if terminated.get("reason") == "OOMKilled":
            return f"OOMKilled (exit code {_int(terminated.get('exitCode'))})"
    if status.get("phase") == PENDING:
        conditions = status.get("conditions")
        for condition in conditions if isinstance(conditions, list) else []:
            if (
                isinstance(condition, Mapping)
                and condition.get("type") == "PodScheduled"
                and condition.get("status") == "False"
            ):
                return str(condition.get("message") or condition.get("reason") or "Unschedulable")
    return ""


def _pod_node(pod: Mapping[str, Any], now: datetime) -> TreeNode:
    status = _section(pod, "status")
    statuses = [c for c in status.get("containerStatuses") or [] if isinstance(c, Mapping)]
    ready = sum(bool(c.get("ready")) for c in statuses)
    spec = _section(pod, "spec")
    containers = spec.get("containers")
    total = len(containers) if isinstance(containers, list) else len(statuses)
    reason = pod_reason(pod)
    phase = str(status.get("phase") or PENDING)
    # the reason's first word (CrashLoopBackOff, OOMKilled, ...); a scheduler message is Pending
    shown = reason.split(" ")[0].rstrip(":") if reason and not reason.startswith("0/") else phase
    return TreeNode(
        kind="Pod",
        name=str(_meta(pod).get("name") or ""),
        namespace=str(_meta(pod).get("namespace") or ""),
        status=shown,
        ready=f"{ready}/{total}",
        reason=reason,
        restarts=sum(_int(c.get("restartCount")) for c in statuses),
        ageSeconds=_age(pod, now),
        node=str(spec.get("nodeName") or "") or None,
        gpus=pod_gpu_request(pod),  # as gpus and why count it (core/node_gpus.py)
    )


def _ready_count(node: TreeNode) -> int:
    """How many ready pods a node stands for: a ready pod 1, a workload its ready count."""
    done, _, total = node.ready.partition("/")
    if node.kind == "Pod":
        return int(done == total and node.status == RUNNING)
    return _int(done)


def _workload(obj: Mapping[str, Any], now: datetime, children: list[TreeNode]) -> TreeNode:
    """A controller (DCD, Deployment, ReplicaSet, LWS, PodClique, ...): ready of desired."""
    if obj.get(UNREAD):
        name, namespace = str(_meta(obj).get("name") or ""), str(_meta(obj).get("namespace") or "")
        return TreeNode(str(obj.get("kind")), name, namespace, UNKNOWN, "", "", children=children)
    spec, status = _section(obj, "spec"), _section(obj, "status")
    desired = _int(spec.get("replicas", 1))
    if "readyReplicas" in status or "availableReplicas" in status:
        ready = _int(status.get("readyReplicas", status.get("availableReplicas")))
    elif obj.get("kind") == "PodCliqueSet":  # a set of cliques: how many of them are healthy
        ready = sum(child.status == HEALTHY for child in children)
        desired = len(children) or desired
    else:  # the API leaves out a count of 0, or no controller reported yet: count below
        ready = sum(_ready_count(child) for child in children)
    if desired == 0:
        verdict = SCALED_DOWN
    elif ready >= desired:
        verdict = HEALTHY
    elif any(c.status == DEGRADED or (c.kind == "Pod" and c.reason) for c in children):
        verdict = DEGRADED
    else:
        verdict = PROGRESSING
    return TreeNode(
        kind=str(obj.get("kind") or ""),
        name=str(_meta(obj).get("name") or ""),
        namespace=str(_meta(obj).get("namespace") or ""),
        status=verdict,
        ready=f"{ready}/{desired}",
        reason="",
        ageSeconds=_age(obj, now),
        children=children,
    )


# -- linking ----------------------------------------------------------------------------------


def _holders(provider: str | None) -> set[str]:
    """The kinds a component's objects hang from on its provider's path: when their LIST was
    refused, a component with nothing found was not read rather than missing."""
    component = {"DynamoComponentDeployment"}
    grove = {"PodCliqueSet", "PodCliqueScalingGroup", "PodClique"}
    return (
        component
        if provider == "component"
        else grove
        if provider == "grove"
        else (component | grove)
    )


def _components_below(
    graph: Mapping[str, Any], by_owner: Mapping[str, list[Mapping[str, Any]]]
) -> set[str]:
    """The components some object below the graph stands for: by the operator's component
    label, else by the name it derives (Grove's ``<pcs>-<replica>-<component>``)."""
    names = GraphNames.of(graph)
    found: set[str] = set()
    todo, seen = [str(_meta(graph).get("uid") or "")], set()
    while todo:
        for obj in by_owner.get(todo.pop(), []):
            meta = _meta(obj)
            labels = meta.get("labels")
            label = labels.get(COMPONENT_LABEL) if isinstance(labels, Mapping) else None
            involved = {"kind": obj.get("kind"), "name": meta.get("name")}
            component = str(label) if label else names.component_of(involved)
            if component:
                found.add(component)
            uid = str(meta.get("uid") or "")
            if uid and uid not in seen:
                seen.add(uid)
                todo.append(uid)
    return found


def _sort_key(node: TreeNode) -> tuple[int, str]:
    # a ReplicaSet with replicas comes first (current), then the old generations
    return (1 if node.status == SCALED_DOWN else 0, node.name)


def build_tree(
    graph: Mapping[str, Any],
    objects: Iterable[Mapping[str, Any]],
    now: datetime,
    warnings: list[str],
    unread: Iterable[str] = (),
) -> TreeView:
    """Link the listed objects below the graph; objects not owned (transitively) by it are left
    out. ``unread``: the kinds whose LIST was refused; their objects get stand-ins."""
    objects = list(objects)
    objects += _unread_owners(objects, str(_meta(graph).get("uid") or ""), unread)
    # A LeaderWorkerSet's pods are owned by StatefulSets (the leader's, and per leader pod the
    # workers'), which say nothing a reader needs: its pods hang below it by the LWS label.
    lws = {
        (str(_meta(obj).get("namespace") or ""), str(_meta(obj).get("name") or "")): str(
            _meta(obj).get("uid") or ""
        )
        for obj in objects
        if obj.get("kind") == "LeaderWorkerSet"
    }
    by_owner: dict[str, list[Mapping[str, Any]]] = {}
    for obj in objects:
        labels = _meta(obj).get("labels")
        group = labels.get(LWS_LABEL) if isinstance(labels, Mapping) else None
        key = (str(_meta(obj).get("namespace") or ""), str(group))
        owner = lws[key] if obj.get("kind") == "Pod" and key in lws else _owner_uid(obj)
        by_owner.setdefault(owner, []).append(obj)

    def below(uid: str) -> list[TreeNode]:
        nodes = []
        for obj in by_owner.get(uid, []):
            uid_ = str(_meta(obj).get("uid") or "")
            if obj.get("kind") == "Pod":
                nodes.append(_pod_node(obj, now))
            else:
                nodes.append(_workload(obj, now, below(uid_) if uid_ else []))
        return sorted(nodes, key=_sort_key)

    meta = _meta(graph)
    name, namespace = str(meta.get("name") or ""), str(meta.get("namespace") or "")
    read = read_graph(graph)
    phase = graph_phase(read)
    top = below(str(meta.get("uid") or ""))
    # Component path: group the DCDs by component (the spec's order).
    children: list[TreeNode] = []
    missing: list[TreeNode] = []  # components nothing was found for, each a row of its own
    dcds = [n for n in top if n.kind == "DynamoComponentDeployment"]
    labels = {
        str(_meta(obj).get("name") or ""): str(
            (_meta(obj).get("labels") or {}).get(COMPONENT_LABEL) or ""
        )
        for obj in by_owner.get(str(meta.get("uid") or ""), [])
    }
    readiness = {c.name: c for c in phase.components}
    present = _components_below(graph, by_owner)
    unread = set(unread) & _holders(read.observed_provider()[0])
    for component in read.components:
        owned = [d for d in dcds if labels.get(d.name) == component.name]
        state = readiness.get(component.name)
        if not owned and component.name in present:
            continue  # on Grove, under the PodCliqueSet
        if not owned:  # a row that says so, rather than a component left out
            ready = f"{state.ready}/{state.desired}" if state else ""
            status = (
                UNKNOWN
                if unread
                else SCALED_DOWN
                if state and not state.desired
                else (HEALTHY if state is not None and state.is_ready else PROGRESSING)
            )
            reason = NOTHING_READ if unread else NOTHING_FOUND
            missing.append(TreeNode("Component", component.name, namespace, status, ready, reason))
            continue
        ready = f"{state.ready}/{state.desired}" if state else ""
        healthy = state is not None and state.is_ready
        status = (
            HEALTHY
            if healthy
            else DEGRADED
            if any(d.status == DEGRADED for d in owned)
            else PROGRESSING
        )
        children.append(
            TreeNode("Component", component.name, namespace, status, ready, "", children=owned)
        )
    grouped = {id(d) for component in children for d in component.children}
    children += [n for n in top if id(n) not in grouped]  # PodCliqueSets, DCDs of no component
    if any(n.kind == "Component" for n in children):  # in the spec's order among the others
        order = {c.name: i for i, c in enumerate(read.components)}
        components = sorted(
            [n for n in children if n.kind == "Component"] + missing, key=lambda n: order[n.name]
        )
        children = components + [n for n in children if n.kind != "Component"]
    else:
        children += missing
    if phase.failed:
        verdict = DEGRADED
    elif phase.ready:
        verdict = HEALTHY
    else:
        verdict = PROGRESSING
    root = TreeNode(
        kind=str(graph.get("kind") or "DynamoGraphDeployment"),
        name=name,
        namespace=namespace,
        status=verdict,
        ready=f"{phase.ready_components}/{len(phase.components)}",
        reason="",
        ageSeconds=_age(graph, now),
        children=children,
    )
    return TreeView(root, warnings)
