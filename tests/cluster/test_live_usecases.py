"""The live use cases with a fake cluster port: watch re-connects, 410 Gone, deletion, timeouts,
merge patches, restart progress, rollout states, ages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_dgd.core.timefmt import human_age
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.live_restart import merge_patch
from kubectl_dgd.usecases.rollout import rollout_state
from kubectl_dgd.usecases.watching import TimedOut, follow
from tests.cluster.conftest import graph


def versioned(rv: str, **status: Any) -> dict[str, Any]:
    obj = graph()
    obj["metadata"]["resourceVersion"] = rv
    obj["status"].update(status)
    return obj


class FakeCluster:
    """Each watch call plays the next script: a list of events, or an exception to raise."""

    namespace = "dynamo"

    def __init__(self, scripts: list[Any], fresh: dict[str, Any] | None = None) -> None:
        self.scripts = scripts
        self.fresh = fresh
        self.watches: list[str] = []
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    def watch_graphs(
        self, namespace: str, name: str, resource_version: str, timeout: float | None = None
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        self.watches.append(resource_version)
        if not self.scripts:
            raise AssertionError("watched more often than scripted")
        script = self.scripts.pop(0)
        if isinstance(script, Exception):
            raise script
        yield from script

    def get_graph(self, name: str, namespace: str | None = None) -> dict[str, Any]:
        assert self.fresh is not None
        return self.fresh


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_follow_rewatches_from_the_last_version_when_the_stream_ends() -> None:
    cluster = FakeCluster([[("MODIFIED", versioned("2"))], [("MODIFIED", versioned("3"))]])
    seen = follow(cluster, versioned("1"), Clock())  # type: ignore[arg-type]
    assert [next(seen)["metadata"]["resourceVersion"] for _ in range(2)] == ["2", "3"]
    assert cluster.watches == ["1", "2"]


def test_follow_skips_bookmarks_and_repeats_but_moves_the_version() -> None:
    bookmark = {"metadata": {"resourceVersion": "5"}}
    cluster = FakeCluster(
        [[("BOOKMARK", bookmark), ("MODIFIED", versioned("5"))], [("MODIFIED", versioned("6"))]]
    )
    seen = follow(cluster, versioned("1"), Clock())  # type: ignore[arg-type]
    assert next(seen)["metadata"]["resourceVersion"] == "6"
    assert cluster.watches == ["1", "5"]


def test_follow_starts_over_after_410_gone() -> None:
    gone = ApiError("resource version too old (410)", 410, "Gone")
    cluster = FakeCluster([gone, [("MODIFIED", versioned("9"))]], fresh=versioned("8"))
    seen = follow(cluster, versioned("1"), Clock())  # type: ignore[arg-type]
    assert next(seen)["metadata"]["resourceVersion"] == "8"
    assert next(seen)["metadata"]["resourceVersion"] == "9"
    assert cluster.watches == ["1", "8"]


def test_follow_reports_a_deleted_graph() -> None:
    cluster = FakeCluster([[("DELETED", versioned("2"))]])
    with pytest.raises(NotFoundError, match="was deleted"):
        next(follow(cluster, versioned("1"), Clock()))  # type: ignore[arg-type]


def test_follow_times_out_with_nothing_happening() -> None:
    cluster = FakeCluster([[] for _ in range(10)])
    with pytest.raises(TimedOut):
        next(follow(cluster, versioned("1"), Clock(), timeout=3))  # type: ignore[arg-type]


def test_other_api_errors_propagate() -> None:
    cluster = FakeCluster([ApiError("boom", 500)])
    with pytest.raises(ApiError, match="boom"):
        next(follow(cluster, versioned("1"), Clock()))  # type: ignore[arg-type]


def test_merge_patch_nulls_removed_keys_and_keeps_equal_ones() -> None:
    old = {"id": "a", "strategy": {"type": "Sequential", "order": ["x", "y"]}}
    new = {"id": "b", "strategy": {"type": "Parallel"}}
    assert merge_patch(old, new) == {"id": "b", "strategy": {"type": "Parallel", "order": None}}
    assert merge_patch({}, new) == new
    assert merge_patch(new, new) == {}


def test_a_sequential_restart_says_done_in_progress_and_next_in_the_operators_order() -> None:
    obj = graph(restart={"id": "r"})
    obj["status"]["restart"] = {"observedID": "r", "phase": "Restarting", "inProgress": ["decode"]}
    assert rollout_state(obj).line == (
        'Waiting for dgd "my-graph" rollout to finish: restart r Restarting (done: Frontend; '
        "in progress: decode; next: prefill)..."
    )


def test_components_restarting_together_are_never_also_next() -> None:
    # the operator lists two at once (the simulated one restarts every component together)
    obj = graph(restart={"id": "r"})
    busy = ["Frontend", "decode"]
    obj["status"]["restart"] = {"observedID": "r", "phase": "Restarting", "inProgress": busy}
    assert "(in progress: Frontend, decode; next: prefill)" in rollout_state(obj).line


def test_rollout_state_needs_the_generation_observed() -> None:
    obj = graph()
    obj["metadata"]["generation"] = 2
    state = rollout_state(obj)
    assert not state.done and "generation 2 not yet observed" in state.line


def test_rollout_state_waits_for_ready_components() -> None:
    obj = graph()
    obj["status"]["components"]["decode"]["readyReplicas"] = 1
    obj["status"]["components"]["decode"]["availableReplicas"] = 1
    state = rollout_state(obj)
    assert not state.done and "2 of 3 components ready" in state.line


def test_rollout_state_waits_through_a_failure_the_operator_retries() -> None:
    obj = graph()
    obj["status"]["state"] = "failed"
    ready = next(c for c in obj["status"]["conditions"] if c["type"] == "Ready")
    ready.update(status="False", reason="failed_to_initialize_worker_hash", message="timeout")
    state = rollout_state(obj)
    assert (state.done, state.failed) == (False, False)
    assert "the operator retries after: failed_to_initialize_worker_hash: timeout" in state.line
    ready["reason"] = "failed_to_reconcile_the_resources"  # comes back on every retry
    state = rollout_state(obj)
    assert (state.done, state.failed) == (False, True)


def test_rollout_state_waits_for_a_pending_restart() -> None:
    obj = graph(restart={"id": "r2"})
    obj["status"]["restart"] = {"observedID": "r1", "phase": "Completed"}
    assert "restart r2 not yet picked up by the operator" in rollout_state(obj).line


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (None, "<unknown>"),
        (5, "5s"),
        (119, "119s"),
        (125, "2m5s"),
        (600, "10m"),
        (7200, "120m"),
        (3 * 3600 + 60, "3h1m"),
        (20 * 3600, "20h"),
        (3 * 86400 + 3600, "3d1h"),
        (30 * 86400, "30d"),
        (800 * 86400, "2y70d"),
    ],
)
def test_human_age_matches_kubectl(seconds: int | None, text: str) -> None:
    assert human_age(seconds) == text


def test_explain_names_the_field_of_the_wrong_type() -> None:
    from kubectl_dgd.errors import InputError
    from kubectl_dgd.usecases.rollout import explain
    from tests.cluster.conftest import NOW

    obj = graph()
    obj["spec"]["components"][0]["replicas"] = "two"
    with pytest.raises(InputError, match=r"spec\.components\[0\]\.replicas: expected an integer"):
        explain(obj, NOW)
