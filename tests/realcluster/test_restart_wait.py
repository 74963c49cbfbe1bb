"""``restart NAME --wait`` through the console script against the real control plane, the
simulated operator restarting (issue 20, item 6): its progress lines are ``rollout status``'s
(the restart's progress, each unsettled component's replicas), a new pod the real scheduler
cannot place is named under the line by ``why``'s diagnosis, and the timeout points at ``why``
and ``rollout status`` with ``-n``.

The stuck case restarts ``gpu-starved`` (16 GPUs on one pod, no node has them), so it holds no
GPU of the shared cluster while it waits."""

from __future__ import annotations

import itertools

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace, pinned

WAIT = 'Waiting for dgd "{name}" rollout to finish: restart {id}'


def test_restart_wait_follows_the_restart_to_completion_as_the_namespace_user(
    real_ns: RealNamespace, gpu_pool: list[str]
) -> None:
    # on nodes of its own: the restart's surge pod must find a GPU at once, whatever the tests
    # beside it hold of the shared nodes (else "blocked by InsufficientGPU" is right to show)
    real_ns.create(pinned(scenarios.healthy(real_ns.name), real_ns.name))
    real_ns.wait_ready("healthy")
    done = real_ns.kdgd(
        "restart", "healthy", "--id", "r1", "--wait", "--timeout", "90s", who="dev",
        env={"COLUMNS": "400"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "restart r1 completed"
    # the namespace-scoped user cannot list nodes: the GPU peak check says so, once
    warning, *lines = done.stderr.splitlines()
    assert warning.startswith("warning: GPU peak check skipped: forbidden (403)"), warning
    # the operator picked it up and restarted both components (in the order it reports them)
    wait = WAIT.format(name="healthy", id="r1")
    assert any(line.startswith(f"{wait} Restarting (in progress: ") for line in lines), lines
    assert all(line.startswith('Waiting for dgd "healthy"') for line in lines), "\n".join(lines)
    assert "blocked by" not in done.stderr


def test_restart_wait_times_out_naming_the_new_pod_the_scheduler_cannot_place(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(scenarios.gpu_starved(real_ns.name))
    real_ns.wait_graph(
        "gpu-starved",
        "observed",
        lambda o: (o.get("status") or {}).get("observedGeneration") == o["metadata"]["generation"],
    )
    done = real_ns.kdgd(
        "restart", "gpu-starved", "--id", "r1", "--wait", "--timeout", "8s",
        env={"COLUMNS": "400"},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    restarting = [
        i
        for i, line in enumerate(lines)
        if line.startswith(WAIT.format(name="gpu-starved", id="r1") + " Restarting")
    ]
    assert restarting, lines
    # the worker's replicas, old and new pod both Pending: none ready or available
    assert "VllmDecodeWorker: " in lines[restarting[0]] and " 0 ready" in lines[restarting[0]]
    blocked = [i for i, line in enumerate(lines) if line.startswith("  blocked by ")]
    # under the first line the operator acted on; again only when its words change (the free
    # GPUs of a cluster shared with other tests move)
    assert blocked and blocked[0] == restarting[0] + 1, lines
    said = [lines[i] for i in blocked]
    assert all(s.startswith("  blocked by InsufficientGPU: ") and "16 GPUs" in s for s in said)
    assert all(a != b for a, b in itertools.pairwise(said)), said
    assert lines[-1] == (
        "error: timed out waiting for restart r1 to complete; what blocks it: "
        f"kubectl dgd why gpu-starved -n {real_ns.name}; follow it: "
        f"kubectl dgd rollout status gpu-starved -n {real_ns.name}"
    )
