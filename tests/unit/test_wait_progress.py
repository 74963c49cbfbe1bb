"""The progress lines of a wait (issue 20, item 6): ``restart --wait`` says what ``rollout
status`` says, in one prose (usecases/rollout.state_of): the restart's progress in the
operator's order, the replicas of each component not settled (updated, ready, available), and
under the line what ``why`` finds blocking it, said once per change; the timeout points at
``why`` and ``rollout status`` with ``-n``."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime
from typing import Any

from kubectl_dgd.core.restart import RestartRequest
from kubectl_dgd.output.printer import Options, format_view
from kubectl_dgd.output.style import PLAIN
from kubectl_dgd.usecases.live_restart import request_restart, wait_for_restart
from kubectl_dgd.usecases.rollout import Progress, RolloutState, rollout_state
from tests.cluster.conftest import graph
from tests.fakes import FakeCluster

MOMENT = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
GPUS = "InsufficientGPU: 1 pod needs 8 GPUs on one node; the most free on any node is 0"


def _restarting(rv: str, phase: str = "Restarting", in_progress: tuple[str, ...] = ("decode",)):  # type: ignore[no-untyped-def]
    """my-graph with restart r9 at ``phase``; decode's new pod is up but not ready."""
    obj = graph(restart={"id": "r9", "strategy": {"type": "Sequential"}})
    obj["metadata"].update(resourceVersion=rv, generation=2)
    obj["status"]["observedGeneration"] = 2
    obj["status"]["restart"] = {"observedID": "r9", "phase": phase, "inProgress": list(in_progress)}
    if phase == "Restarting":
        decode = obj["status"]["components"]["decode"]
        decode.update(replicas=3, updatedReplicas=1, readyReplicas=2, availableReplicas=2)
    return obj


def _wait(script: list[dict[str, Any]], blocking: Any = None) -> tuple[list[RolloutState], str]:
    # then quiet watches, until the deadline passes on the counting clock
    scripts = [[("MODIFIED", o) for o in script]] + [[] for _ in range(20)]
    cluster = FakeCluster([graph()], watch_scripts=scripts)
    started = request_restart(
        cluster,  # type: ignore[arg-type]
        "my-graph",
        "dynamo",
        RestartRequest(restart_id="r9"),
        MOMENT,
    )
    states: list[RolloutState] = []
    ticks = itertools.count()
    outcome = wait_for_restart(
        cluster,  # type: ignore[arg-type]
        started,
        lambda: float(next(ticks)),
        10,
        states.append,
        blocking,
    )
    return states, outcome.message


def test_restart_wait_names_the_progress_and_each_unsettled_components_replicas() -> None:
    states, message = _wait([_restarting("2"), _restarting("3", "Completed", ())])
    assert [s.line for s in states] == [
        'Waiting for dgd "my-graph" rollout to finish: restart r9 not yet picked up by the '
        "operator...",
        'Waiting for dgd "my-graph" rollout to finish: restart r9 Restarting (done: Frontend; '
        "in progress: decode; next: prefill); decode: 3 replicas for 2 desired, 1 updated, "
        "2 ready, 2 available...",
    ]
    assert message == "restart r9 completed"  # the result (stdout), not a progress line


def test_restart_wait_and_rollout_status_say_the_same_of_the_same_graph() -> None:
    obj = _restarting("2")
    states, _ = _wait([obj])
    assert states[-1].line == rollout_state(copy.deepcopy(obj)).line


def test_the_blocking_reason_stands_under_the_line_once_until_it_changes() -> None:
    asked: list[int] = []

    def blocking() -> str:
        asked.append(1)
        return GPUS

    again = _restarting("3")
    again["status"]["components"]["decode"]["readyReplicas"] = 1  # a new line, the same cause
    states, message = _wait([_restarting("2"), again], blocking)
    # not asked about our own patch (the operator cannot have acted on it yet)
    assert [s.blocked for s in states] == [None, GPUS, None]
    assert len(asked) == 2
    text = format_view(states[1], "text", Options(PLAIN, width=200))
    assert text.splitlines()[-1] == f"  blocked by {GPUS}"
    assert message == (
        "timed out waiting for restart r9 to complete; what blocks it: kubectl dgd why my-graph "
        "-n dynamo; follow it: kubectl dgd rollout status my-graph -n dynamo"
    )


def test_an_unchanged_line_is_not_said_again_nor_diagnosed() -> None:
    said: list[RolloutState] = []
    asked: list[int] = []
    progress = Progress(said.append, lambda: asked.append(1) or None)  # type: ignore[func-returns-value]
    state = rollout_state(_restarting("2"))
    progress(state)
    progress(state)
    assert len(said) == 1 and len(asked) == 1
    progress(rollout_state(graph()))  # rolled out: nothing to diagnose
    assert said[-1].done and len(asked) == 1
