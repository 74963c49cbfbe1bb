"""Where a graph stands, computed once: ``graph_phase(graph) -> Phase``.

Readiness (the Ready condition and every component's ready replicas), the restart phase, the
managed rolling-update phase, and whether the graph has settled. ``status``, ``list``,
``rollout status``/``explain``, the Argo CD health verdict, ``diff`` and the Argo CD preview all
read these facts from here, so they cannot disagree about the same object.

A component is ready when the operator reports at least as many ready replicas as the spec
desires, counted by its kind (``ComponentStatus.ready``): a Ready condition alone is not enough
(the condition may lag behind the counts). Settled = status reported, not deleting, nothing
failed, the current generation observed, no managed rolling update Pending/InProgress, the
requested restart done, and ready.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the webhook imports the phase names without the model
    from kubectl_dgd.core.graph import Condition, Graph

# status.rollingUpdate.phase
ROLLOUT_PENDING = "Pending"
ROLLOUT_IN_PROGRESS = "InProgress"
ROLLOUT_COMPLETED = "Completed"
ROLLOUT_FAILED = "Failed"
ACTIVE_ROLLOUT_PHASES = frozenset({ROLLOUT_PENDING, ROLLOUT_IN_PROGRESS})

# status.restart.phase
RESTART_PENDING = "Pending"
RESTART_RESTARTING = "Restarting"
RESTART_COMPLETED = "Completed"
RESTART_FAILED = "Failed"
RESTART_SUPERSEDED = "Superseded"
ACTIVE_RESTART_PHASES = frozenset({RESTART_RESTARTING, RESTART_PENDING})
# A Superseded restart is over too: the rolling update replaced the worker pods instead.
FINISHED_RESTART_PHASES = frozenset({RESTART_COMPLETED, RESTART_SUPERSEDED})

# status.state
STATE_FAILED = "failed"
STATE_SUCCESSFUL = "successful"

# Ready reasons the operator writes when reconciling failed. Those that come back on every retry
# until something changes (in Git or in the cluster's installation) are permanent: building or
# applying the children from this spec failed (a backend mismatch, a child the API refuses), a
# rolling update failed, the orchestrator or workload provider is missing. The others (the worker
# hash could not be read or migrated, the finalizer could not run, a failure without a reason)
# are errors of a step the operator retries with backoff, so a health check must not call them
# Degraded: Argo CD aborts a sync with waves or hooks at the first Degraded resource.
PERMANENT_FAILURE_REASONS = frozenset(
    {
        "failed_to_reconcile_the_resources",
        "rolling_update_failed",
        "no_multinode_orchestrator_available",
        "selected_workload_provider_unavailable",
        "unsupported_workload_provider",
    }
)
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


@dataclass(frozen=True)
class ComponentReadiness:
    """Desired and ready replicas of one component."""

    name: str
    desired: int
    ready: int  # 0 when the operator reports nothing for it

    @property
    def is_ready(self) -> bool:
        return self.ready >= self.desired


@dataclass(frozen=True)
class Phase:
    """The facts every view derives its verdict from (see the module docstring)."""

    name: str
    deleting: bool
    reported: bool  # there is a status
    state: str | None
    ready_condition: Condition | None
    # Why the graph failed, in the health check's words ("" when it did not).
    failure: str
    # The failure is one the operator will not get past by retrying (see PERMANENT_FAILURE_REASONS).
    failure_permanent: bool
    generation: int | None
    observed_generation: int | None
    rollout_phase: str  # "" when none
    updated_components: tuple[str, ...]  # worker components the rolling update has updated
    workers: int
    restart_id: str | None  # spec.restart.id
    restart_observed_id: str | None
    restart_phase: str | None
    restart_in_progress: tuple[str, ...]
    components: tuple[ComponentReadiness, ...]

    @property
    def failed(self) -> bool:
        """Failed for good (a failure the operator retries is still in flight), and not on its
        way out (a graph being deleted is only being deleted)."""
        return self.reported and not self.deleting and bool(self.failure) and self.failure_permanent

    @property
    def unobserved(self) -> bool:
        """The operator has not yet observed the current generation."""
        gen, seen = self.generation, self.observed_generation
        return gen is not None and seen is not None and seen < gen

    @property
    def rollout_active(self) -> bool:
        return self.rollout_phase in ACTIVE_ROLLOUT_PHASES

    @property
    def updated_workers(self) -> int:
        return len(self.updated_components)

    @property
    def restart_requested(self) -> bool:
        """A spec restart id the operator has not picked up yet."""
        return bool(self.restart_id) and self.restart_id != self.restart_observed_id

    @property
    def restart_active(self) -> bool:
        return self.restart_phase in ACTIVE_RESTART_PHASES

    @property
    def restart_failed(self) -> bool:
        return self.restart_phase == RESTART_FAILED and self.restart_observed_id == self.restart_id

    @property
    def ready_components(self) -> int:
        return sum(c.is_ready for c in self.components)

    @property
    def ready_replicas(self) -> int:
        return sum(c.ready for c in self.components)

    @property
    def desired_replicas(self) -> int:
        return sum(c.desired for c in self.components)

    @property
    def components_ready(self) -> bool:
        return all(c.is_ready for c in self.components)

    @property
    def suspended(self) -> bool:
        """Every component is scaled to zero (and there is one)."""
        return bool(self.components) and all(c.desired == 0 for c in self.components)

    @property
    def ready_status(self) -> str | None:
        return self.ready_condition.status if self.ready_condition else None

    @property
    def condition_ready(self) -> bool:
        """The operator says Ready: the condition is True, or absent with state successful."""
        if self.ready_condition is not None and self.ready_status in ("True", "False", "Unknown"):
            return self.ready_status == "True"
        return self.state == STATE_SUCCESSFUL

    @property
    def ready(self) -> bool:
        return self.condition_ready and self.components_ready

    @property
    def in_flight(self) -> bool:
        """A generation, rolling update or restart the operator is still working through."""
        return (
            self.unobserved or self.rollout_active or self.restart_requested or self.restart_active
        )

    @property
    def settled(self) -> bool:
        """Nothing left to wait for: reported, not deleting, not failed, not in flight, and
        ready (or scaled to zero on purpose)."""
        if not self.reported or self.deleting or self.failure or self.in_flight:
            return False
        return self.suspended or self.ready


def graph_phase(graph: Graph) -> Phase:
    status = graph.status
    ready = status.ready_condition if status else None
    rolling = status.rolling_update if status else None
    restart = status.restart if status else None
    return Phase(
        name=graph.name,
        deleting=bool(graph.deletion_timestamp),
        reported=status is not None,
        state=status.state if status else None,
        ready_condition=ready,
        failure=_failure(graph, ready) if status else "",
        failure_permanent=_failure_permanent(graph, ready) if status else False,
        generation=graph.generation,
        observed_generation=status.observed_generation if status else None,
        rollout_phase=(rolling.phase or "") if rolling else "",
        updated_components=rolling.updated_components if rolling else (),
        workers=len(graph.workers),
        restart_id=graph.restart_id,
        restart_observed_id=restart.observed_id if restart else None,
        restart_phase=restart.phase if restart else None,
        restart_in_progress=restart.in_progress if restart else (),
        components=tuple(_readiness(graph, c.name, c.desired_replicas) for c in graph.components),
    )


def _readiness(graph: Graph, name: str, desired: int) -> ComponentReadiness:
    observed = graph.observed(name)
    return ComponentReadiness(name, desired, observed.ready_count if observed else 0)


def _failure_permanent(graph: Graph, ready: Condition | None) -> bool:
    """Whether ``_failure``'s answer is one the operator cannot retry past (same order)."""
    assert graph.status is not None
    status = graph.status
    reason = ready.reason if ready else None
    if status.state == STATE_FAILED or (
        ready and ready.status == "False" and reason in FAILURE_REASONS
    ):
        return reason in PERMANENT_FAILURE_REASONS
    if status.rolling_update and status.rolling_update.phase == ROLLOUT_FAILED:
        return True
    restart = status.restart
    return bool(
        restart and restart.phase == RESTART_FAILED and restart.observed_id == graph.restart_id
    )


def _failure(graph: Graph, ready: Condition | None) -> str:
    """The first failure of: state failed, a failure reason on Ready False, a failed rolling
    update, a failed restart of the spec's id."""
    assert graph.status is not None
    status = graph.status
    if status.state == STATE_FAILED:
        return reason_message(ready) if ready and ready.reason else "Reconcile failed"
    if ready and ready.status == "False" and ready.reason in FAILURE_REASONS:
        return reason_message(ready)
    if status.rolling_update and status.rolling_update.phase == ROLLOUT_FAILED:
        return "Rolling update failed"
    restart = status.restart
    if restart and restart.phase == RESTART_FAILED and restart.observed_id == graph.restart_id:
        return f"Restart {graph.restart_id} failed"
    return ""


def reason_message(ready: Condition | None) -> str:
    """``<reason>: <message>`` of the Ready condition, or whichever of them there is."""
    reason = (ready.reason if ready else None) or ""
    message = (ready.message if ready else None) or ""
    if reason and message:
        return f"{reason}: {message}"
    return reason or message or "Not ready"
