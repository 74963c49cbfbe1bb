"""``kubectl dgd doctor`` against the test API server: a ready cluster passes, each missing piece
is the blocker or warning it names, and a check the account may not read is "could not check"
(neither a pass nor a blocker)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.apiserver.children import gpu_node
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd

OPERATOR_NS = "dynamo-system"
SERVICE = "dynamo-operator-webhook-service"


def _operator(ready: int = 1) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "dynamo-operator-controller-manager", "namespace": OPERATOR_NS},
        "spec": {
            "replicas": 1,
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "manager",
                            "image": "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.0",
                        }
                    ]
                }
            },
        },
        "status": {"readyReplicas": ready},
    }


def _webhooks(kind: str, name: str, policy: str = "Fail") -> dict[str, Any]:
    return {
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": f"{kind}WebhookConfiguration",
        "metadata": {"name": f"dynamo-{kind.lower()}"},
        "webhooks": [
            {
                "name": name,
                "failurePolicy": policy,
                "clientConfig": {"service": {"namespace": OPERATOR_NS, "name": SERVICE}},
            }
        ],
    }


def _endpoints(ready: bool = True) -> dict[str, Any]:
    return {
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "name": f"{SERVICE}-abcde",
            "namespace": OPERATOR_NS,
            "labels": {"kubernetes.io/service-name": SERVICE},
        },
        "endpoints": [{"addresses": ["10.0.0.9"], "conditions": {"ready": ready}}],
    }


def _storage(default: bool = True) -> dict[str, Any]:
    annotations = {"storageclass.kubernetes.io/is-default-class": "true"} if default else {}
    return {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {"name": "local-path", "annotations": annotations},
        "provisioner": "rancher.io/local-path",
    }


def _device_plugin() -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin-daemonset", "namespace": "gpu-operator"},
        "status": {"numberReady": 2, "desiredNumberScheduled": 2},
    }


@pytest.fixture
def ready_cluster(apiserver: ApiServer) -> ApiServer:
    """Everything a Dynamo install needs, as the platform chart and the GPU operator leave it."""
    apiserver.install_addon("grove.io")
    apiserver.seed(
        _operator(),
        _webhooks("Validating", "vdynamographdeployment.kb.io"),
        _webhooks("Mutating", "mdynamographdeployment.kb.io"),
        _endpoints(),
        _storage(),
        _device_plugin(),
        gpu_node("gpu-a", 8),
        gpu_node("gpu-b", 8),
    )
    return apiserver


def _results(stdout: str) -> dict[str, str]:
    return {c["check"]: c["result"] for c in json.loads(stdout)["checks"]}


def test_a_ready_cluster_passes_every_check(ready_cluster: ApiServer) -> None:
    done = dgd(ready_cluster, "doctor", env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "BLOCKER" not in done.stdout
    assert "gpu-a (8), gpu-b (8)" in done.stdout
    assert (
        f"vdynamographdeployment.kb.io -> service {OPERATOR_NS}/{SERVICE}: 1 ready" in done.stdout
    )
    assert done.stdout.rstrip().endswith("0 blockers")


def test_json_names_each_check_and_its_result(ready_cluster: ApiServer) -> None:
    done = dgd(ready_cluster, "doctor", "-o", "json")
    assert done.returncode == 0, done.stderr
    results = _results(done.stdout)
    assert results == {
        "CRD DynamoGraphDeployment": "pass",
        "CRD DynamoComponentDeployment": "pass",
        "operator Deployment": "pass",
        "Validating webhook": "pass",
        "Mutating webhook": "pass",
        "Grove / LeaderWorkerSet": "pass",
        "GPU nodes": "pass",
        "GPU operator / device plugin": "pass",
        "default StorageClass": "pass",
    }


def test_webhook_without_endpoints_under_fail_policy_is_a_blocker(ready_cluster: ApiServer) -> None:
    ready_cluster.seed(_endpoints(ready=False))  # the operator pod is not ready
    done = dgd(ready_cluster, "doctor", "-o", "json")
    assert done.returncode == 1, done.stdout
    assert _results(done.stdout)["Validating webhook"] == "fail"
    text = dgd(ready_cluster, "doctor", env={"COLUMNS": "200"})
    assert "every graph write is refused" in text.stdout and text.returncode == 1


def test_no_default_storage_class_and_no_gpu_nodes_are_blockers(apiserver: ApiServer) -> None:
    apiserver.seed(_operator(), _storage(default=False))
    done = dgd(apiserver, "doctor", "-o", "json")
    assert done.returncode == 1
    results = _results(done.stdout)
    assert results["default StorageClass"] == "fail"
    assert results["GPU nodes"] == "fail"
    assert results["Validating webhook"] == "warn"  # none registered: not enforced, not blocked


def test_a_cluster_without_dynamo_says_so(apiserver: ApiServer) -> None:
    apiserver.uninstall_crd()
    done = dgd(apiserver, "doctor", env={"COLUMNS": "200"})
    assert done.returncode == 1
    assert "not installed: install the Dynamo CRDs" in done.stdout
    assert "none found: graphs are not reconciled" in done.stdout


def test_a_forbidden_read_is_could_not_check_not_a_pass_nor_a_blocker(
    ready_cluster: ApiServer,
) -> None:
    for resource in ("nodes", "daemonsets", "storageclasses", "validatingwebhookconfigurations"):
        ready_cluster.faults.forbid("list", resource)
    done = dgd(ready_cluster, "doctor", "-o", "json")
    assert done.returncode == 0, done.stdout  # nothing known to block
    results = _results(done.stdout)
    for check in (
        "GPU nodes",
        "GPU operator / device plugin",
        "default StorageClass",
        "Validating webhook",
    ):
        assert results[check] == "unknown", check
    assert results["Mutating webhook"] == "pass"
    text = dgd(ready_cluster, "doctor", env={"COLUMNS": "200"})
    assert text.stdout.count("could not check") >= 4
    assert text.stdout.rstrip().endswith("0 blockers, 4 could not be checked")


def test_a_server_error_is_an_api_error_exit(ready_cluster: ApiServer) -> None:
    ready_cluster.faults.fail_next(20, code=500)
    done = dgd(ready_cluster, "doctor")
    assert done.returncode == 4
    assert "Traceback" not in done.stderr


def test_text_at_80_columns_wraps_the_detail_under_the_row(ready_cluster: ApiServer) -> None:
    done = dgd(ready_cluster, "doctor", env={"COLUMNS": "80"})

    assert all(len(line) <= 80 for line in done.stdout.splitlines()), done.stdout
