"""The diagnosis: one pass over the pods, the references, the operator and the rollout,
findings ranked root cause first."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kubectl_dgd.core.graph import items, mapping, read_graph
from kubectl_dgd.core.node_fit import may_run_on
from kubectl_dgd.core.node_gpus import (
    GPU_RESOURCE,
    MIG_PREFIX,
    PRODUCT_LABEL,
    NodeGpus,
    is_mig,
    node_gpu_usage,
    pod_gpu_request,
    pod_gpu_resource,
    pod_request,
)
from kubectl_dgd.core.phase import Phase, graph_phase
from kubectl_dgd.core.why.pods import (
    _KINDS,
    _NOT_FOUND,
    ALWAYS_THERE,
    IMAGE_PULL_WAITING,
    MAX_NODES_SHOWN,
    START_FAILURES,
    _component,
    _is_ready,
    _meta,
    _name,
    _pull_secrets,
    _refs,
    _statuses,
    _unscheduled,
    graph_pods,
    stale_without_pods,
)
from kubectl_dgd.core.why.report import (
    CRASH_LOOP,
    ERROR,
    FAILED,
    IMAGE_PULL,
    INSUFFICIENT_GPU,
    MISSING_REFERENCE,
    OOM_KILLED,
    OPERATOR_LAGGING,
    PVC_PENDING,
    REASONS,
    ROLLOUT_BLOCKED,
    STALE_READY,
    UNSCHEDULABLE,
    WARNING,
    Finding,
    WhyInput,
    WhyReport,
)

# -- the diagnosis --------------------------------------------------------------------------


class _Diagnosis:
    def __init__(self, inputs: WhyInput) -> None:
        self.inputs = inputs
        self.graph = read_graph(dict(inputs.graph))
        self.phase: Phase = graph_phase(self.graph)
        meta = _meta(inputs.graph)
        self.name = str(meta.get("name") or "")
        self.namespace = str(meta.get("namespace") or "")
        self.pods = graph_pods(inputs)
        self.order = {c.name: i for i, c in enumerate(self.graph.components)}
        self.findings: dict[tuple[str, str, str], Finding] = {}
        self.usage: list[NodeGpus] | None = None
        self.gpu_tails: dict[tuple[str, str, str], tuple[str, list[str], str]] = {}
        if inputs.nodes is not None:
            self.usage = node_gpu_usage(inputs.nodes, inputs.node_pods or self.pods, None)
        # pod -> the messages of its Warning Events, newest last
        self.warnings: dict[str, list[str]] = {}
        for event in sorted(inputs.events or [], key=_event_time):
            regarding = mapping(event.get("involvedObject"))
            if event.get("type") == "Warning":
                key = f"{regarding.get('kind')}/{regarding.get('name')}"
                self.warnings.setdefault(key, []).append(str(event.get("message") or ""))

    def add(
        self,
        key: str,
        component: str | None,
        reason: str,
        message: str,
        obj: str,
        action: str = "",
        details: list[str] | None = None,
        severity: str = ERROR,
    ) -> Finding:
        """One finding per (component, reason, key); a second object joins the first one's."""
        index = (component or "", reason, key)
        found = self.findings.get(index)
        if found is None:
            found = Finding(component or None, severity, reason, message, [], action, details or [])
            self.findings[index] = found
        if obj and obj not in found.objects:
            found.objects.append(obj)
        return found

    # -- pods -----------------------------------------------------------------------------

    def pod(self, pod: Mapping[str, Any]) -> None:
        condition = _unscheduled(pod)
        if condition is not None:
            self.scheduling(pod, condition)
            return
        for container in _statuses(pod):
            if self.container(pod, container):
                return
        self.mount_failures(pod)

    def scheduling(self, pod: Mapping[str, Any], condition: Mapping[str, Any]) -> None:
        component, obj = _component(pod), f"Pod/{_name(pod)}"
        message = str(condition.get("message") or "")
        if not message:
            message = (self.warnings.get(obj) or [str(condition.get("reason") or "")])[-1]
        missing = _NOT_FOUND.search(message)
        if missing:
            kind = _KINDS[missing.group(1).lower()]
            self.missing(kind, missing.group(2), component, obj, "the scheduler")
        elif "unbound immediate PersistentVolumeClaims" in message:
            self.pvc_pending(pod, component, obj, message)
        elif _INSUFFICIENT_GPU.search(message):
            self.insufficient_gpu(pod, component, obj, message)
        else:
            self.unschedulable(pod, component, obj, message)

    def insufficient_gpu(
        self, pod: Mapping[str, Any], component: str, obj: str, scheduler: str
    ) -> None:
        spec = mapping(pod.get("spec"))
        resource = pod_gpu_resource(pod)
        need = pod_request(pod, resource) if resource != GPU_RESOURCE else pod_gpu_request(pod)
        product = str(mapping(spec.get("nodeSelector")).get(PRODUCT_LABEL) or "")
        key = (component, INSUFFICIENT_GPU, str(need) if resource == GPU_RESOURCE else resource)
        if key not in self.findings:
            tail, details, action = self.gpu_words(component, need, product, resource, spec)
            if "," in scheduler.split(":", 1)[-1]:  # other nodes were ruled out for other causes
                details = [f"The scheduler: {scheduler}", *details]
            self.gpu_tails[key] = (tail, details, action)
        tail, details, action = self.gpu_tails[key]
        found = self.add(key[2], component, INSUFFICIENT_GPU, "", obj, action, details)
        count = sum(o.startswith("Pod/") for o in found.objects)
        found.message = ("1 pod needs " if count == 1 else f"{count} pods need ") + tail

    def gpu_words(
        self,
        component: str,
        need: int,
        product: str,
        resource: str = GPU_RESOURCE,
        spec: Mapping[str, Any] | None = None,
    ) -> tuple[str, list[str], str]:
        """The GPU finding's message (after "N pods need"), node lines and action; a MIG
        profile's figures are its slices on the nodes that offer it. With the pod's ``spec``,
        only the nodes its nodeSelector, required affinity and tolerations allow count."""
        mig = resource.removeprefix(MIG_PREFIX) if is_mig(resource) else None

        def _gpus(count: int) -> str:
            if mig:
                return f"MIG {mig} slice" + ("" if count == 1 else "s")
            return _whole_gpus(count)

        where = f"one {product} node" if product else "one node"
        message = f"{need} {_gpus(need)} on {where}"
        if self.usage is None:
            return (
                message + " (the nodes could not be read).",
                [],
                f"Free {need} {_gpus(need)} on {where}, or give {component} fewer GPUs per pod.",
            )
        nodes = [
            n
            for n in self.usage
            if n.resource == resource and n.allocatable and (not product or n.product == product)
        ]
        offered = len(nodes)
        if spec is not None:
            nodes = [n for n in nodes if may_run_on(spec, n.labels, n.taints)]
        ruled_out = offered - len(nodes)
        usable = [n for n in nodes if n.schedulable]
        most = max((n.free for n in usable), default=0)
        biggest = max((n.allocatable for n in usable), default=0)
        total_free = sum(n.free for n in usable)
        allocatable = sum(n.allocatable for n in nodes)
        if ruled_out:
            allowed = f"{len(nodes)} node{'s' if len(nodes) != 1 else ''}"
            message += f"; the most free on any node it may run on is {most} ({total_free} free"
            message += f" of {allocatable} on the {allowed} its nodeSelector, affinity and"
            message += f" tolerations allow; {ruled_out} more GPU node"
            message += f"{'s are' if ruled_out != 1 else ' is'} ruled out)."
        else:
            message += f"; the most free on any node is {most}"
            message += f" ({total_free} free of {allocatable} in the cluster)."
        if biggest < need:
            message += (
                f" No node it may run on has {need} {_gpus(need)} (the largest has {biggest})."
                if ruled_out
                else f" No node has {need} {_gpus(need)} at all (the largest has {biggest})."
            )
            action = (
                f"Add a node with at least {need} {_gpus(need)}, or give {component} fewer per pod."
                if mig
                else f"Add a node with at least {need} GPUs, or give {component} fewer GPUs per pod."
            )
        elif most >= need:
            action = (
                "A node has the GPUs free now (they were freed after the scheduler tried): the "
                "scheduler retries by itself; if the pod stays Pending, look at its other "
                "constraints (node selector, taints, affinity)."
            )
        else:
            action = (
                f"Free {need - most} more {_gpus(need - most)} on one node (scale down or "
                f"delete other GPU pods), add a GPU node, or lower {component}'s replicas or "
                "GPUs per pod."
            )
        details = _per_product(nodes)
        details.append(
            f"MIG {mig} slices per node (free of allocatable):"
            if mig
            else "GPUs per node (free of allocatable):"
        )
        ranked = sorted(nodes, key=lambda n: (-n.free, n.name))
        for node in ranked[:MAX_NODES_SHOWN]:
            note = "" if node.schedulable else ", not schedulable"
            product_note = f" {node.product}" if node.product else ""
            details.append(f"  {node.name}: {node.free} of {node.allocatable}{product_note}{note}")
        if len(ranked) > MAX_NODES_SHOWN:
            details.append(f"  … and {len(ranked) - MAX_NODES_SHOWN} more GPU nodes")
        if not nodes and ruled_out:
            details = [
                f"No node that offers {resource} passes {component}'s nodeSelector, affinity "
                "and tolerations."
            ]
            action = (
                f"Fix {component}'s nodeSelector, affinity or tolerations, or label (or untaint) "
                "the GPU nodes meant for it."
            )
        elif not nodes:
            details = [
                f"No node offers {resource}"
                + (f" with {PRODUCT_LABEL}={product}." if product else ".")
            ]
        return message, details, action

    def unschedulable(self, pod: Mapping[str, Any], component: str, obj: str, message: str) -> None:
        spec = mapping(pod.get("spec"))
        selector = mapping(spec.get("nodeSelector"))
        if "untolerated taint" in message:
            action = (
                f"Add a toleration for the taint to {component}'s podTemplate, or remove the "
                "taint from the nodes meant for it."
            )
        elif "node affinity/selector" in message:
            shown = ", ".join(f"{k}={v}" for k, v in sorted(selector.items()))
            action = (
                f"Fix {component}'s nodeSelector or affinity"
                + (f" ({shown})" if shown else "")
                + ", or label the nodes meant for it."
            )
        elif "Insufficient" in message:
            action = f"Lower {component}'s resource requests, or add capacity."
        else:
            action = "Act on the scheduler's message."
        key = _scheduler_key(message)
        self.add(key, component, UNSCHEDULABLE, f"Pods cannot be scheduled: {message}", obj, action)

    def pvc_pending(self, pod: Mapping[str, Any], component: str, obj: str, message: str) -> None:
        claims = [
            str(mapping(v.get("persistentVolumeClaim")).get("claimName"))
            for v in items(mapping(pod.get("spec")).get("volumes"))
            if mapping(v.get("persistentVolumeClaim")).get("claimName")
        ]
        by_name = {_name(p): p for p in self.inputs.pvcs or []}
        pending = [
            c for c in claims if mapping(by_name.get(c, {}).get("status")).get("phase") != "Bound"
        ]
        for claim in pending or claims or [""]:
            pvc = by_name.get(claim, {})
            cls = str(mapping(pvc.get("spec")).get("storageClassName") or "")
            phase = str(mapping(pvc.get("status")).get("phase") or "Pending")
            text = f"PersistentVolumeClaim {claim} is {phase}" if claim else message
            if cls:
                text += f" (storage class {cls})"
            found = self.add(
                claim,
                component,
                PVC_PENDING,
                text + ", so the pods that mount it cannot be scheduled.",
                f"PersistentVolumeClaim/{claim}" if claim else "",
                f"Check the claim's storage class and provisioner: kubectl describe pvc {claim} "
                f"-n {self.namespace}.",
                (self.warnings.get(f"PersistentVolumeClaim/{claim}") or [])[-1:],
            )
            if obj not in found.objects:
                found.objects.append(obj)

    def container(self, pod: Mapping[str, Any], container: Mapping[str, Any]) -> bool:
        """A finding for one container's trouble; whether there was one."""
        component, obj = _component(pod), f"Pod/{_name(pod)}"
        cname = str(container.get("name") or "")
        state = mapping(container.get("state"))
        waiting = mapping(state.get("waiting"))
        reason = str(waiting.get("reason") or "")
        text = str(waiting.get("message") or "")
        last = mapping(mapping(container.get("lastState")).get("terminated"))
        terminated = mapping(state.get("terminated"))
        restarts = _int(container.get("restartCount"))
        if reason in IMAGE_PULL_WAITING:
            self.image_pull(pod, container, component, obj, reason, text)
        elif reason == "CreateContainerConfigError":
            missing = _NOT_FOUND.search(text)
            if missing:
                kind = _KINDS[missing.group(1).lower()]
                self.missing(kind, missing.group(2), component, obj, f"container {cname}")
            else:
                self.add(
                    text,
                    component,
                    MISSING_REFERENCE,
                    f"Container {cname} cannot be created: {text}",
                    obj,
                    f"Create what the message names, or fix {component}'s podTemplate.",
                )
        elif _oom_killed(reason, last, terminated) and not _is_ready(pod):
            self.oom(pod, cname, component, obj, restarts)
        elif reason == "CrashLoopBackOff":
            self.crash(pod, cname, component, obj, last, restarts)
        elif reason in START_FAILURES:
            self.add(
                cname,
                component,
                CRASH_LOOP,
                f"Container {cname} of {component} cannot start: {reason}: {text}".rstrip(": "),
                obj,
                f"Fix the command, image or mounts of {cname} in {component}'s podTemplate.",
            )
        else:
            return False
        return True

    def image_pull(
        self,
        pod: Mapping[str, Any],
        container: Mapping[str, Any],
        component: str,
        obj: str,
        reason: str,
        text: str,
    ) -> None:
        cname = str(container.get("name") or "")
        image = str(container.get("image") or "")
        message = f'Container {cname} of {component} cannot pull image "{image}": {reason}'
        if text:
            message += f": {text}"
        pulled = (self.warnings.get(obj) or [])[-1:]
        details = [f"Last Event: {pulled[0]}"] if pulled and pulled[0] not in text else []
        action = "Check that the image name and tag exist and the registry is reachable"
        secrets = _pull_secrets(mapping(pod.get("spec")))
        known = self.inputs.names.get("Secret")
        gone = [s for s in secrets if known is not None and s not in known]
        if gone:
            action += f"; the pull Secret {', '.join(gone)} does not exist: create it"
        elif not secrets:
            action += "; for a private registry, set imagePullSecrets in the podTemplate"
        self.add(
            f"{cname} {image}", component, IMAGE_PULL, message + ".", obj, action + ".", details
        )

    def oom(
        self, pod: Mapping[str, Any], cname: str, component: str, obj: str, restarts: int
    ) -> None:
        limit = ""
        for spec in items(mapping(pod.get("spec")).get("containers")):
            if spec.get("name") == cname:
                limit = str(
                    mapping(mapping(spec.get("resources")).get("limits")).get("memory") or ""
                )
        bound = f"its memory limit {limit}" if limit else "the node's memory (no memory limit)"
        self.add(
            cname,
            component,
            OOM_KILLED,
            f"Container {cname} of {component} was killed for using more than {bound}"
            f" (exit code 137, {restarts} {_restarts(restarts)}).",
            obj,
            f"Raise resources.limits.memory of {cname} in {component}'s podTemplate"
            if limit
            else f"Set a memory limit of {cname} in {component}'s podTemplate that the model "
            "fits in, or lower its memory use.",
        )

    def crash(
        self,
        pod: Mapping[str, Any],
        cname: str,
        component: str,
        obj: str,
        last: Mapping[str, Any],
        restarts: int,
    ) -> None:
        code = last.get("exitCode")
        why = str(last.get("reason") or "")
        exited = f"exited with code {code}" if code is not None else "keeps exiting"
        message = (
            f"Container {cname} of {component} is in a crash loop: it {exited}"
            + (f" ({why})" if why else "")
            + f", {restarts} {_restarts(restarts)}."
        )
        found = self.findings.get((component, CRASH_LOOP, cname))
        details: list[str] = []
        lines = self.inputs.previous_logs.get((_name(pod), cname))
        if found is None and lines is not None:
            details = [f"Last lines of the previous container of pod {_name(pod)}:"]
            details += [f"  {line}" for line in lines] or ["  (the log is empty)"]
        self.add(
            cname,
            component,
            CRASH_LOOP,
            message,
            obj,
            f"Fix what the log shows; more with: kubectl logs -n {self.namespace} {_name(pod)} "
            f"-c {cname} --previous",
            details,
        )

    def child_events(self) -> None:
        """A controller below the graph that cannot create its pods for a missing object
        (a ReplicaSet's FailedCreate: the ServiceAccount does not exist)."""
        for obj in self.inputs.objects:
            if obj.get("kind") == "Pod":
                continue
            key = f"{obj.get('kind')}/{_name(obj)}"
            for text in self.warnings.get(key, [])[-1:]:
                missing = _NOT_FOUND.search(text)
                if missing:
                    kind = _KINDS[missing.group(1).lower()]
                    self.missing(kind, missing.group(2), _component(obj), key, "the pods")

    def mount_failures(self, pod: Mapping[str, Any]) -> None:
        """A pod stuck creating its containers because a volume's object is missing."""
        obj = f"Pod/{_name(pod)}"
        for text in self.warnings.get(obj, []):
            missing = _NOT_FOUND.search(text)
            if missing and "MountVolume" in text:
                kind = _KINDS[missing.group(1).lower()]
                self.missing(kind, missing.group(2), _component(pod), obj, "a volume")

    # -- references --------------------------------------------------------------------------

    def missing(
        self, kind: str, name: str, component: str, obj: str, where: str, key: str = ""
    ) -> None:
        namespace = self.namespace
        create = {
            "Secret": f"kubectl create secret generic {name} -n {namespace} "
            f"--from-literal={key or '<key>'}=<value>",
            "ConfigMap": f"kubectl create configmap {name} -n {namespace} --from-file=<file>",
            "ServiceAccount": f"kubectl create serviceaccount {name} -n {namespace}",
            "PersistentVolumeClaim": f"create the PersistentVolumeClaim {name} in {namespace}",
        }[kind]
        found = self.add(
            f"{kind}/{name}",
            component,
            MISSING_REFERENCE,
            f"{kind} {name}, named by {where} of {component}, does not exist in {namespace}.",
            f"{kind}/{name}",
            f"Create it ({create}), or fix the name in {component}'s podTemplate.",
        )
        if obj and obj not in found.objects:
            found.objects.append(obj)

    def references(self) -> None:
        """Objects the components' pod templates (and the pods) name that do not exist."""
        pvcs = None if self.inputs.pvcs is None else {_name(p) for p in self.inputs.pvcs}
        known = {**self.inputs.names, "PersistentVolumeClaim": pvcs}
        specs: list[tuple[str, Mapping[str, Any], str]] = []
        for entry in self.graph.components:
            template = mapping(mapping(entry.raw.get("podTemplate")).get("spec"))
            specs.append((entry.name, template, ""))
        specs += [(_component(p), mapping(p.get("spec")), f"Pod/{_name(p)}") for p in self.pods]
        for component, spec, obj in specs:
            for kind, name, where, key in _refs(spec):
                names = known.get(kind)
                if names is None or name in names or (kind, name) in ALWAYS_THERE:
                    continue
                self.missing(kind, name, component, obj, where, key)

    # -- the graph and the operator --------------------------------------------------------

    def operator(self) -> None:
        phase = self.phase
        behind = phase.unobserved or not phase.reported
        down: list[str] = []
        objects: list[str] = []
        if self.inputs.operators is not None and (behind or not phase.ready):
            for deploy in self.inputs.operators:
                meta, spec = _meta(deploy), mapping(deploy.get("spec"))
                wanted = _int(spec.get("replicas", 1))
                ready = _int(mapping(deploy.get("status")).get("readyReplicas"))
                if ready < max(wanted, 1):
                    down.append(
                        f"{meta.get('namespace')}/{meta.get('name')} {ready}/{wanted} ready"
                    )
                    objects.append(f"Deployment/{meta.get('name')}")
            if not self.inputs.operators and behind:
                down.append(
                    "no Deployment of it was found (a manager container running "
                    "kubernetes-operator, or the label app.kubernetes.io/name=dynamo-operator)"
                )
        if not down and not behind:
            return
        if phase.reported:
            seen = f"generation {phase.generation}, observed {phase.observed_generation}"
            lag = f"The operator has not acted on the graph's latest change ({seen})"
        else:
            lag = "The operator has never reported on this graph"
        if down:
            message = f"The Dynamo operator is not running: {'; '.join(down)}."
            if behind:
                message += f" {lag}."
            action = (
                "Find out why the operator's pods do not run: kubectl get pods -A -l "
                "app.kubernetes.io/name=dynamo-operator, then kubectl describe and kubectl logs."
            )
            severity, rank = ERROR, 0
        else:
            message = f"{lag}."
            action = (
                "Wait a little; if it stays behind, read the operator's log (kubectl logs -n "
                "<operator namespace> deploy/<operator>) for errors about this graph."
            )
            severity, rank = WARNING, len(REASONS)
        found = self.add(
            "operator",
            None,
            OPERATOR_LAGGING,
            message,
            f"DynamoGraphDeployment/{self.name}",
            action,
            severity=severity,
        )
        found.objects += objects
        found.rank = rank

    def failed(self) -> None:
        phase = self.phase
        # A failure the operator retries is still worth naming here (phase.failed is only the
        # ones that come back on every retry, which end rollout status and health).
        if not phase.failure or phase.deleting:
            return
        retried = "" if phase.failure_permanent else " (the operator retries this step)"
        self.add(
            "state",
            None,
            FAILED,
            f"The operator reports the graph failed: {phase.failure}{retried}.",
            f"DynamoGraphDeployment/{self.name}",
            "Fix what the message names in the graph's spec (or the operator's configuration), "
            "then apply it again; kubectl dgd status "
            f"{self.name} -n {self.namespace} shows the conditions.",
        )

    def stale(self) -> None:
        """The status says Ready, yet the graph has no pod where components want some: what the
        operator reported is no longer so (it stopped reconciling, or the pods went away)."""
        phase = self.phase
        moving = phase.rollout_active or phase.restart_active or phase.restart_requested
        if not phase.ready or moving or phase.deleting or "Pod" in self.inputs.unread:
            return  # pods that could not be listed are not "no pods"
        empty = stale_without_pods(self.inputs.graph, self.pods)
        if not empty:
            return
        condition = phase.ready_condition
        if condition is not None:
            since = (
                f" since {condition.last_transition_time}" if condition.last_transition_time else ""
            )
            said = f"condition Ready={condition.status}{since} ({condition.reason or 'no reason'})"
        else:
            said = f"state {phase.state}, no Ready condition"
        generations = ", ".join(
            f"{what} {value}"
            for what, value in (
                ("generation", phase.generation),
                ("observed", phase.observed_generation),
            )
            if value is not None
        )
        generations = f"; {generations}" if generations else ""
        which = "component" if len(empty) == 1 else "components"
        details = []
        operators = self.inputs.operators
        if operators is not None and not operators:
            details.append(
                "No Deployment of the Dynamo operator was found in any namespace (a manager "
                "container running kubernetes-operator, or the label "
                "app.kubernetes.io/name=dynamo-operator)."
            )
        self.add(
            "stale",
            None,
            STALE_READY,
            f"The graph's status says Ready ({said}{generations}), but there are no pods "
            f"for {which} {', '.join(empty)}.",
            f"DynamoGraphDeployment/{self.name}",
            "The status is stale: check that the Dynamo operator runs and reconciles (kubectl "
            "dgd doctor; kubectl get pods -A -l app.kubernetes.io/name=dynamo-operator), then "
            f"its log for this graph; kubectl dgd tree {self.name} -n {self.namespace} shows "
            "what exists below the graph.",
            details,
        )

    def blocked(self) -> None:
        """A managed rolling update or a restart that cannot finish, and on what."""
        phase = self.phase
        if phase.rollout_active:
            what = f"The rolling update ({phase.rollout_phase})"
            scope = {c.name for c in self.graph.components if c.is_worker}
        elif phase.restart_active:
            what = f"The restart {phase.restart_id} ({phase.restart_phase})"
            scope = set(phase.restart_in_progress) or set(self.order)
        else:
            return
        causes = [
            f for f in self.findings.values() if f.component in scope and f.reason in _POD_REASONS
        ]
        if not causes:
            return
        stuck = sorted({o for f in causes for o in f.objects if o.startswith("Pod/")})
        on = ", ".join(sorted({f"{f.component} ({f.reason})" for f in causes}))
        message = f"{what} cannot finish: new pods of {on} do not become ready."
        gpu = any(f.reason == INSUFFICIENT_GPU for f in causes)
        if gpu:
            message += " The old pods keep their GPUs until the new ones are ready."
        self.add(
            "rollout",
            None,
            ROLLOUT_BLOCKED,
            message,
            f"DynamoGraphDeployment/{self.name}",
            "Fix the cause above"
            + (" (free GPUs for the new generation: old and new run side by side)" if gpu else "")
            + ", or undo the change to the graph.",
        ).objects += stuck

    def run(self) -> WhyReport:
        self.failed()
        self.references()  # before the pods: the template's words say where a name is used
        for pod in self.pods:
            self.pod(pod)
        self.child_events()
        self.stale()
        self.blocked()
        self.operator()
        for finding in self.findings.values():
            if finding.rank == 0 and finding.reason != OPERATOR_LAGGING:
                finding.rank = REASONS.index(finding.reason)
        findings = sorted(
            self.findings.values(),
            key=lambda f: (f.rank, self.order.get(f.component or "", -1), f.message),
        )
        return WhyReport(
            self.name,
            self.namespace,
            self.phase.ready,
            findings,
            pods=len(self.pods),
            ready_pods=sum(_is_ready(p) for p in self.pods),
        )


_POD_REASONS = frozenset(
    {
        MISSING_REFERENCE,
        PVC_PENDING,
        INSUFFICIENT_GPU,
        UNSCHEDULABLE,
        IMAGE_PULL,
        OOM_KILLED,
        CRASH_LOOP,
    }
)


def _per_product(nodes: list[NodeGpus]) -> list[str]:
    """Free and allocatable GPUs per GPU product, when the nodes carry more than one."""
    products = sorted({n.product for n in nodes if n.product})
    if len(products) < 2:
        return []
    lines = ["GPUs per product (free of allocatable; the most free on one node):"]
    for product in products:
        members = [n for n in nodes if n.product == product]
        free = sum(n.free for n in members if n.schedulable)
        most = max((n.free for n in members if n.schedulable), default=0)
        lines.append(f"  {product}: {free} of {sum(n.allocatable for n in members)}; {most}")
    return lines


def _event_time(event: Mapping[str, Any]) -> str:
    return str(
        event.get("lastTimestamp") or event.get("eventTime") or event.get("firstTimestamp") or ""
    )


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError, OverflowError):
        return 0


def _oom_killed(waiting: str, last: Mapping[str, Any], now: Mapping[str, Any]) -> bool:
    """Killed for memory: now (terminated), or last time and crash-looping since."""
    if waiting == "CrashLoopBackOff":
        return last.get("reason") == "OOMKilled"
    return now.get("reason") == "OOMKilled"


def _scheduler_key(message: str) -> str:
    """A scheduler message without its node counts, so that pods of one cause group together."""
    return re.sub(r"\d+", "N", message)


def _whole_gpus(count: int) -> str:
    return "GPU" if count == 1 else "GPUs"


# The scheduler's words for a GPU resource short on every node: whole GPUs or one MIG profile.
_INSUFFICIENT_GPU = re.compile(r"Insufficient nvidia\.com/(?:gpu|mig-[\w.-]*\w)")


def _restarts(count: int) -> str:
    return "restart" if count == 1 else "restarts"


def diagnose(inputs: WhyInput) -> WhyReport:
    """The findings about one graph, root cause first (see the module docstring)."""
    return _Diagnosis(inputs).run()


def is_operator_deployment(deploy: Mapping[str, Any]) -> bool:
    """The Dynamo operator's Deployment: its ``manager`` container runs the operator's image
    (``.../kubernetes-operator:<version>``), or the chart's name label says so."""
    labels = mapping(_meta(deploy).get("labels"))
    if "dynamo-operator" in str(labels.get("app.kubernetes.io/name") or ""):
        return True
    template = mapping(mapping(deploy.get("spec")).get("template"))
    return any(
        c.get("name") == "manager" and "kubernetes-operator" in str(c.get("image") or "")
        for c in items(mapping(template.get("spec")).get("containers"))
    )
