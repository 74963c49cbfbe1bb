"""``doctor`` and ``upgrade-check`` end to end on the real control plane: what the cluster really
serves and holds, as the administrator (who may read it all) and the namespace-scoped user
(for whom the cluster-wide checks are "could not check", never a pass or a blocker)."""

from __future__ import annotations

import contextlib
import json

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.rest import RestError


def _results(stdout: str) -> dict[str, dict[str, str]]:
    return {c["check"]: c for c in json.loads(stdout)["checks"]}


def test_doctor_as_admin_reads_the_real_crds_gpu_nodes_and_storage(real_ns: RealNamespace) -> None:
    done = real_ns.kdgd("doctor", "-o", "json")
    assert "Traceback" not in done.stderr
    checks = _results(done.stdout)
    assert checks["CRD DynamoGraphDeployment"]["result"] == "pass"
    assert "v1beta1" in checks["CRD DynamoGraphDeployment"]["detail"]
    assert checks["Grove / LeaderWorkerSet"]["result"] == "pass"
    # the kwok GPU nodes of the control plane, as their Node objects report them
    gpu_nodes = [
        n["metadata"]["name"]
        for n in real_ns.rest.list("Node")
        if (n.get("status") or {}).get("capacity", {}).get("nvidia.com/gpu")
    ]
    assert gpu_nodes and checks["GPU nodes"]["result"] == "pass"
    assert all(name in checks["GPU nodes"]["detail"] for name in gpu_nodes)
    default = [
        c
        for c in real_ns.rest.list("StorageClass")
        if (c["metadata"].get("annotations") or {}).get(
            "storageclass.kubernetes.io/is-default-class"
        )
        == "true"
    ]
    assert checks["default StorageClass"]["result"] == ("pass" if default else "fail")
    blocked = any(c["result"] == "fail" for c in checks.values())
    assert done.returncode == (1 if blocked else 0)


def test_doctor_as_namespace_user_says_could_not_check(real_ns: RealNamespace) -> None:
    done = real_ns.kdgd("doctor", "-o", "json", who="dev")
    assert "Traceback" not in done.stderr
    checks = _results(done.stdout)
    for name in ("GPU nodes", "default StorageClass", "Validating webhook", "operator Deployment"):
        assert checks[name]["result"] == "unknown", name
    assert checks["CRD DynamoGraphDeployment"]["result"] == "pass"  # discovery: any account
    assert done.returncode == 0  # nothing known to block


def test_doctor_finds_a_webhook_whose_service_has_no_endpoints(real_ns: RealNamespace) -> None:
    """A DGD webhook with failurePolicy Fail and no endpoint behind it is a blocker, and the API
    server indeed refuses every graph write (scoped to this namespace, not to disturb others)."""
    real_ns.create(
        {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": "dynamo-webhook-service"},
            "spec": {"ports": [{"port": 443}]},
        }
    )
    config = f"doctor-{real_ns.name}"
    real_ns.rest.create(
        {
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": config},
            "webhooks": [
                {
                    "name": "vdynamographdeployment.kb.io",
                    "failurePolicy": "Fail",
                    "sideEffects": "None",
                    "admissionReviewVersions": ["v1"],
                    "timeoutSeconds": 2,
                    "namespaceSelector": {
                        "matchLabels": {"kubernetes.io/metadata.name": real_ns.name}
                    },
                    "rules": [
                        {
                            "apiGroups": ["nvidia.com"],
                            "apiVersions": ["v1beta1"],
                            "operations": ["CREATE", "UPDATE"],
                            "resources": ["dynamographdeployments"],
                        }
                    ],
                    "clientConfig": {
                        "service": {"namespace": real_ns.name, "name": "dynamo-webhook-service"}
                    },
                }
            ],
        }
    )
    try:
        done = real_ns.kdgd("doctor", env={"COLUMNS": "200"})
        assert done.returncode == 1, done.stdout
        line = next(r for r in done.stdout.splitlines() if r.startswith("Validating webhook"))
        assert "BLOCKER" in line and "no ready endpoint" in line
        assert "every graph write is refused" in line
        refused = None
        try:
            real_ns.create(scenarios.healthy(real_ns.name))
        except RestError as err:
            refused = err
        assert refused is not None, (
            "the API server admitted a graph past a webhook with no endpoint"
        )
    finally:
        with contextlib.suppress(RestError):
            real_ns.rest.delete("ValidatingWebhookConfiguration", config)


def test_upgrade_check_of_a_live_graph_reads_the_release_and_the_live_object(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    real_ns.wait_ready("healthy")
    done = real_ns.kdgd("upgrade-check", "--to", "1.6", "healthy", "-o", "json", who="dev")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["to"] == "1.6"
    assert report["fromDetectedBy"]  # as validate --live finds it
    (only,) = report["graphs"]
    assert only["name"] == "healthy" and only["verdict"] in ("admitted", "admitted-with-warnings")
    # the hash the (simulated) operator recorded on the live graph is the starting point
    recorded = real_ns.graph("healthy")["metadata"]["annotations"][
        "nvidia.com/current-worker-hash-v2"
    ]
    assert only["workerHash"]["from"] == recorded
    assert only["workerHash"]["note"] is None  # our 1.6 computation agrees with it
    assert only["workerHash"]["changes"] is False  # the same release: nothing rolls


def test_upgrade_check_of_a_file_whose_update_the_target_refuses(real_ns: RealNamespace) -> None:
    """1.6 makes multinode nodeCount immutable: a file changing it is admitted today (1.5) and
    refused after the upgrade, which exits 1 and names the rule as new in 1.6."""
    multinode = scenarios.graph(
        "multi",
        scenarios.component("Frontend", "frontend"),
        scenarios.component("VllmWorker", "worker", gpus=1),
        namespace=real_ns.name,
    )
    multinode["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    real_ns.create(multinode)
    changed = json.loads(json.dumps(multinode))
    changed["spec"]["components"][1]["multinode"]["nodeCount"] = 3
    path = real_ns.folder / "multi.yaml"
    path.write_text(json.dumps(changed))
    done = real_ns.kdgd("upgrade-check", "--from", "1.5", "--to", "1.6", "-f", str(path), who="dev")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "refused" in done.stdout and "(new in 1.6)" in done.stdout
