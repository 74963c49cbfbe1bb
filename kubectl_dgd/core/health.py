"""The health verdict Argo CD should show for a DGD: ``health(obj) -> (status, message)``.

It takes the raw object (a mapping, as ``kubectl get -o json`` gives it), reads it tolerantly
(``core.graph``) and words its ``core.phase`` facts, so the status view, ``rollout status`` and
the Argo CD Lua health check (which mirrors these rules line by line) agree on every status
fixture. The first rule that matches decides (``reason``/``message`` are those of the Ready
condition):

1. ``obj`` is not a mapping or is empty                       -> Missing
   "DynamoGraphDeployment not found"
2. ``metadata.deletionTimestamp`` set                         -> Progressing "Deleting"
3. no ``status`` mapping                                      -> Progressing
   "Waiting for the operator to report status"
4. a failure, first match of:
   a. ``status.state == "failed"``                            -> "<reason>: <message>" (or
      "<reason>", or "Reconcile failed" without a Ready condition reason)
   b. Ready False with a failure reason (phase.FAILURE_REASONS) -> "<reason>: <message>"
   c. ``status.rollingUpdate.phase == "Failed"``              -> "Rolling update failed"
   d. ``status.restart.phase == "Failed"`` for the spec id    -> "Restart <id> failed"
   is Degraded only when it comes back on every retry until something changes (c, d, and the
   reasons of phase.PERMANENT_FAILURE_REASONS: the children could not be built or applied from
   this spec, a rolling update failed, no multinode orchestrator, the workload provider
   unavailable or unsupported); any other (the worker hash, the finalizer, no reason) is
   Progressing with the same message: the operator retries that step with backoff, and Argo CD
   aborts a sync with waves or hooks at the first Degraded resource.
5. ``status.observedGeneration`` < ``metadata.generation``     -> Progressing
   "Waiting for the operator to observe generation <g> (observed <o>)"
6. ``status.rollingUpdate.phase`` Pending or InProgress       -> Progressing
   "Rolling update <phase>: <n> of <m> worker components updated", where m counts the
   spec components of type worker, prefill or decode
7. ``spec.restart.id`` differs from ``status.restart.observedID`` -> Progressing
   "Restart <id> requested"
8. ``status.restart.phase`` is Restarting or Pending          -> Progressing
   "Restart <id> in progress: <inProgress joined with ", ">"
9. every spec component has ``replicas: 0`` (and there is one) -> Healthy
   "All components are scaled to zero" (not Suspended: a sync with waves or hooks waits for
   Healthy and has no timeout by default, and an ApplicationSet progressive sync needs
   Healthy; Argo CD's own CronJob check answers Healthy "CronJob is Suspended" for that reason)
10. Ready True (or rule 13's case) but a spec component reports fewer ready replicas than it
    desires (counted by kind: available replicas for a PodCliqueScalingGroup, ready ones
    otherwise; unreported counts 0)                           -> Progressing
    "<n> of <m> components ready; waiting for <names joined with ", ">"
11. Ready True                                                -> Healthy, "<message>" or "Ready"
12. Ready False or Unknown                                    -> Progressing, "<reason>: <message>"
13. no Ready condition and ``state == "successful"``           -> Healthy "successful"
14. otherwise                                                 -> Progressing
    "Waiting for the Ready condition (state <state>)"

A Superseded or Completed restart does not hold the graph back. Pending with reasons such as
``insufficient_capacity`` stays Progressing (capacity may arrive), as Argo CD treats pending Pods.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from kubectl_dgd.core.graph import read_graph
from kubectl_dgd.core.phase import Phase, graph_phase, reason_message

HealthStatus = Literal["Healthy", "Progressing", "Degraded", "Suspended", "Missing"]


def health(obj: Any) -> tuple[HealthStatus, str]:
    if not isinstance(obj, Mapping) or not obj:
        return "Missing", "DynamoGraphDeployment not found"
    return phase_health(graph_phase(read_graph(dict(obj))))


def phase_health(phase: Phase) -> tuple[HealthStatus, str]:
    """The verdict of a phase, rules 2-14 in order."""
    if phase.deleting:
        return "Progressing", "Deleting"
    if not phase.reported:
        return "Progressing", "Waiting for the operator to report status"
    if phase.failure:
        return ("Degraded" if phase.failure_permanent else "Progressing"), phase.failure
    progressing = _progressing(phase)
    if progressing:
        return "Progressing", progressing
    if phase.suspended:
        return "Healthy", "All components are scaled to zero"
    if phase.condition_ready and not phase.components_ready:
        waiting = ", ".join(c.name for c in phase.components if not c.is_ready)
        return (
            "Progressing",
            f"{phase.ready_components} of {len(phase.components)} components ready; "
            f"waiting for {waiting}",
        )
    ready = phase.ready_condition
    if phase.ready_status == "True":
        return "Healthy", str((ready.message if ready else None) or "Ready")
    if phase.ready_status in ("False", "Unknown"):
        return "Progressing", reason_message(ready)
    if phase.state == "successful":
        return "Healthy", "successful"
    return "Progressing", f"Waiting for the Ready condition (state {phase.state or 'unset'})"


def _progressing(phase: Phase) -> str:
    if phase.unobserved:
        return (
            f"Waiting for the operator to observe generation {phase.generation} "
            f"(observed {phase.observed_generation})"
        )
    if phase.rollout_active:
        return (
            f"Rolling update {phase.rollout_phase}: {phase.updated_workers} of {phase.workers} "
            "worker components updated"
        )
    if phase.restart_requested:
        return f"Restart {phase.restart_id} requested"
    if phase.restart_active:
        return f"Restart {phase.restart_observed_id} in progress: " + ", ".join(
            phase.restart_in_progress
        )
    return ""
