"""``history``, ``undo`` and ``abort`` end to end on the real control plane, with the simulated
operator playing the managed rolling update (old-hash worker DCDs stay while the new come up).

A worker's change to more GPUs than any node has starts a rolling update whose new pod cannot be
placed... until abort writes the old template back, and the operator drops the new generation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace

HASH = "nvidia.com/current-worker-hash-v2"
HASH_LABEL = "nvidia.com/dynamo-worker-hash"


def _worker_hashes(ns: RealNamespace) -> set[str]:
    return {
        d["metadata"]["labels"].get(HASH_LABEL, "")
        for d in ns.rest.list(
            "DynamoComponentDeployment",
            ns.name,
            "nvidia.com/dynamo-graph-deployment-name=stuck-rollout",
        )
    } - {""}


@pytest.fixture
def rolling(real_ns: RealNamespace) -> Iterator[RealNamespace]:
    """stuck-rollout Ready with a 1-GPU worker, then its worker changed to 16 GPUs, which no
    node has: the new generation stays Pending, whatever else the shared nodes run."""
    spec = _ready_spec(real_ns)
    spec["components"][1]["podTemplate"]["spec"]["containers"][0]["resources"] = {
        "limits": {"nvidia.com/gpu": "16"}
    }
    _roll(real_ns, spec)
    yield real_ns


def _ready_spec(ns: RealNamespace) -> dict[str, Any]:
    """stuck-rollout with a 1-GPU worker, once Ready: its spec."""
    ns.create(
        scenarios.graph(
            "stuck-rollout",
            scenarios.component("Frontend", "frontend"),
            scenarios.component("VllmDecodeWorker", "worker", gpus=1),
            namespace=ns.name,
        )
    )
    spec: dict[str, Any] = ns.wait_ready("stuck-rollout")["spec"]
    return spec


def _roll(ns: RealNamespace, spec: dict[str, Any]) -> None:
    """Write ``spec`` and wait for the managed rolling update's second worker generation."""
    ns.rest.merge_patch("DynamoGraphDeployment", "stuck-rollout", ns.name, {"spec": spec})
    ns.rest.wait_for("two worker generations", lambda: len(_worker_hashes(ns)) == 2 or None, 60)


def test_history_shows_the_old_generation_rebuilt_from_its_dcds(rolling: RealNamespace) -> None:
    done = rolling.kdgd("history", "stuck-rollout", "-o", "json", who="dev")
    assert done.returncode == 0, done.stderr
    history = json.loads(done.stdout)
    recorded = rolling.graph("stuck-rollout")["metadata"]["annotations"][HASH]
    assert history["rollingUpdate"] is True and history["recordedWorkerHash"] == recorded
    old, live = history["revisions"]
    assert old["source"].startswith("old generation (DCDs of worker hash")
    assert old["exact"] is True and old["workerHash"] == recorded
    assert live["live"] is True and live["workerHash"] != recorded
    assert old["changes"] == [
        "spec.components[1].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]"
    ]
    text = rolling.kdgd("history", "stuck-rollout", env={"COLUMNS": "200"}, who="dev")
    assert "a managed rolling update runs" in text.stdout


def test_abort_writes_the_old_template_back_and_the_new_generation_goes(
    rolling: RealNamespace,
) -> None:
    recorded = rolling.graph("stuck-rollout")["metadata"]["annotations"][HASH]
    done = rolling.kdgd("abort", "stuck-rollout", who="dev")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "aborted: wrote back the worker templates of revision 1" in done.stdout
    worker = rolling.graph("stuck-rollout")["spec"]["components"][1]
    main = worker["podTemplate"]["spec"]["containers"][0]
    assert main["resources"]["limits"]["nvidia.com/gpu"] == "1"
    rolling.rest.wait_for(
        "the new generation deleted", lambda: _worker_hashes(rolling) == {recorded} or None, 60
    )
    rolling.wait_ready("stuck-rollout")
    again = rolling.kdgd("abort", "stuck-rollout", who="dev")
    assert again.returncode == 1 and "nothing to abort" in again.stderr


def test_undo_during_the_rollout_is_the_same_way_back(rolling: RealNamespace) -> None:
    done = rolling.kdgd("undo", "stuck-rollout", "-o", "json", who="dev")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["revision"] == 1


def test_undo_refused_for_argo_cd_with_self_heal_unless_forced(rolling: RealNamespace) -> None:
    rolling.rest.merge_patch(
        "DynamoGraphDeployment",
        "stuck-rollout",
        rolling.name,
        {
            "metadata": {
                "annotations": {
                    "argocd.argoproj.io/tracking-id": (
                        f"graphs:nvidia.com/DynamoGraphDeployment:{rolling.name}/stuck-rollout"
                    )
                }
            }
        },
    )
    before = rolling.graph("stuck-rollout")["metadata"]["resourceVersion"]
    done = rolling.kdgd("undo", "stuck-rollout", who="dev")
    assert done.returncode == 1
    assert "refused: the graph is tracked by Argo CD Application argocd/graphs" in done.stderr
    assert "--force" in done.stderr
    assert rolling.graph("stuck-rollout")["metadata"]["resourceVersion"] == before
    forced = rolling.kdgd("undo", "stuck-rollout", "--force", who="dev")
    assert forced.returncode == 0, forced.stderr
    assert "warning: --force:" in forced.stderr


def test_a_graph_without_kept_history_has_nothing_to_undo(real_ns: RealNamespace) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    real_ns.wait_ready("healthy")
    done = real_ns.kdgd("undo", "healthy", who="dev")
    assert done.returncode == 1
    assert "no previous revision of 'healthy' is kept in the cluster" in done.stderr


def test_kubectl_apply_leaves_a_revision_undo_restores(real_ns: RealNamespace) -> None:
    """kubectl apply's last-applied-configuration is an exact revision; undo writes it back."""
    graph = scenarios.healthy(real_ns.name)
    applied = real_ns.kubectl("apply", "-f", "-", stdin=json.dumps(graph))
    assert applied.returncode == 0, applied.stderr
    real_ns.wait_ready("healthy")
    frontend = {"spec": {"components": [dict(c) for c in graph["spec"]["components"]]}}
    frontend["spec"]["components"][0]["replicas"] = 3
    real_ns.rest.merge_patch("DynamoGraphDeployment", "healthy", real_ns.name, frontend)
    history = json.loads(real_ns.kdgd("history", "healthy", "-o", "json").stdout)
    assert history["revisions"][0]["source"] == "last-applied-configuration"
    assert history["revisions"][0]["changes"] == ["spec.components[0].replicas"]
    done = real_ns.kdgd("undo", "healthy", "--to-revision", "1")
    assert done.returncode == 0, done.stderr
    assert "no rolling update" in done.stdout
    assert real_ns.graph("healthy")["spec"]["components"][0]["replicas"] == 1


def test_undo_into_the_git_file_leaves_the_cluster_alone(real_ns: RealNamespace) -> None:
    """The GitOps form: the file gets the previous value, comments kept; the graph is unchanged."""
    graph = scenarios.healthy(real_ns.name)
    assert real_ns.kubectl("apply", "-f", "-", stdin=json.dumps(graph)).returncode == 0
    real_ns.wait_ready("healthy")
    patch = {"spec": {"components": [dict(c) for c in graph["spec"]["components"]]}}
    patch["spec"]["components"][0]["replicas"] = 3
    real_ns.rest.merge_patch("DynamoGraphDeployment", "healthy", real_ns.name, patch)
    live = real_ns.graph("healthy")
    path = real_ns.folder / "healthy.yaml"
    text = "# in Git\n" + yaml.safe_dump(
        {k: live[k] for k in ("apiVersion", "kind")}
        | {"metadata": {"name": "healthy", "namespace": real_ns.name}, "spec": patch["spec"]},
        sort_keys=False,
    )
    path.write_text(text)
    done = real_ns.kdgd("undo", "-f", str(path), who="dev")
    assert done.returncode == 0, done.stderr
    assert path.read_text() == text.replace("replicas: 3", "replicas: 1")
    assert (
        real_ns.graph("healthy")["metadata"]["resourceVersion"]
        == live["metadata"]["resourceVersion"]
        or real_ns.graph("healthy")["spec"] == live["spec"]
    )


def test_a_change_beyond_the_main_container_is_rebuilt_from_the_whole_old_template(
    real_ns: RealNamespace,
) -> None:
    # the rolling update adds a sidecar as well: the old DCDs' main containers alone would not
    # give back what ran (their hash differs); their whole pod templates do
    spec = _ready_spec(real_ns)
    pod = spec["components"][1]["podTemplate"]["spec"]
    pod["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "16"}}
    pod["containers"].append({"name": "metrics", "image": "prom/statsd-exporter:v0.28.0"})
    _roll(real_ns, spec)
    recorded = real_ns.graph("stuck-rollout")["metadata"]["annotations"][HASH]

    history = json.loads(real_ns.kdgd("history", "stuck-rollout", "-o", "json", who="dev").stdout)
    old = history["revisions"][0]
    assert (old["exact"], old["workerHash"]) == (True, recorded), history
    assert old["changes"] == [
        "spec.components[1].podTemplate.spec.containers",
    ], old["changes"]

    done = real_ns.kdgd("abort", "stuck-rollout", who="dev")
    assert done.returncode == 0, done.stdout + done.stderr
    containers = real_ns.graph("stuck-rollout")["spec"]["components"][1]["podTemplate"]["spec"][
        "containers"
    ]
    assert [c["name"] for c in containers] == ["main"]
    assert containers[0]["resources"]["limits"]["nvidia.com/gpu"] == "1"
    real_ns.rest.wait_for(
        "the new generation deleted", lambda: _worker_hashes(real_ns) == {recorded} or None, 60
    )
