"""The Argo CD health verdict (core.health); the Lua health check must agree on these fixtures."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubectl_dgd.core.health import health
from kubectl_dgd.core.phase import FAILURE_REASONS, PERMANENT_FAILURE_REASONS
from tests.unit.status_fixtures import saved

# Every saved example and the verdict Argo CD should show for it.
EXAMPLE_VERDICTS = {
    "healthy": ("Healthy", "All resources are ready"),
    "grove-healthy": ("Healthy", "All resources are ready"),
    "superseded": ("Healthy", "All resources are ready"),
    "rolling-update-in-progress": (
        "Progressing",
        "Rolling update InProgress: 1 of 2 worker components updated",
    ),
    "sequential-restart-in-progress": (
        "Progressing",
        "Restart 2026-11-30T09:40:00Z in progress: VllmDecodeWorker",
    ),
    "failed": (
        "Degraded",
        'failed_to_reconcile_the_resources: backend framework mismatch: detected "sglang" from command but explicitly configured as "vllm"',
    ),
}


@pytest.mark.parametrize(("example", "verdict"), EXAMPLE_VERDICTS.items())
def test_each_saved_example_gets_its_verdict(example: str, verdict: tuple[str, str]) -> None:
    assert health(saved(example)) == verdict


@pytest.mark.parametrize("obj", [None, {}, "text"])
def test_a_missing_object_is_missing(obj: Any) -> None:
    assert health(obj) == ("Missing", "DynamoGraphDeployment not found")


def test_a_graph_being_deleted_is_progressing() -> None:
    obj = saved("healthy")
    obj["metadata"]["deletionTimestamp"] = "2026-11-30T09:00:00Z"
    assert health(obj) == ("Progressing", "Deleting")


def test_a_graph_without_status_waits_for_the_operator() -> None:
    obj = saved("healthy")
    del obj["status"]
    assert health(obj) == ("Progressing", "Waiting for the operator to report status")


def test_a_stale_status_is_progressing_even_when_it_says_ready() -> None:
    obj = saved("healthy")
    obj["metadata"]["generation"] = 3
    assert health(obj) == (
        "Progressing",
        "Waiting for the operator to observe generation 3 (observed 2)",
    )


def test_failure_beats_a_running_rolling_update() -> None:
    obj = saved("rolling-update-in-progress")
    obj["status"]["state"] = "failed"
    obj["status"]["conditions"][0].update(reason="rolling_update_failed", message="new pods crash")
    assert health(obj) == ("Degraded", "rolling_update_failed: new pods crash")


def test_failed_state_without_a_ready_reason_is_progressing() -> None:
    # Nothing says the failure will come back: the operator retries, and a Degraded would abort
    # a sync with waves or hooks at once.
    obj = saved("failed")
    obj["status"]["conditions"] = []
    assert health(obj) == ("Progressing", "Reconcile failed")


# Each failure reason the operator writes, and whether it comes back on every retry until
# something changes (Degraded) or names a step the operator retries (Progressing).
REASON_VERDICTS = {
    "failed_to_reconcile_the_resources": "Degraded",
    "rolling_update_failed": "Degraded",
    "no_multinode_orchestrator_available": "Degraded",
    "selected_workload_provider_unavailable": "Degraded",
    "unsupported_workload_provider": "Degraded",
    "failed_to_initialize_worker_hash": "Progressing",
    "failed_to_migrate_worker_hash": "Progressing",
    "failed_to_handle_the_finalizer": "Progressing",
}


def test_every_failure_reason_has_a_verdict() -> None:
    assert set(REASON_VERDICTS) == FAILURE_REASONS
    assert {r for r, v in REASON_VERDICTS.items() if v == "Degraded"} == PERMANENT_FAILURE_REASONS


@pytest.mark.parametrize("state", ["failed", "pending"])
@pytest.mark.parametrize(("reason", "verdict"), REASON_VERDICTS.items())
def test_a_failure_reason_is_degraded_only_when_it_is_not_transient(
    reason: str, verdict: str, state: str
) -> None:
    obj = saved("healthy")
    obj["status"]["state"] = state
    ready = next(c for c in obj["status"]["conditions"] if c["type"] == "Ready")
    ready.update(status="False", reason=reason, message="what the operator says")
    assert health(obj) == (verdict, f"{reason}: what the operator says")


def test_a_failure_without_a_known_reason_is_progressing() -> None:
    obj = saved("healthy")
    obj["status"]["state"] = "failed"
    ready = next(c for c in obj["status"]["conditions"] if c["type"] == "Ready")
    ready.update(
        status="False", reason="some_resources_are_not_ready", message="Resources not ready"
    )
    assert health(obj) == ("Progressing", "some_resources_are_not_ready: Resources not ready")


def test_a_failed_rolling_update_or_restart_is_degraded() -> None:
    obj = saved("healthy")
    obj["status"]["rollingUpdate"] = {"phase": "Failed"}
    assert health(obj) == ("Degraded", "Rolling update failed")
    obj = saved("healthy")
    obj["spec"]["restart"] = {"id": "r2"}
    obj["status"]["restart"] = {"observedID": "r2", "phase": "Failed"}
    assert health(obj) == ("Degraded", "Restart r2 failed")


def test_a_failure_reason_is_degraded_even_if_state_was_not_updated() -> None:
    obj = saved("healthy")
    obj["status"]["state"] = "pending"
    obj["status"]["conditions"][0].update(
        status="False", reason="no_multinode_orchestrator_available", message=""
    )
    assert health(obj) == ("Degraded", "no_multinode_orchestrator_available")


def test_a_failed_rolling_update_phase_is_degraded() -> None:
    obj = saved("rolling-update-in-progress")
    obj["status"]["rollingUpdate"]["phase"] = "Failed"
    assert health(obj) == ("Degraded", "Rolling update failed")


def test_a_failed_restart_of_the_current_id_is_degraded() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["status"]["restart"]["phase"] = "Failed"
    assert health(obj) == ("Degraded", "Restart 2026-11-30T09:40:00Z failed")


def test_a_restart_id_not_yet_observed_is_progressing() -> None:
    obj = saved("superseded")
    obj["spec"]["restart"]["id"] = "restart-3"
    assert health(obj) == ("Progressing", "Restart restart-3 requested")


def test_a_superseded_restart_does_not_hold_the_graph_back() -> None:
    assert health(saved("superseded"))[0] == "Healthy"


def test_all_components_scaled_to_zero_is_healthy_with_a_message() -> None:
    # Not Suspended: a sync with waves or hooks completes a resource only on Healthy, and has
    # no timeout by default (gitops-engine sync_context), so it would wait forever.
    obj = saved("healthy")
    for component in obj["spec"]["components"]:
        component["replicas"] = 0
    assert health(obj) == ("Healthy", "All components are scaled to zero")


def test_one_component_at_zero_is_not_suspended() -> None:
    obj = saved("healthy")
    obj["spec"]["components"][1]["replicas"] = 0
    assert health(obj)[0] == "Healthy"


def test_not_ready_without_a_failure_reason_is_progressing() -> None:
    obj = saved("healthy")
    obj["status"]["state"] = "pending"
    obj["status"]["conditions"][0].update(
        status="False", reason="insufficient_capacity", message="0/4 nodes"
    )
    assert health(obj) == ("Progressing", "insufficient_capacity: 0/4 nodes")


def test_ready_unknown_is_progressing() -> None:
    obj = saved("healthy")
    obj["status"]["conditions"][0].update(status="Unknown", reason="", message="")
    assert health(obj) == ("Progressing", "Not ready")


def test_successful_state_without_a_ready_condition_is_healthy() -> None:
    obj = saved("healthy")
    obj["status"]["conditions"] = []
    assert health(obj) == ("Healthy", "successful")


def test_initializing_without_conditions_waits_for_ready() -> None:
    obj = saved("healthy")
    obj["status"] = {"state": "initializing"}
    assert health(obj) == ("Progressing", "Waiting for the Ready condition (state initializing)")


def test_health_never_raises_on_odd_shapes() -> None:
    odd = {
        "metadata": [],
        "spec": {"components": "x", "restart": 1},
        "status": {"conditions": [1, None], "restart": []},
    }
    assert health(odd)[0] == "Progressing"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
ready_conditions = st.lists(
    st.fixed_dictionaries(
        {"type": st.just("Ready")},
        optional={
            "status": st.sampled_from(["True", "False", "Unknown"]),
            "reason": json_values,
            "message": json_values,
        },
    ),
    max_size=2,
)
dgd_like = st.fixed_dictionaries(
    {},
    optional={
        "metadata": st.dictionaries(
            st.sampled_from(["generation", "deletionTimestamp"]), json_values
        ),
        "spec": st.dictionaries(st.sampled_from(["components", "restart"]), json_values),
        "status": st.dictionaries(
            st.sampled_from(
                ["state", "conditions", "rollingUpdate", "restart", "observedGeneration"]
            ),
            json_values,
        ),
    },
)


@given(dgd_like)
def test_health_always_gives_a_known_verdict(obj: dict[str, Any]) -> None:
    status, message = health(obj)
    assert status in {"Healthy", "Progressing", "Degraded", "Suspended", "Missing"}
    assert isinstance(message, str) and message
