"""A small Dynamo operator simulator that plays the operator against the real API server
(tests only). The children are the plugin's own render (kubectl_dgd.core.render, the component
path): DCDs owned by the graph, Deployments and Services owned by their DCD, applied
server-side as field manager ``dynamo-operator``. The real kube-controller-manager makes their
ReplicaSets and pods, the real scheduler binds them (or leaves them Pending with its own
message), kwok runs them; the DGD's status is then written from the real Deployments' status.

What it plays (docs/operator-semantics.md): the worker hash annotation and a managed rolling
update (new-hash worker DCDs beside the old ones, which drain as new pods become ready; the
old generation deleted at the end, its children by the real garbage collector), restarts
(``nvidia.com/restartAt`` on the pod templates, all components at once; Restarting until every
Deployment has rolled), ``state`` and the Ready condition. Not played: Grove, multinode, the
webhooks, scaling adapters, sequential restart order.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import uuid
from datetime import UTC, datetime

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderError, render_graph
from tests.realcluster.rest import Obj, Rest, RestError

MANAGER = "dynamo-operator"
HASH_ANNOTATION = "nvidia.com/current-worker-hash-v2"
HASH_LABEL = "nvidia.com/dynamo-worker-hash"
GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"
COMPONENT_LABEL = "nvidia.com/dynamo-component"
SERVED = {"DynamoComponentDeployment", "Deployment", "Service"}
ACTIVE = ("Pending", "InProgress")
WORKER_TYPES = ("worker", "prefill", "decode")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _owner(obj: Obj) -> Obj:
    meta = obj["metadata"]
    return {
        "apiVersion": obj["apiVersion"],
        "kind": obj["kind"],
        "name": meta["name"],
        "uid": meta["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def _replicas(component: Obj) -> int:
    value = component.get("replicas")
    return 1 if value is None else int(value)


class Operator:
    def __init__(
        self, rest: Rest, namespace: str, release: str = "1.6", interval: float = 0.3
    ) -> None:
        self.rest = rest
        self.namespace = namespace
        self.profile = Profile(provider="component", grove=False, operator_version=release)
        self.interval = interval
        self._applied: dict[tuple[str, str], str] = {}  # (kind, name) -> digest last applied
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.errors: list[str] = []

    # -- running ---------------------------------------------------------------------------------

    def start(self) -> Operator:
        self._thread = threading.Thread(
            target=self._loop, name=f"operator-{self.namespace}", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.reconcile_all()
            except RestError as e:
                # raced with a test's own write, or the server is busy: the next pass retries,
                # as a controller requeues
                if e.status not in (404, 409, 429) and e.status < 500:
                    self.errors.append(str(e))
            except Exception as e:  # a simulator bug must show in the test, not kill the thread
                self.errors.append(f"{type(e).__name__}: {e}")
            self._stop.wait(self.interval)

    def reconcile_all(self) -> None:
        for dgd in self.rest.list("DynamoGraphDeployment", self.namespace):
            if (dgd["metadata"].get("annotations") or {}).get("kdgd.test/operator") == "paused":
                continue
            if dgd["metadata"].get("deletionTimestamp"):
                continue
            self.reconcile(dgd)

    # -- one graph ---------------------------------------------------------------------------------

    def reconcile(self, dgd: Obj) -> None:
        meta = dgd["metadata"]
        name = meta["name"]
        status = copy.deepcopy(dgd.get("status") or {})
        try:
            rendered = [r.obj for r in render_graph(dgd, self.profile) if r.kind in SERVED]
        except RenderError as e:
            self._write_status(dgd, self._failed(status, str(e), meta.get("generation", 1)))
            return
        target = next(
            (
                o["metadata"]["labels"].get(HASH_LABEL)
                for o in rendered
                if o["kind"] == "DynamoComponentDeployment"
                and HASH_LABEL in o["metadata"].get("labels", {})
            ),
            None,
        )
        current = (meta.get("annotations") or {}).get(HASH_ANNOTATION)
        if target is not None and current is None:
            self._annotate(dgd, target)
            current = target
        rolling = target is not None and current != target
        dcds = {
            d["metadata"]["name"]: d
            for d in self.rest.list(
                "DynamoComponentDeployment", self.namespace, f"{GRAPH_LABEL}={name}"
            )
        }
        keep_old: set[str] = set()
        if rolling:
            keep_old = {
                n
                for n, d in dcds.items()
                if d["metadata"].get("labels", {}).get(HASH_LABEL) == current
            }
        self._apply_children(dgd, rendered, dcds)
        deployments = {
            d["metadata"]["name"]: d
            for d in self.rest.list("Deployment", self.namespace, f"{GRAPH_LABEL}={name}")
        }
        wanted = {
            o["metadata"]["name"] for o in rendered if o["kind"] == "DynamoComponentDeployment"
        }
        components = dgd["spec"].get("components") or []
        if rolling and self._advance_rollout(dgd, status, components, current, target, deployments):
            keep_old = set()  # Completed: the old generation goes
        elif not rolling and (status.get("rollingUpdate") or {}).get("phase") in ACTIVE:
            # The spec hashes to the recorded hash again (an abort): as the operator's
            # "stuck rolling update" path, complete it; the other-hash DCDs go below.
            status["rollingUpdate"].update(phase="Completed", endTime=_now())
            self._event(
                dgd, "RollingUpdateCompleted", f"Rolling update completed, worker hash {current}"
            )
        for dcd_name in set(dcds) - wanted - keep_old:
            self.rest.delete("DynamoComponentDeployment", dcd_name, self.namespace)
            self._applied.pop(("DynamoComponentDeployment", dcd_name), None)
        self._dcd_status(deployments)
        status["components"] = self._components(
            dgd, components, deployments, current if rolling else target
        )
        self._restart(dgd, status, deployments)
        self._readiness(status, dgd)
        status["observedGeneration"] = meta.get("generation", 1)
        self._write_status(dgd, status)

    def _advance_rollout(
        self,
        dgd: Obj,
        status: Obj,
        components: list[Obj],
        old: str | None,
        new: str | None,
        deployments: dict[str, Obj],
    ) -> bool:
        """One step of the managed rolling update: Pending, then InProgress while the old
        generation drains, then Completed (True) once every worker's new generation is ready."""
        assert old is not None and new is not None
        done = self._drain_old(dgd, components, old, new, deployments)
        rolling = status.get("rollingUpdate") or {}
        if rolling.get("phase") not in ACTIVE:
            status["rollingUpdate"] = {
                "phase": "Pending",
                "startTime": _now(),
                "updatedComponents": [],
            }
            self._event(
                dgd, "RollingUpdateStarted", f"Rolling update started for worker hash {new}"
            )
            return False
        rolling.update(phase="InProgress", updatedComponents=sorted(done))
        workers = {c["name"] for c in components if c.get("type") in WORKER_TYPES}
        if not set(done) >= workers:
            return False
        rolling.update(phase="Completed", endTime=_now())
        self._annotate(dgd, new)
        self._event(
            dgd, "RollingUpdateCompleted", f"Rolling update completed for worker hash {new}"
        )
        return True

    def _apply_children(self, dgd: Obj, rendered: list[Obj], dcds: dict[str, Obj]) -> None:
        owners: dict[str, Obj] = {}
        for child in sorted(rendered, key=lambda o: o["kind"] != "DynamoComponentDeployment"):
            obj = copy.deepcopy(child)
            obj["metadata"]["namespace"] = self.namespace
            obj["metadata"].get("annotations", {}).pop("kubectl-dgd.nvidia.com/not-shown", None)
            obj["metadata"].get("annotations", {}).pop("kubectl-dgd.nvidia.com/preview", None)
            name = obj["metadata"]["name"]
            owner = dgd if obj["kind"] == "DynamoComponentDeployment" else owners.get(name, dgd)
            obj["metadata"]["ownerReferences"] = [_owner(owner)]
            digest = hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()
            key = (obj["kind"], name)
            if self._applied.get(key) != digest or (
                obj["kind"] == "DynamoComponentDeployment" and name not in dcds
            ):
                applied = self.rest.apply(obj, MANAGER)
                self._applied[key] = digest
            else:
                applied = dcds.get(name, obj)
            if obj["kind"] == "DynamoComponentDeployment":
                owners[name] = (
                    applied
                    if "uid" in applied.get("metadata", {})
                    else self.rest.get("DynamoComponentDeployment", name, self.namespace)
                )

    def _drain_old(
        self, dgd: Obj, components: list[Obj], old: str, new: str, deployments: dict[str, Obj]
    ) -> list[str]:
        """Scale each worker's old generation down by the new one's ready pods; the worker
        components whose new generation is fully ready and whose old one is gone."""
        done = []
        for c in components:
            if c.get("type") not in WORKER_TYPES:
                continue
            base = f"{dgd['metadata']['name']}-{c['name'].lower()}"
            new_d = deployments.get(f"{base}-{new}")
            old_d = deployments.get(f"{base}-{old}")
            ready = int((new_d or {}).get("status", {}).get("readyReplicas") or 0)
            keep = max(_replicas(c) - ready, 0)
            if old_d is not None and int(old_d["spec"].get("replicas", 1)) != keep:
                self.rest.merge_patch(
                    "Deployment",
                    old_d["metadata"]["name"],
                    self.namespace,
                    {"spec": {"replicas": keep}},
                )
            old_ready = (
                int((old_d or {}).get("status", {}).get("readyReplicas") or 0) if keep else 0
            )
            if ready >= _replicas(c) and old_ready == 0:
                done.append(c["name"])
        return done

    def _dcd_status(self, deployments: dict[str, Obj]) -> None:
        for name, d in deployments.items():
            s = d.get("status") or {}
            available = any(
                c.get("type") == "Available" and c.get("status") == "True"
                for c in s.get("conditions") or []
            )
            ready = int(s.get("readyReplicas") or 0) >= int(d["spec"].get("replicas", 1))
            status = {
                "observedGeneration": 1,
                "replicas": s.get("replicas", 0),
                "readyReplicas": s.get("readyReplicas", 0),
                "updatedReplicas": s.get("updatedReplicas", 0),
                "availableReplicas": s.get("availableReplicas", 0),
                "conditions": [
                    {
                        "type": "Available",
                        "status": "True" if available and ready else "False",
                        "reason": "DeploymentAvailable"
                        if available and ready
                        else "DeploymentNotAvailable",
                        "lastTransitionTime": _now(),
                    },
                ],
            }
            try:
                dcd = self.rest.get("DynamoComponentDeployment", name, self.namespace)
            except RestError:
                continue
            old = dcd.get("status") or {}
            if {k: v for k, v in old.items() if k != "conditions"} == {
                k: v for k, v in status.items() if k != "conditions"
            } and [c.get("status") for c in old.get("conditions", [])] == [
                c["status"] for c in status["conditions"]
            ]:
                continue
            dcd["status"] = status
            self.rest.replace_status(dcd)

    def _components(
        self, dgd: Obj, components: list[Obj], deployments: dict[str, Obj], hashed: str | None
    ) -> Obj:
        name = dgd["metadata"]["name"]
        out: Obj = {}
        for c in components:
            base = f"{name}-{c['name'].lower()}"
            names = sorted(n for n in deployments if n == base or n.startswith(base + "-"))
            if not names:
                names = [f"{base}-{hashed}" if c.get("type") in WORKER_TYPES and hashed else base]
            counts = {
                "replicas": 0,
                "readyReplicas": 0,
                "updatedReplicas": 0,
                "availableReplicas": 0,
            }
            for n in names:
                s = (deployments.get(n) or {}).get("status") or {}
                for k in counts:
                    counts[k] += int(s.get(k) or 0)
            newest = deployments.get(f"{base}-{hashed}") if hashed else deployments.get(base)
            if newest is not None and len(names) > 1:
                counts["updatedReplicas"] = int(
                    (newest.get("status") or {}).get("updatedReplicas") or 0
                )
            out[c["name"]] = {"componentKind": "Deployment", "componentNames": names, **counts}
        return out

    def _restart(self, dgd: Obj, status: Obj, deployments: dict[str, Obj]) -> None:
        request = dgd["spec"].get("restart") or {}
        if not request.get("id"):
            return
        restart = status.get("restart") or {}
        if (status.get("rollingUpdate") or {}).get("phase") in ACTIVE and restart.get(
            "observedID"
        ) != request["id"]:
            status["restart"] = {"observedID": request["id"], "phase": "Superseded"}
            return
        pending = sorted(
            c["name"]
            for c in dgd["spec"].get("components") or []
            if not self._rolled(deployments, dgd["metadata"]["name"], c)
        )
        # a new id is Restarting for at least one pass; Completed once every Deployment rolled
        phase = (
            "Restarting" if restart.get("observedID") != request["id"] or pending else "Completed"
        )
        status["restart"] = {"observedID": request["id"], "phase": phase}
        if phase == "Restarting":
            status["restart"]["inProgress"] = pending

    @staticmethod
    def _rolled(deployments: dict[str, Obj], graph: str, component: Obj) -> bool:
        base = f"{graph}-{component['name'].lower()}"
        mine = [d for n, d in deployments.items() if n == base or n.startswith(base + "-")]
        for d in mine:
            s = d.get("status") or {}
            want = int(d["spec"].get("replicas", 1))
            if int(s.get("observedGeneration") or 0) < int(d["metadata"].get("generation") or 1):
                return False
            if (
                int(s.get("updatedReplicas") or 0) < want
                or int(s.get("availableReplicas") or 0) < want
            ):
                return False
            if int(s.get("replicas") or 0) > want:
                return False
        return True

    @staticmethod
    def _readiness(status: Obj, dgd: Obj) -> None:
        comps = status.get("components") or {}
        short = any(
            int(v.get("readyReplicas") or 0) < int(v.get("replicas") or 0)
            or (
                int(v.get("replicas") or 0) == 0
                and _replicas(
                    next((c for c in dgd["spec"].get("components") or [] if c["name"] == k), {})
                )
                > 0
            )
            for k, v in comps.items()
        )
        rolling = (status.get("rollingUpdate") or {}).get("phase") in ACTIVE
        if rolling:
            wanted = (
                "False",
                "rolling_update_in_progress",
                "Rolling update in progress",
                "pending",
            )
        elif short:
            wanted = ("False", "some_resources_are_not_ready", "Resources not ready", "pending")
        else:
            wanted = ("True", "all_resources_are_ready", "All resources are ready", "successful")
        old = next((c for c in status.get("conditions") or [] if c.get("type") == "Ready"), None)
        same = old is not None and (old.get("status"), old.get("reason")) == wanted[:2]
        ready = {
            "type": "Ready",
            "status": wanted[0],
            "reason": wanted[1],
            "message": wanted[2],
            "lastTransitionTime": old["lastTransitionTime"] if same and old else _now(),
        }
        status["conditions"] = [
            ready,
            *(c for c in status.get("conditions") or [] if c.get("type") != "Ready"),
        ]
        status["state"] = wanted[3]

    @staticmethod
    def _failed(status: Obj, message: str, generation: int) -> Obj:
        status["state"] = "failed"
        status["observedGeneration"] = generation
        status["conditions"] = [
            {
                "type": "Ready",
                "status": "False",
                "reason": "failed_to_reconcile_the_resources",
                "message": message,
                "lastTransitionTime": _now(),
            }
        ]
        return status

    # -- writes ------------------------------------------------------------------------------------

    def _write_status(self, dgd: Obj, status: Obj) -> None:
        if status == (dgd.get("status") or {}):
            return
        fresh = copy.deepcopy(dgd)
        fresh["status"] = status
        self.rest.replace_status(fresh)  # resourceVersion from the read: a 409 retries next pass

    def _annotate(self, dgd: Obj, value: str) -> None:
        """The worker hash annotation; ``dgd`` takes the new resourceVersion, so that the
        status written after it in the same pass is not refused as stale."""
        patched = self.rest.merge_patch(
            "DynamoGraphDeployment",
            dgd["metadata"]["name"],
            self.namespace,
            {"metadata": {"annotations": {HASH_ANNOTATION: value}}},
        )
        dgd["metadata"]["resourceVersion"] = patched["metadata"]["resourceVersion"]
        dgd["metadata"].setdefault("annotations", {})[HASH_ANNOTATION] = value

    def _event(self, dgd: Obj, reason: str, message: str) -> None:
        meta = dgd["metadata"]
        moment = _now()
        self.rest.create(
            {
                "apiVersion": "v1",
                "kind": "Event",
                "metadata": {
                    "name": f"{meta['name']}.{uuid.uuid4().hex[:16]}",
                    "namespace": self.namespace,
                },
                "involvedObject": {
                    "apiVersion": dgd["apiVersion"],
                    "kind": dgd["kind"],
                    "name": meta["name"],
                    "namespace": self.namespace,
                    "uid": meta["uid"],
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
        )
