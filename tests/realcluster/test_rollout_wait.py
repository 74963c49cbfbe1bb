"""``rollout status`` of a managed rolling update whose new worker pod the real scheduler cannot
place (scenarios.stuck_rollout + rollout_change, with the other node filled): the wait names the
replicas per component and the blocking reason ``why`` finds, and on timeout points at ``why``
with ``-n``."""

from __future__ import annotations

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace, stuck_rollout_on_pool


def _start_stuck_rollout(real_ns: RealNamespace) -> None:
    # on the test's own two 8-GPU nodes (gpu_pool): the new worker pod has no node
    live = stuck_rollout_on_pool(real_ns)
    real_ns.rest.request(
        "PUT",
        real_ns.rest.path("DynamoGraphDeployment", real_ns.name, "stuck-rollout"),
        scenarios.rollout_change(live),
    )
    real_ns.wait_graph(
        "stuck-rollout",
        "rolling update InProgress",
        lambda o: ((o.get("status") or {}).get("rollingUpdate") or {}).get("phase") == "InProgress",
    )


def test_rollout_status_names_replicas_and_the_pending_new_pod_and_points_at_why(
    real_ns: RealNamespace, gpu_pool: list[str]
) -> None:
    _start_stuck_rollout(real_ns)
    done = real_ns.kdgd(
        "rollout", "status", "stuck-rollout", "--timeout", "3s", env={"COLUMNS": "400"}
    )
    assert done.returncode == 1, done.stderr
    waiting, blocked = done.stdout.splitlines()[:2]
    assert waiting == (
        'Waiting for dgd "stuck-rollout" rollout to finish: rolling update InProgress, 0 of 1 '
        "worker components updated (none yet); VllmDecodeWorker: 2 replicas for 1 desired, "
        "1 new, 1 ready, 1 available..."
    )
    # the real scheduler's verdict on the new pod, as `why` ranks it first; not "drain"
    assert blocked.startswith("  blocked by InsufficientGPU: 1 pod needs 8 GPUs on one node")
    # only the pool's nodes count: the shared ones are ruled out by its selector and taints
    assert (
        "the most free on any node it may run on is 0 (0 free of 16 on the 2 nodes its "
        "nodeSelector, affinity and tolerations allow;"
    ) in blocked
    assert "drain" not in done.stdout
    assert done.stderr.strip() == (
        "error: timed out waiting for the condition; what blocks it: "
        f"kubectl dgd why stuck-rollout -n {real_ns.name}"
    )


def test_rollout_explain_says_the_same_and_every_command_carries_the_namespace(
    real_ns: RealNamespace, gpu_pool: list[str]
) -> None:
    _start_stuck_rollout(real_ns)
    done = real_ns.kdgd("rollout", "explain", "stuck-rollout", who="dev", env={"COLUMNS": "400"})
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line]
    assert lines[1].startswith("Blocked by InsufficientGPU: 1 pod needs 8 GPUs on one node")
    assert (
        "Waiting for: VllmDecodeWorker: replicas to become ready: 1 of 2 ready (1 new, 1 old); "
        "the old generation is scaled down only as new replicas become ready." in lines
    )
    assert "no new generation yet" not in done.stdout and "drain" not in done.stdout
    commands = [
        line.split(": ", 1)[1] for line in lines if line.startswith("- ") and "kubectl dgd" in line
    ]
    assert commands == [
        f"kubectl dgd why stuck-rollout -n {real_ns.name}",
        f"kubectl dgd rollout status stuck-rollout -n {real_ns.name}",
    ]
