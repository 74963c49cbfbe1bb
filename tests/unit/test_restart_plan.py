"""The restart plan: the spec.restart to write, or admission's reasons to refuse."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from kubectl_dgd.core.restart import (
    RestartRefused,
    RestartRequest,
    default_order,
    new_restart_id,
    order_errors,
    plan_restart,
)

NOW = datetime(2026, 11, 30, 1, 2, 3, tzinfo=UTC)


def graph(
    *names: str, restart: dict[str, object] | None = None, lpx: str | None = None
) -> dict[str, object]:
    components: list[dict[str, object]] = [{"name": n, "type": "worker"} for n in names]
    if lpx:
        components.append({"name": lpx, "type": "lpx"})
    spec: dict[str, object] = {"components": components}
    if restart is not None:
        spec["restart"] = restart
    return {"apiVersion": "nvidia.com/v1beta1", "kind": "DynamoGraphDeployment", "spec": spec}


def refusal(g: dict[str, object], request: RestartRequest) -> list[str]:
    with pytest.raises(RestartRefused) as info:
        plan_restart(g, request, NOW)
    return info.value.reasons


def test_default_id_is_now_in_rfc3339_utc() -> None:
    plan = plan_restart(graph("frontend", "worker"), RestartRequest(), NOW)
    assert plan.new_id == "2026-11-30T01:02:03Z"
    assert plan.old_id is None
    assert plan.restart == {"id": "2026-11-30T01:02:03Z", "strategy": {"type": "Sequential"}}


def test_default_id_converts_other_time_zones_to_utc() -> None:
    local = datetime(2026, 11, 30, 3, 2, 3, tzinfo=timezone(timedelta(hours=2)))
    assert new_restart_id(local, None) == "2026-11-30T01:02:03Z"


def test_default_id_moves_on_when_it_equals_the_current_id() -> None:
    g = graph("worker", restart={"id": "2026-11-30T01:02:03Z"})
    plan = plan_restart(g, RestartRequest(), NOW)
    assert plan.old_id == "2026-11-30T01:02:03Z"
    assert plan.new_id == "2026-11-30T01:02:04Z"


def test_explicit_id_is_used_verbatim() -> None:
    plan = plan_restart(graph("worker"), RestartRequest(restart_id="fix-1234"), NOW)
    assert plan.new_id == "fix-1234"


def test_explicit_id_equal_to_current_is_refused() -> None:
    reasons = refusal(graph("worker", restart={"id": "same"}), RestartRequest(restart_id="same"))
    assert reasons == [
        'spec.restart.id: "same" is already the current id; a restart needs a new id'
    ]


def test_parallel_writes_parallel_and_drops_a_previous_order() -> None:
    g = graph(
        "a", "b", restart={"id": "1", "strategy": {"type": "Sequential", "order": ["b", "a"]}}
    )
    plan = plan_restart(g, RestartRequest(parallel=True), NOW)
    assert plan.restart == {"id": plan.new_id, "strategy": {"type": "Parallel"}}
    assert plan.describe() == "Parallel (all components at once)"


def test_order_writes_sequential_with_the_order() -> None:
    plan = plan_restart(graph("a", "b"), RestartRequest(order=("b", "a")), NOW)
    assert plan.restart["strategy"] == {"type": "Sequential", "order": ["b", "a"]}
    assert plan.describe() == "Sequential (order: b, a)"


def test_no_flags_keep_the_files_strategy() -> None:
    g = graph(
        "a", "b", restart={"id": "1", "strategy": {"type": "Sequential", "order": ["b", "a"]}}
    )
    plan = plan_restart(g, RestartRequest(), NOW)
    assert plan.restart["strategy"] == {"type": "Sequential", "order": ["b", "a"]}


def test_unknown_keys_of_the_existing_restart_are_kept() -> None:
    g = graph(
        "a", restart={"id": "1", "note": "keep", "strategy": {"type": "Parallel", "extra": 1}}
    )
    plan = plan_restart(g, RestartRequest(parallel=True), NOW)
    assert plan.restart == {
        "id": plan.new_id,
        "note": "keep",
        "strategy": {"type": "Parallel", "extra": 1},
    }


def test_default_order_is_byte_order_upper_case_first() -> None:
    assert default_order(["worker", "Frontend", "decode"]) == ["Frontend", "decode", "worker"]
    plan = plan_restart(graph("worker", "Frontend"), RestartRequest(), NOW)
    assert plan.describe() == "Sequential (default order: Frontend, worker)"


def test_order_with_parallel_is_refused_with_the_operators_reason() -> None:
    reasons = refusal(graph("a", "b"), RestartRequest(parallel=True, order=("a", "b")))
    assert reasons == [
        "spec.restart.strategy.order: Forbidden: cannot be specified when strategy is parallel"
    ]


def test_duplicate_order_is_refused() -> None:
    reasons = refusal(
        graph("frontend", "worker"), RestartRequest(order=("frontend", "worker", "worker"))
    )
    assert reasons == [
        'spec.restart.strategy.order: Invalid value: ["frontend","worker","worker"]: must be unique'
    ]


def test_unknown_name_in_order_is_refused_with_sorted_supported_values() -> None:
    reasons = refusal(graph("worker", "frontend"), RestartRequest(order=("frontend", "ghost")))
    assert reasons == [
        'spec.restart.strategy.order[1]: Unsupported value: "ghost": supported values: "frontend", "worker"'
    ]


def test_incomplete_order_is_refused() -> None:
    reasons = refusal(graph("frontend", "worker"), RestartRequest(order=("worker",)))
    assert reasons == [
        'spec.restart.strategy.order: Invalid value: ["worker"]: '
        "must have the same number of unique components as the deployment"
    ]


def test_order_names_match_case_sensitively() -> None:
    reasons = refusal(graph("Frontend"), RestartRequest(order=("frontend",)))
    assert reasons == [
        'spec.restart.strategy.order[0]: Unsupported value: "frontend": supported values: "Frontend"'
    ]


def test_lpx_graph_without_parallel_is_refused() -> None:
    reasons = refusal(graph("frontend", lpx="engine"), RestartRequest())
    assert reasons == [
        "spec.restart.strategy.type must be Parallel when the graph contains LPX components (use --parallel)"
    ]


def test_lpx_graph_with_parallel_is_planned() -> None:
    plan = plan_restart(graph("frontend", lpx="engine"), RestartRequest(parallel=True), NOW)
    assert plan.strategy == "Parallel"


def test_empty_order_with_sequential_is_valid() -> None:
    assert order_errors([], ["a"], "Sequential") == []
