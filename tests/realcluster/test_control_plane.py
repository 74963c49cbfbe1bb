"""The real control plane itself: what the other real-cluster tests rely on it to do."""

from __future__ import annotations

import json

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.rest import RestError


def test_the_server_reports_the_kubernetes_release_it_was_built_from(
    real_ns: RealNamespace,
) -> None:
    done = real_ns.kubectl("version", "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["serverVersion"]["gitVersion"] == "v1.37.2"


def test_a_pod_asking_for_more_gpus_than_a_node_has_stays_pending_with_the_schedulers_message(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "too-big"},
            "spec": {
                "containers": [
                    {"name": "main", "image": "x", "resources": {"limits": {"nvidia.com/gpu": "9"}}}
                ]
            },
        }
    )

    def unschedulable() -> str | None:
        pod = real_ns.rest.get("Pod", "too-big", real_ns.name)
        for c in (pod.get("status") or {}).get("conditions") or []:
            if c["type"] == "PodScheduled" and c.get("reason") == "Unschedulable":
                return str(c["message"])
        return None

    message = real_ns.rest.wait_for("the scheduler's verdict", unschedulable)
    assert "Insufficient nvidia.com/gpu" in message


def test_a_healthy_graph_becomes_ready_through_real_deployments_and_kwok_pods(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    graph = real_ns.wait_ready("healthy")
    assert set(graph["status"]["components"]) == {"Frontend", "VllmDecodeWorker"}
    pods = real_ns.rest.list("Pod", real_ns.name)
    assert len(pods) == 2
    assert all(p["status"]["phase"] == "Running" for p in pods)
    assert all(p["spec"]["nodeName"].startswith("gpu-node-") for p in pods)
    # ReplicaSets are the real controller's, owned by the Deployments the simulator applied
    owners = {
        r["metadata"]["ownerReferences"][0]["kind"]
        for r in real_ns.rest.list("ReplicaSet", real_ns.name)
    }
    assert owners == {"Deployment"}


def test_the_namespace_scoped_user_cannot_list_nodes(real_ns: RealNamespace) -> None:
    done = real_ns.kubectl("get", "nodes", who="dev")
    assert done.returncode == 1
    assert 'User "kdgd-dev" cannot list resource "nodes"' in done.stderr


def test_a_graph_breaking_a_cel_rule_is_refused_with_the_servers_message(
    real_ns: RealNamespace,
) -> None:
    bad = scenarios.healthy(real_ns.name)
    bad["spec"]["components"].append(scenarios.component("frontend", "frontend"))
    try:
        real_ns.create(bad)
    except RestError as e:
        assert e.status == 422
        assert "component names must be unique case-insensitively" in e.body["message"]
    else:
        raise AssertionError("the API server accepted duplicate component names")


def test_a_managed_rolling_update_replaces_the_worker_generation_and_the_old_one_is_collected(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    before = real_ns.wait_ready("healthy")
    old_dcds = {
        d["metadata"]["name"] for d in real_ns.rest.list("DynamoComponentDeployment", real_ns.name)
    }
    changed = scenarios.rollout_change(before)
    real_ns.rest.request(
        "PUT", real_ns.rest.path("DynamoGraphDeployment", real_ns.name, "healthy"), changed
    )
    done = real_ns.wait_graph(
        "healthy",
        "rolling update Completed",
        lambda o: (
            ((o.get("status") or {}).get("rollingUpdate") or {}).get("phase") == "Completed"
            and o["status"].get("state") == "successful"
        ),
        timeout=120,
    )
    assert done["status"]["rollingUpdate"]["updatedComponents"] == ["VllmDecodeWorker"]
    new_dcds = {
        d["metadata"]["name"] for d in real_ns.rest.list("DynamoComponentDeployment", real_ns.name)
    }
    assert "healthy-frontend" in new_dcds
    assert not (old_dcds - {"healthy-frontend"}) & new_dcds  # the old worker DCD is gone

    def old_pods_gone() -> bool:  # the real garbage collector removes what the old DCD owned
        pods = real_ns.rest.list("Pod", real_ns.name)
        return all(
            p["metadata"]["labels"].get("nvidia.com/dynamo-worker-hash")
            in (None, done["metadata"]["annotations"]["nvidia.com/current-worker-hash-v2"])
            for p in pods
        )

    real_ns.rest.wait_for("the old generation's pods collected", old_pods_gone, timeout=90)
    status = real_ns.kdgd("rollout", "status", "healthy", "--timeout", "30s")
    assert status.returncode == 0, (status.stdout, status.stderr)
