"""Rolling-update and restart explanations (docs/operator-semantics.md#rolling-update, #restart)."""

from __future__ import annotations

from datetime import timedelta

from kubectl_dgd.core.rollout import explain_restart, explain_rolling_update, restart_order
from tests.unit.status_fixtures import NOW, model, saved


def rolling(name: str = "rolling-update-in-progress", **edits: object):  # type: ignore[no-untyped-def]
    obj = saved(name)
    obj["status"].update(edits)
    return explain_rolling_update(model(obj), NOW)


def test_in_progress_update_reports_phase_and_elapsed_time_since_start() -> None:
    view = rolling()
    assert view is not None
    assert (view.phase, view.active) == ("InProgress", True)
    assert view.elapsedSeconds == 300
    assert view.elapsed == "5m"


def test_elapsed_time_follows_the_clock_given() -> None:
    view = explain_rolling_update(
        model(saved("rolling-update-in-progress")), NOW + timedelta(hours=1)
    )
    assert view is not None and view.elapsed == "1h5m"


def test_updated_and_pending_worker_components_are_listed() -> None:
    view = rolling()
    assert view is not None
    assert view.updatedComponents == ["decode"]
    assert view.pendingComponents == ["prefill"]
    assert [w.name for w in view.workers] == ["decode", "prefill"]  # the frontend is not rolled


def test_old_and_new_backing_names_are_split_by_the_recorded_worker_hash() -> None:
    view = rolling()
    assert view is not None
    prefill = view.workers[1]
    assert prefill.oldNames == ["sglang-disagg-prefill-3f2a9c1d"]
    assert prefill.newNames == ["sglang-disagg-prefill-7b4e0d52"]
    assert (view.oldWorkerHash, view.newWorkerHash) == ("3f2a9c1d", "7b4e0d52")


def test_runtime_namespace_cutover_names_old_and_new_namespaces() -> None:
    view = rolling()
    assert view is not None
    assert view.oldRuntimeNamespace == "dynamo-sglang-disagg-3f2a9c1d"
    assert view.newRuntimeNamespace == "dynamo-sglang-disagg-7b4e0d52"
    assert any("frontend cuts over when the update completes" in line for line in view.lines)


def test_blocker_names_the_pending_component_and_its_missing_new_replicas() -> None:
    view = rolling()
    assert view is not None
    assert view.blockers == ["prefill: new replicas: 1 of 2 created"]
    assert view.lines[-1] == "Waiting for: prefill: new replicas: 1 of 2 created."


def test_replicas_not_ready_yet_are_what_blocks() -> None:
    # The counts span both generations: which replica is the unready one is not claimed.
    obj = saved("rolling-update-in-progress")
    obj["status"]["components"]["prefill"].update(replicas=4, updatedReplicas=2, readyReplicas=1)
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert view.blockers == [
        "prefill: replicas to become ready: 1 of 4 ready (2 new, 2 old); the old generation is "
        "scaled down only as new replicas become ready"
    ]


def test_a_new_replica_not_ready_beside_a_ready_old_one_is_not_called_a_drain() -> None:
    # The stuck rollout: the old pod ready, the new one Pending; the counts alone cannot tell
    # which one is ready, but a replica not ready means the drain has not begun.
    obj = saved("rolling-update-in-progress")
    obj["status"]["components"]["prefill"].update(replicas=3, updatedReplicas=2, readyReplicas=2)
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert view.blockers == [
        "prefill: replicas to become ready: 2 of 3 ready (2 new, 1 old); the old generation is "
        "scaled down only as new replicas become ready"
    ]
    assert (
        "prefill: old sglang-disagg-prefill-3f2a9c1d -> new sglang-disagg-prefill-7b4e0d52; "
        "3 replicas (2 new, 1 old), 2 ready, for 2 desired." in view.lines
    )


def test_counts_before_a_new_generation_exists_claim_no_new_replicas() -> None:
    # Only the old Deployment: its updatedReplicas is its own, not the rollout's.
    obj = saved("rolling-update-in-progress")
    obj["status"]["components"]["prefill"]["componentNames"] = ["sglang-disagg-prefill-3f2a9c1d"]
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    line = next(x for x in view.lines if x.startswith("prefill:"))
    assert line == (
        "prefill: old sglang-disagg-prefill-3f2a9c1d, no new generation yet; 3 replicas, "
        "2 ready, for 2 desired."
    )


def test_old_generation_still_running_is_what_blocks_once_new_replicas_are_ready() -> None:
    obj = saved("rolling-update-in-progress")
    obj["status"]["components"]["prefill"].update(replicas=3, updatedReplicas=2, readyReplicas=3)
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert view.blockers == [
        "prefill: the old generation to drain: 1 old replica left, every replica ready"
    ]


def test_recreate_strategy_waits_for_the_old_generation_first() -> None:
    obj = saved("rolling-update-in-progress")
    prefill = obj["spec"]["components"][2]
    prefill["podTemplate"]["metadata"] = {
        "annotations": {"nvidia.com/deployment-strategy": "Recreate"}
    }
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert view.blockers[0].startswith(
        "prefill: the old generation to drain before new pods start (Recreate strategy)"
    )


def test_a_failed_graph_is_named_as_a_blocker() -> None:
    obj = saved("rolling-update-in-progress")
    obj["status"]["state"] = "failed"
    obj["status"]["conditions"][0].update(reason="rolling_update_failed", message="boom")
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert (
        view.blockers[-1] == "the graph failed (rolling_update_failed: boom); fix the cause first"
    )


def test_pending_phase_waits_for_the_operator_to_create_the_new_generation() -> None:
    view = rolling(rollingUpdate={"phase": "Pending", "startTime": "2026-11-30T09:59:30Z"})
    assert view is not None
    assert (
        view.blockers[0] == "the operator to create the new worker generation on its next reconcile"
    )
    assert view.elapsed == "30s"


def test_legacy_worker_names_without_a_hash_are_the_old_generation() -> None:
    obj = saved("rolling-update-in-progress")
    obj["metadata"]["annotations"]["nvidia.com/current-worker-hash-v2"] = "legacy"
    obj["status"]["components"]["prefill"]["componentNames"] = [
        "sglang-disagg-prefill",
        "sglang-disagg-prefill-7b4e0d52",
    ]
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert view.workers[1].oldNames == ["sglang-disagg-prefill"]
    assert view.workers[1].newNames == ["sglang-disagg-prefill-7b4e0d52"]


def test_completed_update_reports_its_duration_not_the_time_since_start() -> None:
    view = explain_rolling_update(model(saved("superseded")), NOW + timedelta(days=3))
    assert view is not None
    assert (view.phase, view.active, view.elapsedSeconds) == ("Completed", False, 570)
    assert view.lines[0].startswith(
        "Managed rolling update Completed at 2026-11-30T09:21:30Z after 9m30s"
    )


def test_component_graph_without_rolling_update_has_no_explanation() -> None:
    assert explain_rolling_update(model(saved("healthy")), NOW) is None


def test_grove_graph_rolls_natively_with_the_default_strategy() -> None:
    view = explain_rolling_update(model(saved("grove-healthy")), NOW)
    assert view is not None
    assert view.phase == "None" and not view.active
    assert [(n.kind, n.components) for n in view.native] == [
        ("Grove", ["Frontend", "TrtllmWorker"])
    ]
    assert "Grove's default applies" in view.lines[0]
    assert "worker runtime namespaces switch only after every worker clique" in view.lines[0]


def test_grove_on_delete_strategy_is_explained() -> None:
    obj = saved("grove-healthy")
    obj["metadata"]["annotations"]["nvidia.com/grove-update-strategy"] = "OnDelete"
    view = explain_rolling_update(model(obj), NOW)
    assert (
        view is not None and "only when you delete them (update strategy OnDelete)" in view.lines[0]
    )


def test_grove_provider_is_recognised_from_component_kinds_without_the_annotation() -> None:
    obj = saved("grove-healthy")
    del obj["metadata"]["annotations"]["nvidia.com/workload-provider"]
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None and view.native[0].kind == "Grove"


def test_leader_worker_set_components_roll_natively() -> None:
    obj = saved("healthy")
    obj["spec"]["components"][2]["multinode"] = {"nodeCount": 2}
    obj["status"]["components"]["VllmDecodeWorker"]["componentKind"] = "LeaderWorkerSet"
    view = explain_rolling_update(model(obj), NOW)
    assert view is not None
    assert [(n.kind, n.components) for n in view.native] == [
        ("LeaderWorkerSet", ["VllmDecodeWorker"])
    ]
    assert "RollingUpdateNotSupported" in view.lines[0]


# ---- restart ---------------------------------------------------------------------------------


def restart(obj: dict[str, object]):  # type: ignore[no-untyped-def]
    return explain_restart(model(obj))


def test_default_sequential_order_is_byte_order_of_names() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["spec"]["components"][0]["name"] = "frontend"  # lower case sorts after upper case
    assert restart_order(model(obj)) == (
        ["Planner", "VllmDecodeWorker", "VllmPrefillWorker", "frontend"],
        "alphabetical",
    )


def test_sequential_restart_reports_done_in_progress_and_next() -> None:
    view = restart(saved("sequential-restart-in-progress"))
    assert view is not None
    assert view.order == ["Frontend", "Planner", "VllmDecodeWorker", "VllmPrefillWorker"]
    assert (view.done, view.inProgress, view.next) == (
        ["Frontend", "Planner"],
        ["VllmDecodeWorker"],
        ["VllmPrefillWorker"],
    )
    assert (
        view.lines[2]
        == "In progress: VllmDecodeWorker. Done: Frontend, Planner. Next: VllmPrefillWorker."
    )


def test_strategy_order_from_the_spec_is_followed() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["spec"]["restart"]["strategy"] = {
        "type": "Sequential",
        "order": ["VllmDecodeWorker", "VllmPrefillWorker", "Planner", "Frontend"],
    }
    view = restart(obj)
    assert view is not None
    assert view.orderSource == "spec"
    assert (view.done, view.next) == ([], ["VllmPrefillWorker", "Planner", "Frontend"])


def test_in_progress_component_outside_the_order_restarts_the_sequence() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["status"]["restart"]["inProgress"] = ["Gone"]
    view = restart(obj)
    assert view is not None
    assert view.next == view.order
    assert "Gone is not in the order, so the sequence starts again from Frontend." in view.lines


def test_completed_restart_has_every_component_done() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["status"]["restart"] = {"observedID": obj["spec"]["restart"]["id"], "phase": "Completed"}
    view = restart(obj)
    assert view is not None
    assert view.done == view.order and view.next == []


def test_parallel_restart_counts_components_no_longer_in_progress_as_done() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["spec"]["restart"]["strategy"] = {"type": "Parallel"}
    obj["status"]["restart"]["inProgress"] = ["VllmDecodeWorker", "VllmPrefillWorker"]
    view = restart(obj)
    assert view is not None
    assert view.done == ["Frontend", "Planner"]
    assert view.lines[1] == "Strategy: Parallel."


def test_a_new_id_not_yet_observed_is_reported_as_requested() -> None:
    obj = saved("sequential-restart-in-progress")
    obj["spec"]["restart"]["id"] = "later"
    view = restart(obj)
    assert view is not None
    assert view.requested and view.next == view.order and view.done == []
    assert view.lines[0] == "Restart later requested; the operator has not picked it up yet."
    assert view.lines[2] == "Last observed restart: 2026-11-30T09:40:00Z (Restarting)."


def test_a_request_during_a_rolling_update_is_predicted_superseded() -> None:
    obj = saved("rolling-update-in-progress")
    obj["spec"]["restart"] = {"id": "r1"}
    view = restart(obj)
    assert view is not None
    assert "will mark this restart Superseded" in view.lines[-1]


def test_superseded_restart_is_explained() -> None:
    view = restart(saved("superseded"))
    assert view is not None
    assert view.phase == "Superseded"
    assert view.lines[2].startswith("Superseded: a managed rolling update was running")
    assert "RestartSuperseded" in view.lines[2]


def test_no_restart_in_spec_or_status_has_no_explanation() -> None:
    assert restart(saved("healthy")) is None


def test_start_time_in_the_future_shows_no_elapsed_time_but_keeps_the_start() -> None:
    from datetime import UTC, datetime

    from tests.unit.status_fixtures import model, saved

    dgd = model(saved("rolling-update-in-progress"))
    before_start = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    lines = explain_rolling_update(dgd, before_start).lines
    assert lines[0] == "Managed rolling update InProgress (since 2026-11-30T09:55:00Z)."
