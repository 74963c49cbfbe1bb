"""A simulated Dynamo operator (tests only): it advances DGD status as the operator's restart and
rolling-update controllers do (docs/operator-semantics.md#restart, #rolling-update), writing
through the store as the status subresource would, so watches see each step.

One ``step()`` is one reconcile of every DGD: observedGeneration; restarts (sequential in the
given order or alphabetically, one component per ``restart_ticks`` steps; parallel all at once;
Superseded when a managed rolling update is Pending or InProgress as a new id appears); managed
rolling updates when the worker components' pod templates change (worker hash, 8 hex chars):
Pending -> InProgress (old and new generations side by side, surge one replica a step) ->
Completed; with ``children``, the new worker DCDs (new hash, new template) come up beside the
old ones, which keep their template and drain as new pods get ready; a new pod left Pending by
the scheduler holds the rollout InProgress, and Completed deletes the old generation.
status.state and the Ready condition follow; Events are recorded. ``start()`` runs
steps in a background thread. Not simulated: Grove, multinode, failures, scaling adapters.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.apiserver.children import Children, nodes_per_replica
from tests.apiserver.resources import DGD, EVENTS
from tests.apiserver.store import Obj, Store

PROVIDER = "nvidia.com/workload-provider"

HASH_ANNOTATION = "nvidia.com/current-worker-hash-v2"
WORKER_TYPES = ("worker", "prefill", "decode")
ACTIVE_ROLLOUT = ("Pending", "InProgress")


def worker_hash(spec: dict[str, Any]) -> str:
    """Over every worker component's pod template (and graph-level env/labels/annotations that
    land in them), not replicas: any worker template change rolls all workers."""
    workers = sorted(
        (c for c in spec.get("components") or [] if c.get("type") in WORKER_TYPES),
        key=lambda c: c.get("name", ""),
    )
    material = {
        "workers": [(c.get("name"), c.get("podTemplate")) for c in workers],
        "env": spec.get("env"),
        "labels": spec.get("labels"),
        "annotations": spec.get("annotations"),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:8]


def _timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class _Rollout:
    old_hash: str
    new_hash: str
    ticks: int = 0


@dataclass
class _Graph:
    """What the simulated controller remembers about one DGD between reconciles."""

    rollout: _Rollout | None = None
    restart_ticks: dict[str, int] = field(default_factory=dict)


class OperatorSim:
    def __init__(self, store: Store, *, restart_ticks: int = 1, children: bool = False) -> None:
        self.store = store
        # ``children``: also create the DCDs, Deployments, ReplicaSets, Grove objects and pods
        # (tests/apiserver/children.py), with their scheduler; off by default
        self.children = Children(store) if children else None
        self.restart_ticks = restart_ticks
        self.paused: set[tuple[str, str]] = set()
        self.errors: list[BaseException] = []
        self._graphs: dict[tuple[str, str], _Graph] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # -- driving --------------------------------------------------------------------------------

    def step(self) -> bool:
        """One reconcile of every DGD; True when anything was written."""
        items, _ = self.store.list(DGD, None)
        changed = False
        for item in items:
            key = (item["metadata"]["namespace"], item["metadata"]["name"])
            if key not in self.paused:
                changed |= self._reconcile(*key)
        return changed

    def settle(self, max_steps: int = 100) -> int:
        """Step until nothing changes; the number of steps that changed something."""
        for count in range(max_steps):
            if not self.step():
                return count
        raise AssertionError(f"operator did not settle within {max_steps} steps")

    def start(self, interval: float = 0.05) -> OperatorSim:
        def loop() -> None:
            while not self._stop.wait(interval):
                try:
                    self.step()
                except Exception as error:  # keep running; tests read .errors
                    self.errors.append(error)

        self._stop.clear()
        self._thread = threading.Thread(target=loop, name="operator-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def pause(self, name: str, namespace: str = "dynamo") -> None:
        """Stop reconciling one graph (to test timeouts)."""
        self.paused.add((namespace, name))

    def resume(self, name: str, namespace: str = "dynamo") -> None:
        self.paused.discard((namespace, name))

    # -- reconcile ------------------------------------------------------------------------------

    def _reconcile(self, namespace: str, name: str) -> bool:
        with self.store.lock:
            try:
                obj = self.store.get(DGD, namespace, name)
            except Exception:
                return False
            before = self.store.resource_version
            graph = self._graphs.setdefault((namespace, name), _Graph())
            now = self.store.clock()
            spec = obj.get("spec") or {}
            status = copy.deepcopy(obj.get("status") or {})
            meta = obj["metadata"]
            annotations = meta.get("annotations") or {}
            target = worker_hash(spec)
            current = annotations.get(HASH_ANNOTATION)
            grove = annotations.get(PROVIDER) == "grove"
            if current is None or grove:
                self._set_hash(namespace, name, target)
                current = target
            current = self._advance_rollout(obj, graph, status, current, target, now)
            self._advance_restart(obj, graph, status, now)
            status["components"] = self._components(obj, graph, current)
            short = False
            if self.children is not None:
                self._reconcile_children(obj, graph, current, grove)
                short = self._count_ready_pods(obj, status)
            self._set_readiness(status, graph, now, short)
            status["observedGeneration"] = meta.get("generation", 1)
            if status != obj.get("status"):
                self.store.write_status(DGD, namespace, name, status)
            return self.store.resource_version != before

    def _set_hash(self, namespace: str, name: str, value: str) -> None:
        def apply(obj: Obj) -> Obj:
            obj["metadata"].setdefault("annotations", {})[HASH_ANNOTATION] = value
            return obj

        self.store.patch(DGD, namespace, name, apply)

    def _advance_rollout(
        self, obj: Obj, graph: _Graph, status: Obj, current: str, target: str, now: datetime
    ) -> str:
        """Move the rolling update on one phase or replica; the worker hash now in force."""
        rolling = status.get("rollingUpdate") or {}
        phase = rolling.get("phase", "")
        if phase not in ACTIVE_ROLLOUT:
            if target == current:
                return current
            graph.rollout = _Rollout(current, target)
            status["rollingUpdate"] = {
                "phase": "Pending",
                "startTime": _timestamp(now),
                "updatedComponents": [],
            }
            self._event(
                obj, "RollingUpdateStarted", f"Rolling update started for worker hash {target}"
            )
            return current
        rollout = graph.rollout or _Rollout(current, target)
        graph.rollout = rollout
        rollout.new_hash = target
        if phase == "Pending":
            status["rollingUpdate"]["phase"] = "InProgress"
            return current
        rollout.ticks += 1
        workers = self._workers(obj)
        done = [c["name"] for c in workers if self._new_ready(obj, c, rollout) >= _replicas(c)]
        status["rollingUpdate"]["updatedComponents"] = sorted(done)
        if len(done) == len(workers):
            status["rollingUpdate"]["phase"] = "Completed"
            status["rollingUpdate"]["endTime"] = _timestamp(now)
            meta = obj["metadata"]
            self._set_hash(meta["namespace"], meta["name"], target)
            graph.rollout = None
            if self.children is not None:
                for component in workers:
                    old = f"{meta['name']}-{component['name'].lower()}-{rollout.old_hash}"
                    self.children.delete_generation(meta["namespace"], old)
            self._event(
                obj, "RollingUpdateCompleted", f"Rolling update completed for worker hash {target}"
            )
            return target
        return current

    def _advance_restart(self, obj: Obj, graph: _Graph, status: Obj, now: datetime) -> None:
        del now
        request = (obj.get("spec") or {}).get("restart")
        restart = status.get("restart") or {}
        if not request or not request.get("id"):
            return
        names = [c["name"] for c in (obj["spec"].get("components") or [])]
        strategy = request.get("strategy") or {}
        parallel = strategy.get("type") == "Parallel"
        order = strategy.get("order") or sorted(names)
        if restart.get("observedID") != request["id"]:
            if (status.get("rollingUpdate") or {}).get("phase") in ACTIVE_ROLLOUT:
                status["restart"] = {"observedID": request["id"], "phase": "Superseded"}
                self._event(
                    obj,
                    "RestartSuperseded",
                    f"Restart {request['id']} superseded by rolling update",
                )
                return
            graph.restart_ticks = {}
            in_progress = sorted(names) if parallel else order[:1]
            status["restart"] = {
                "observedID": request["id"],
                "phase": "Restarting",
                "inProgress": in_progress,
            }
            return
        if restart.get("phase") != "Restarting":
            return
        in_progress = list(restart.get("inProgress") or [])
        if not parallel and (not in_progress or in_progress[0] not in order):
            in_progress = order[:1]  # the component left the order: start over
        for component in in_progress:
            graph.restart_ticks[component] = graph.restart_ticks.get(component, 0) + 1
        if any(graph.restart_ticks[c] < self.restart_ticks for c in in_progress):
            status["restart"]["inProgress"] = in_progress
            return
        if parallel or in_progress[0] == order[-1]:
            status["restart"] = {"observedID": request["id"], "phase": "Completed"}
            return
        status["restart"]["inProgress"] = [order[order.index(in_progress[0]) + 1]]

    # -- status pieces --------------------------------------------------------------------------

    @staticmethod
    def _workers(obj: Obj) -> list[Obj]:
        return [c for c in obj["spec"].get("components") or [] if c.get("type") in WORKER_TYPES]

    def _new_ready(self, obj: Obj, component: Obj, rollout: _Rollout) -> int:
        """Without children, new pods come up one a step and are ready the step after; with
        them, the new generation's ready pods count (a Pending pod holds the rollout)."""
        if self.children is not None:
            meta = obj["metadata"]
            dcd = f"{meta['name']}-{component['name'].lower()}-{rollout.new_hash}"
            return self.children.generation_ready(meta["namespace"], dcd)
        return max(0, min(_replicas(component), rollout.ticks - 1))

    def _reconcile_children(self, obj: Obj, graph: _Graph, current: str, grove: bool) -> None:
        """The children; during a managed rolling update the new worker DCDs (new hash, new
        template) come up while the old ones keep their template and drain as new pods get
        ready."""
        assert self.children is not None
        rollout = graph.rollout
        if rollout is None or grove:
            self.children.reconcile(obj, current, grove)
            return
        self.children.reconcile(obj, rollout.new_hash, grove)
        keep = {
            c["name"]: max(_replicas(c) - self._new_ready(obj, c, rollout), 0)
            for c in self._workers(obj)
        }
        self.children.old_generation(obj, rollout.old_hash, keep)

    def _components(self, obj: Obj, graph: _Graph, current: str) -> dict[str, Any]:
        name = obj["metadata"]["name"]
        result: dict[str, Any] = {}
        rollout = graph.rollout
        for component in obj["spec"].get("components") or []:
            cname, desired = component["name"], _replicas(component)
            child = f"{name}-{cname.lower()}"
            worker = component.get("type") in WORKER_TYPES
            entry: dict[str, Any] = {"componentKind": "Deployment"}
            if nodes_per_replica(component) > 1:  # the operator's kind for a multinode one
                grove = (obj["metadata"].get("annotations") or {}).get(PROVIDER) == "grove"
                entry["componentKind"] = "PodCliqueScalingGroup" if grove else "LeaderWorkerSet"
            if worker and rollout is not None and rollout.ticks > 0:
                new_created = min(desired, rollout.ticks)
                new_ready = self._new_ready(obj, component, rollout)
                old = desired - new_ready
                entry.update(
                    componentNames=[f"{child}-{rollout.old_hash}", f"{child}-{rollout.new_hash}"],
                    replicas=old + new_created,
                    updatedReplicas=new_created,
                    readyReplicas=old + new_ready,
                    availableReplicas=old + new_ready,
                )
            else:
                suffix = f"-{current}" if worker else ""
                entry.update(
                    componentNames=[f"{child}{suffix}"],
                    replicas=desired,
                    updatedReplicas=desired,
                    readyReplicas=desired,
                    availableReplicas=desired,
                )
            result[cname] = entry
        return result

    def _count_ready_pods(self, obj: Obj, status: Obj) -> bool:
        """Ready counts from the pods themselves; True when a component is short of them."""
        assert self.children is not None
        short = False
        for component in obj["spec"].get("components") or []:
            ready = self.children.ready_pods(obj, component["name"])
            entry = status["components"][component["name"]]
            entry["readyReplicas"] = entry["availableReplicas"] = min(ready, entry["replicas"])
            short |= ready < _replicas(component)
        return short

    @staticmethod
    def _set_readiness(status: Obj, graph: _Graph, now: datetime, short: bool = False) -> None:
        rolling = (status.get("rollingUpdate") or {}).get("phase") in ACTIVE_ROLLOUT
        if short and not rolling:
            wanted = ("False", "some_resources_are_not_ready", "Resources not ready")
            status["state"] = "pending"
        elif rolling:
            wanted = ("False", "rolling_update_in_progress", "Rolling update in progress")
            status["state"] = "pending"
        else:
            wanted = ("True", "all_resources_are_ready", "All resources are ready")
            status["state"] = "successful"
        del graph
        conditions = [c for c in status.get("conditions") or [] if c.get("type") != "Ready"]
        old = next((c for c in status.get("conditions") or [] if c.get("type") == "Ready"), None)
        same = old is not None and (old.get("status"), old.get("reason")) == wanted[:2]
        ready = {
            "type": "Ready",
            "status": wanted[0],
            "reason": wanted[1],
            "message": wanted[2],
            "lastTransitionTime": old.get("lastTransitionTime")
            if same and old
            else _timestamp(now),
        }
        status["conditions"] = [ready, *conditions]

    def _event(self, obj: Obj, reason: str, message: str) -> None:
        meta = obj["metadata"]
        moment = _timestamp(self.store.clock())
        event = {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {
                "name": f"{meta['name']}.{uuid.uuid4().hex[:16]}",
                "namespace": meta["namespace"],
            },
            "involvedObject": {
                "apiVersion": DGD.group_version,
                "kind": DGD.kind,
                "name": meta["name"],
                "namespace": meta["namespace"],
                "uid": meta.get("uid", ""),
                "resourceVersion": meta.get("resourceVersion", ""),
            },
            "reason": reason,
            "message": message,
            "type": "Normal",
            "source": {"component": "dynamo-operator"},
            "reportingComponent": "dynamo-operator",
            "firstTimestamp": moment,
            "lastTimestamp": moment,
            "count": 1,
        }
        self.store.create(EVENTS, meta["namespace"], event)


def _replicas(component: Obj) -> int:
    value = component.get("replicas")
    return 1 if value is None else int(value)
