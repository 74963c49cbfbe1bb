"""The health verdict Argo CD should show for a DGD: ``health(obj) -> (status, message)``.

It reads the raw object (a mapping, as ``kubectl get -o json`` gives it) so the Argo CD Lua
health check can mirror it line by line; both must agree on every status fixture. The first rule
that matches decides (``reason``/``message`` are those of the Ready condition):

1. ``obj`` is not a mapping or is empty                       -> Missing
   "DynamoGraphDeployment not found"
2. ``metadata.deletionTimestamp`` set                         -> Progressing "Deleting"
3. no ``status`` mapping                                      -> Progressing
   "Waiting for the operator to report status"
4. Degraded, first match of:
   a. ``status.state == "failed"``                            -> "<reason>: <message>" (or
      "<reason>", or "Reconcile failed" without a Ready condition reason)
   b. Ready False with a failure reason (FAILURE_REASONS)     -> "<reason>: <message>"
   c. ``status.rollingUpdate.phase == "Failed"``              -> "Rolling update failed"
   d. ``status.restart.phase == "Failed"`` for the spec id    -> "Restart <id> failed"
5. ``status.observedGeneration`` < ``metadata.generation``     -> Progressing
   "Waiting for the operator to observe generation <g> (observed <o>)"
6. ``status.rollingUpdate.phase`` Pending or InProgress       -> Progressing
   "Rolling update <phase>: <n> of <m> worker components updated", where m counts the
   spec components of type worker, prefill or decode
7. ``spec.restart.id`` differs from ``status.restart.observedID`` -> Progressing
   "Restart <id> requested"
8. ``status.restart.phase`` is Restarting or Pending          -> Progressing
   "Restart <id> in progress: <inProgress joined with ", ">"
9. every spec component has ``replicas: 0`` (and there is one) -> Suspended
   "All components are scaled to zero"
10. Ready True                                                -> Healthy, "<message>" or "Ready"
11. Ready False or Unknown                                    -> Progressing, "<reason>: <message>"
12. no Ready condition and ``state == "successful"``           -> Healthy "successful"
13. otherwise                                                 -> Progressing
    "Waiting for the Ready condition (state <state>)"

A Superseded or Completed restart does not hold the graph back. Pending with reasons such as
``insufficient_capacity`` stays Progressing (capacity may arrive), as Argo CD treats pending Pods.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

HealthStatus = Literal["Healthy", "Progressing", "Degraded", "Suspended", "Missing"]

# Ready reasons the operator writes when reconciling failed (docs/operator-semantics.md#conditions).
FAILURE_REASONS = frozenset(
    {
        "failed_to_reconcile_the_resources",
        "rolling_update_failed",
        "failed_to_initialize_worker_hash",
        "failed_to_migrate_worker_hash",
        "no_multinode_orchestrator_available",
        "selected_workload_provider_unavailable",
        "unsupported_workload_provider",
        "failed_to_handle_the_finalizer",
    }
)
WORKER_TYPES = ("worker", "prefill", "decode")


def health(obj: Any) -> tuple[HealthStatus, str]:
    if not isinstance(obj, Mapping) or not obj:
        return "Missing", "DynamoGraphDeployment not found"
    metadata, spec, status = _map(obj.get("metadata")), _map(obj.get("spec")), obj.get("status")
    if metadata.get("deletionTimestamp"):
        return "Progressing", "Deleting"
    if not isinstance(status, Mapping):
        return "Progressing", "Waiting for the operator to report status"
    ready = _ready(status)
    degraded = _degraded(spec, status, ready)
    if degraded:
        return "Degraded", degraded
    progressing = _progressing(metadata, spec, status)
    if progressing:
        return "Progressing", progressing
    components = [_map(c) for c in _list(spec.get("components"))]
    if components and all(c.get("replicas") == 0 for c in components):
        return "Suspended", "All components are scaled to zero"
    if ready.get("status") == "True":
        return "Healthy", str(ready.get("message") or "Ready")
    if ready.get("status") in ("False", "Unknown"):
        return "Progressing", _reason_message(ready)
    if status.get("state") == "successful":
        return "Healthy", "successful"
    return (
        "Progressing",
        f"Waiting for the Ready condition (state {status.get('state') or 'unset'})",
    )


def _degraded(spec: Mapping[str, Any], status: Mapping[str, Any], ready: Mapping[str, Any]) -> str:
    if status.get("state") == "failed":
        return _reason_message(ready) if ready.get("reason") else "Reconcile failed"
    reason = ready.get("reason")
    if ready.get("status") == "False" and isinstance(reason, str) and reason in FAILURE_REASONS:
        return _reason_message(ready)
    if _map(status.get("rollingUpdate")).get("phase") == "Failed":
        return "Rolling update failed"
    restart = _map(status.get("restart"))
    spec_id = _map(spec.get("restart")).get("id")
    if restart.get("phase") == "Failed" and restart.get("observedID") == spec_id:
        return f"Restart {spec_id} failed"
    return ""


def _progressing(
    metadata: Mapping[str, Any], spec: Mapping[str, Any], status: Mapping[str, Any]
) -> str:
    generation, observed = metadata.get("generation"), status.get("observedGeneration")
    if isinstance(generation, int) and isinstance(observed, int) and observed < generation:
        return f"Waiting for the operator to observe generation {generation} (observed {observed})"
    rolling = _map(status.get("rollingUpdate"))
    if rolling.get("phase") in ("Pending", "InProgress"):
        workers = [c for c in _list(spec.get("components")) if _map(c).get("type") in WORKER_TYPES]
        updated = len(_list(rolling.get("updatedComponents")))
        return f"Rolling update {rolling['phase']}: {updated} of {len(workers)} worker components updated"
    restart = _map(status.get("restart"))
    spec_id = _map(spec.get("restart")).get("id")
    if spec_id and spec_id != restart.get("observedID"):
        return f"Restart {spec_id} requested"
    if restart.get("phase") in ("Restarting", "Pending"):
        in_progress = ", ".join(str(n) for n in _list(restart.get("inProgress")))
        return f"Restart {restart.get('observedID')} in progress: {in_progress}"
    return ""


def _ready(status: Mapping[str, Any]) -> Mapping[str, Any]:
    for condition in _list(status.get("conditions")):
        if _map(condition).get("type") == "Ready":
            return _map(condition)
    return {}


def _reason_message(ready: Mapping[str, Any]) -> str:
    reason, message = ready.get("reason") or "", ready.get("message") or ""
    if reason and message:
        return f"{reason}: {message}"
    return str(reason or message or "Not ready")


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
