"""``doctor``: is this cluster ready for Dynamo graphs? The checks of Dynamo's own pre-deployment
script (default StorageClass, GPU nodes, GPU operator) plus what the operator itself needs (its
CRDs, its Deployment, its admission webhooks and the Service behind them, Grove or LWS).

Each check is ``pass``, ``warn``, ``fail`` (a blocker: graphs cannot run, or cannot be written)
or ``unknown`` (the account may not read it: "could not check", neither a pass nor a blocker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Result = Literal["pass", "warn", "fail", "unknown"]

DEFAULT_CLASS_ANNOTATIONS = (
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
)
DGD_WEBHOOKS = ("vdynamographdeployment.kb.io", "mdynamographdeployment.kb.io")
DEVICE_PLUGIN = "nvidia-device-plugin"
GPU = "nvidia.com/gpu"


@dataclass(frozen=True)
class Check:
    """One check: its name, result and what was found."""

    name: str
    result: Result
    detail: str

    def to_data(self) -> dict[str, str]:
        return {"check": self.name, "result": self.result, "detail": self.detail}


@dataclass
class DoctorReport:
    """Every check of ``doctor``, in the order shown."""

    checks: list[Check] = field(default_factory=list)

    @property
    def blockers(self) -> list[Check]:
        return [c for c in self.checks if c.result == "fail"]

    @property
    def ok(self) -> bool:
        return not self.blockers

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [c.to_data() for c in self.checks]}


def _meta(obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def crd_check(kind: str, served: list[str] | None, needed: str | None) -> Check:
    """A Dynamo CRD from discovery: served (at ``needed``, when given) or a blocker."""
    name = f"CRD {kind}"
    if served is None:
        return Check(name, "unknown", "API discovery did not answer")
    if not served:
        return Check(name, "fail", "not installed: install the Dynamo CRDs (the platform chart)")
    if needed is not None and needed not in served:
        return Check(
            name,
            "fail",
            f"served versions {', '.join(served)}; {needed} is needed: upgrade the CRDs",
        )
    return Check(name, "pass", f"served: {', '.join(served)}")


def operator_check(deployments: list[dict[str, Any]]) -> Check:
    """The operator Deployments (those whose manager container runs the operator image)."""
    if not deployments:
        return Check(
            "operator Deployment",
            "fail",
            "none found: graphs are not reconciled (install the platform chart)",
        )
    parts = []
    ready_any = False
    for dep in deployments:
        meta = _meta(dep)
        status = dep.get("status") or {}
        want = int((dep.get("spec") or {}).get("replicas", 1) or 0)
        ready = int(status.get("readyReplicas") or 0)
        ready_any = ready_any or ready > 0
        parts.append(f"{meta.get('namespace')}/{meta.get('name')} {ready}/{want} ready")
    if not ready_any:
        return Check("operator Deployment", "fail", "; ".join(parts) + ": no replica ready")
    return Check("operator Deployment", "pass", "; ".join(parts))


def webhooks(configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The DGD webhooks of Validating/MutatingWebhookConfigurations."""
    found = []
    for config in configs:
        for hook in config.get("webhooks") or []:
            if isinstance(hook, dict) and str(hook.get("name", "")) in DGD_WEBHOOKS:
                found.append(hook)
    return found


def webhook_check(
    kind: str, hooks: list[dict[str, Any]] | None, endpoints: dict[str, int | None]
) -> Check:
    """``endpoints``: "namespace/service" -> ready endpoint count (None: could not read)."""
    name = f"{kind} webhook"
    if hooks is None:
        return Check(name, "unknown", f"{kind}WebhookConfigurations not readable")
    if not hooks:
        return Check(
            name,
            "warn",
            "no DynamoGraphDeployment webhook registered: nothing checks graphs on admission",
        )
    parts = []
    result: Result = "pass"
    for hook in hooks:
        service = (hook.get("clientConfig") or {}).get("service") or {}
        key = f"{service.get('namespace')}/{service.get('name')}"
        policy = str(hook.get("failurePolicy") or "Fail")
        count = endpoints.get(key)
        if not service:
            parts.append(f"{hook.get('name')}: by URL (not checked)")
            continue
        if count is None:
            parts.append(f"{hook.get('name')} -> service {key}: could not check")
            result = "unknown" if result == "pass" else result
        elif count == 0:
            blocked = policy == "Fail"
            parts.append(
                f"{hook.get('name')} -> service {key}: no ready endpoint"
                + (" (failurePolicy Fail: every graph write is refused)" if blocked else "")
            )
            result = "fail" if blocked else "warn" if result != "fail" else result
        else:
            parts.append(f"{hook.get('name')} -> service {key}: {count} ready endpoint(s)")
    return Check(name, result, "; ".join(parts))


def workload_check(grove: list[str] | None, lws: list[str] | None) -> Check:
    name = "Grove / LeaderWorkerSet"
    if grove is None or lws is None:
        return Check(name, "unknown", "API discovery did not answer")
    have = [f"Grove ({', '.join(grove)})"] if grove else []
    have += [f"LWS ({', '.join(lws)})"] if lws else []
    if not have:
        return Check(
            name, "warn", "neither installed: only single-node components on the component pathway"
        )
    missing = (" (no Grove: the component pathway is used)" if not grove else "") + (
        " (no LWS: multinode needs Grove)" if not lws else ""
    )
    return Check(name, "pass", ", ".join(have) + missing)


def gpu_nodes_check(nodes: list[dict[str, Any]] | None) -> Check:
    name = "GPU nodes"
    if nodes is None:
        return Check(name, "unknown", "nodes not readable")
    counts = []
    for node in nodes:
        value = ((node.get("status") or {}).get("capacity") or {}).get(GPU)
        if value is not None and str(value) not in ("0", ""):
            counts.append(f"{_meta(node).get('name')} ({value})")
    if not counts:
        return Check(name, "fail", f"no node has {GPU} capacity: GPU workers cannot be scheduled")
    return Check(name, "pass", f"{len(counts)} with {GPU}: {', '.join(counts)}")


def device_plugin_check(
    daemonsets: list[dict[str, Any]] | None,
    gpu_operator: list[str] | None,
    gpus_advertised: bool | None,
) -> Check:
    name = "GPU operator / device plugin"
    if daemonsets is None:
        return Check(name, "unknown", "DaemonSets not readable")
    plugins = [
        f"{_meta(d).get('namespace')}/{_meta(d).get('name')} "
        f"{int((d.get('status') or {}).get('numberReady') or 0)}/"
        f"{int((d.get('status') or {}).get('desiredNumberScheduled') or 0)} ready"
        for d in daemonsets
        if DEVICE_PLUGIN in str(_meta(d).get("name", ""))
    ]
    operator = "GPU operator installed (ClusterPolicy served)" if gpu_operator else ""
    if not plugins:
        detail = "no nvidia-device-plugin DaemonSet found" + (
            f" (nodes advertise {GPU} without it)"
            if gpus_advertised
            else f": nodes cannot advertise {GPU}"
        )
        return Check(name, "warn", f"{operator}; {detail}" if operator else detail)
    return Check(name, "pass", "; ".join([*([operator] if operator else []), *plugins]))


def storage_check(classes: list[dict[str, Any]] | None) -> Check:
    name = "default StorageClass"
    if classes is None:
        return Check(name, "unknown", "StorageClasses not readable")
    default = [
        str(_meta(c).get("name"))
        for c in classes
        if any(
            str((_meta(c).get("annotations") or {}).get(key, "")).lower() == "true"
            for key in DEFAULT_CLASS_ANNOTATIONS
        )
    ]
    if not default:
        names = ", ".join(str(_meta(c).get("name")) for c in classes) or "none"
        return Check(
            name,
            "fail",
            f"no default (classes: {names}): the platform's etcd and NATS claims stay Pending",
        )
    return Check(name, "pass", ", ".join(default))
