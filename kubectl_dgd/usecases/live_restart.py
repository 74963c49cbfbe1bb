"""``restart NAME``: plan from the live graph, patch only ``spec.restart``, optionally follow it.

The patch carries the resourceVersion we read, so a concurrent write makes it fail with 409
instead of silently winning. We then re-read and retry a bounded number of times; because the
patch names only ``spec.restart``, another writer's change to any other field survives. If the
other writer changed ``spec.restart`` itself we stop rather than overwrite their request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.core.graph import read_graph
from kubectl_dgd.core.phase import (
    RESTART_COMPLETED,
    RESTART_FAILED,
    RESTART_SUPERSEDED,
    graph_phase,
)
from kubectl_dgd.core.restart import (
    RestartPlan,
    RestartRefused,
    RestartRequest,
    current_restart,
    plan_restart,
)
from kubectl_dgd.core.views import RestartSummary
from kubectl_dgd.errors import ConflictError, DgdError, RefusedError
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import Clock, GraphCluster
from kubectl_dgd.usecases.rollout import Progress, RolloutState, state_of
from kubectl_dgd.usecases.watching import TimedOut, follow

MAX_ATTEMPTS = 5
ARGOCD_TRACKING_ANNOTATION = "argocd.argoproj.io/tracking-id"
ARGOCD_INSTANCE_LABEL = "app.kubernetes.io/instance"
MANAGED_BY_LABEL = "app.kubernetes.io/managed-by"


@dataclass
class LiveRestart:
    """A restart to make on the cluster."""

    name: str
    namespace: str
    plan: RestartPlan
    graph: dict[str, Any]
    attempts: int = 0
    argocd: str | None = None  # why we think Argo CD manages it
    dry_run: bool = False
    server_dry_run: bool = False  # the patch went to admission with dryRun=All, not stored

    def summary(self) -> RestartSummary:
        plan = self.plan
        outcome = (
            "dry run: nothing patched"
            if self.dry_run
            else "server dry run: admission accepted the patch; nothing stored"
            if self.server_dry_run
            else f"dynamographdeployment.nvidia.com/{self.name} restart requested"
        )
        return RestartSummary(
            f"{self.namespace}/{self.name}", plan.old_id, plan.new_id, plan.describe(), outcome
        )


def merge_patch(old: Any, new: Any) -> Any:
    """The JSON merge patch (RFC 7386) turning ``old`` into ``new``: removed keys become null."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return new
    patch: dict[str, Any] = {}
    for key in old.keys() - new.keys():
        patch[key] = None
    for key, value in new.items():
        if key not in old:
            patch[key] = value
        elif old[key] != value:
            patch[key] = merge_patch(old[key], value)
    return patch


def argocd_marker(graph: dict[str, Any]) -> str | None:
    meta = graph.get("metadata") or {}
    if ARGOCD_TRACKING_ANNOTATION in (meta.get("annotations") or {}):
        return f"annotation {ARGOCD_TRACKING_ANNOTATION}"
    labels = meta.get("labels") or {}
    # Argo CD's label tracking writes app.kubernetes.io/instance, but so does Helm: a graph
    # Helm manages (app.kubernetes.io/managed-by: Helm) is not taken for an Argo CD one.
    if ARGOCD_INSTANCE_LABEL in labels and labels.get(MANAGED_BY_LABEL) != "Helm":
        return f"label {ARGOCD_INSTANCE_LABEL}"
    return None


def _plan(graph: dict[str, Any], request: RestartRequest, now: datetime) -> RestartPlan:
    try:
        plan = plan_restart(graph, request, now)
    except RestartRefused as err:
        raise RefusedError("restart refused: " + "; ".join(err.reasons)) from err
    phase = graph_phase(read_graph(graph))
    if phase.rollout_active:
        raise RefusedError(
            f'restart refused: spec.restart.id: Invalid value: "{plan.new_id}": cannot be changed '
            f"while a rolling update is {phase.rollout_phase} (the rolling update replaces the "
            "worker pods anyway)"
        )
    return plan


def request_restart(
    cluster: GraphCluster,
    name: str,
    namespace: str,
    request: RestartRequest,
    now: datetime,
    dry_run: bool = False,
    server_dry_run: bool = False,
) -> LiveRestart:
    """``dry_run``: plan only, no request after the GET (kubectl's --dry-run=client);
    ``server_dry_run``: send the patch with dryRun=All, so admission judges it (=server)."""
    graph = named_graph(cluster, name, namespace)
    plan = _plan(graph, request, now)
    result = LiveRestart(
        name,
        namespace,
        plan,
        graph,
        argocd=argocd_marker(graph),
        dry_run=dry_run,
        server_dry_run=server_dry_run,
    )
    if dry_run:
        return result
    # Later attempts must write the same id we announced.
    pinned = RestartRequest(request.parallel, request.order, plan.new_id)
    read_id = plan.old_id
    for attempt in range(1, MAX_ATTEMPTS + 1):
        result.attempts = attempt
        version = str((graph.get("metadata") or {}).get("resourceVersion") or "")
        patch = merge_patch(current_restart(graph), plan.restart)
        try:
            result.graph = cluster.patch_restart(
                name, namespace, patch, version, dry_run=server_dry_run
            )
            result.plan = plan
            return result
        except ConflictError:
            if attempt == MAX_ATTEMPTS:
                raise
        graph = cluster.get_graph(name, namespace)
        now_id = current_restart(graph).get("id")
        if now_id != read_id:
            raise ConflictError(
                f"another writer set spec.restart.id to {now_id!r} since we read the graph; "
                "not overwriting their restart request"
            )
        plan = _plan(graph, pinned, now)
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class WaitOutcome:
    """How a restart's wait ended."""

    ok: bool
    message: str


def _outcome(restart_id: str, phase: str | None) -> WaitOutcome | None:
    """How our restart ended, once the operator says (``phase``: its phase for our id)."""
    if phase == RESTART_COMPLETED:
        return WaitOutcome(True, f"restart {restart_id} completed")
    if phase == RESTART_SUPERSEDED:
        return WaitOutcome(
            False,
            f"restart {restart_id} was superseded by a rolling update: the operator does not "
            "restart while workers are being replaced (the rolling update recreates them)",
        )
    if phase == RESTART_FAILED:
        return WaitOutcome(False, f"restart {restart_id} failed (status.restart.phase Failed)")
    return None


def wait_for_restart(
    cluster: GraphCluster,
    started: LiveRestart,
    clock: Clock,
    timeout: float | None,
    report: Callable[[RolloutState], None],
    blocking: Callable[[], str | None] | None = None,
) -> WaitOutcome:
    """Follow the graph until our restart id is Completed, Superseded or Failed, or time runs
    out. Until then ``report`` gets each new state in ``rollout status``'s words (the restart's
    progress, the replicas of each component not settled), with what ``blocking`` (the ``why``
    diagnosis) says blocks it; the timeout's message points at ``why`` and ``rollout status``,
    with ``-n``."""
    restart_id = started.plan.new_id
    progress = Progress(report, blocking)

    def check(graph: dict[str, Any], diagnose: bool = True) -> WaitOutcome | None:
        dgd = read_graph(graph)
        phase = graph_phase(dgd)
        ours = phase.restart_observed_id == restart_id
        outcome = _outcome(restart_id, phase.restart_phase if ours else None)
        if outcome is None:
            progress(state_of(phase, dgd), diagnose)
        return outcome

    outcome = check(started.graph, diagnose=False)  # our patch: the operator has not looked yet
    if outcome:
        return outcome
    try:
        for graph in follow(cluster, started.graph, clock, timeout):
            outcome = check(graph)
            if outcome:
                return outcome
    except TimedOut:
        pass
    except DgdError as err:
        # The restart is written: not the API failure (exit 4) a script would retry, which
        # would restart a second time; the wait failed, as when it times out.
        return WaitOutcome(
            False, f"restart {restart_id} was requested, but following it failed: {err}"
        )
    meta = started.graph.get("metadata") or {}
    where = f"{meta.get('name')} -n {meta.get('namespace') or cluster.namespace}"
    return WaitOutcome(
        False,
        f"timed out waiting for restart {restart_id} to complete; what blocks it: "
        f"kubectl dgd why {where}; follow it: kubectl dgd rollout status {where}",
    )
