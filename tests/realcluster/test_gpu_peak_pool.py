"""The peak check of ``diff -f`` on the real control plane, for a graph kept to a node pool by
its nodeSelector: only the pool's free GPUs count, whatever the shared nodes have free."""

from __future__ import annotations

import json

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace, stuck_rollout_on_pool


def test_a_rolling_update_that_fits_the_cluster_but_not_its_pool_is_warned_of(
    real_ns: RealNamespace, gpu_pool: list[str]
) -> None:
    # the pool's two 8-GPU nodes: one holds the filler, the other stuck-rollout's worker
    live = stuck_rollout_on_pool(real_ns)
    changed = scenarios.rollout_change(live)
    for key in ("resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"):
        changed["metadata"].pop(key, None)
    changed.pop("status", None)
    path = real_ns.folder / "stuck-rollout.yaml"
    path.write_text(json.dumps(changed))

    done = real_ns.kdgd("diff", "-f", str(path), env={"COLUMNS": "400"})

    assert done.returncode == 1, done.stderr  # differences
    (warning,) = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert warning.startswith(
        "warning: VllmDecodeWorker: the managed rolling update needs 8 more nvidia.com/gpu at its "
        "peak (1 new pod of 8 GPUs); the nodes its nodeSelector and affinity allow have 0 free "
        "(at most 0 on one node)"
    ), warning
