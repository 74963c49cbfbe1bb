"""``kubectl dgd version`` end to end on the real control plane, through the console script:
the real kube-apiserver's /version, the operator release from a real operator Deployment's
image, the DGD versions the real CRD serves; as the namespace-scoped user, who may not list
Deployments cluster-wide, the release is "unknown (forbidden ...)" and the rest still answers."""

from __future__ import annotations

import json
from typing import Any

from tests.realcluster.conftest import RealNamespace

IMAGE = "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.5.0"


def _operator_deployment(image: str = IMAGE) -> dict[str, Any]:
    labels = {"app.kubernetes.io/name": "dynamo-operator"}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "dynamo-operator-controller-manager"},
        "spec": {
            "replicas": 0,  # its image is all version reads: no pod needed
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "manager", "image": image}]},
            },
        },
    }


def _served(real_ns: RealNamespace) -> set[str]:
    crd = real_ns.rest.get("CustomResourceDefinition", "dynamographdeployments.nvidia.com")
    return {v["name"] for v in crd["spec"]["versions"] if v.get("served")}


def test_version_as_admin_reports_server_operator_image_and_served_dgd_versions(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(_operator_deployment())
    done = real_ns.kdgd("version", "-o", "json", subprocess=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    report = json.loads(done.stdout)
    assert report["serverVersion"] == real_ns.rest.request("GET", "/version")
    assert report["clientVersion"]["version"] == "0.1.0"
    operator = report["dynamoOperator"]
    ours = {
        "namespace": real_ns.name,
        "name": "dynamo-operator-controller-manager",
        "image": IMAGE,
        "release": "1.5.0",
    }
    assert ours in operator["deployments"]  # other tests' namespaces may hold one too
    first = next(d for d in operator["deployments"] if d["release"])
    assert operator["release"] == first["release"] and operator["lowerBound"] is False
    where = f"{first['namespace']}/{first['name']}"
    assert operator["detectedFrom"] == f"the image {first['image']} of Deployment {where}"
    assert set(report["dgdApiVersions"]) == _served(real_ns)

    text = real_ns.kdgd("version", subprocess=True)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [
        "Client Version: 0.1.0",
        f"Server Version: {report['serverVersion']['gitVersion']}",
        f"Dynamo Operator: {first['release']} (from {operator['detectedFrom']})",
        "DGD API Versions: " + ", ".join(f"nvidia.com/{v}" for v in report["dgdApiVersions"]),
    ]


def test_version_as_namespace_user_says_unknown_forbidden_instead_of_failing(
    real_ns: RealNamespace,
) -> None:
    real_ns.create(_operator_deployment())  # in the user's own namespace, still not listable
    done = real_ns.kdgd("version", who="dev", subprocess=True)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == f"Server Version: {real_ns.rest.request('GET', '/version')['gitVersion']}"
    assert lines[2] == (
        "Dynamo Operator: unknown (forbidden: this account may not list Deployments in all "
        "namespaces)"
    )
    assert lines[3].startswith("DGD API Versions: nvidia.com/v1beta1")  # discovery: any account
    as_json = json.loads(real_ns.kdgd("version", "-o", "json", who="dev").stdout)
    assert as_json["dynamoOperator"]["release"] is None


def test_version_as_namespace_user_falls_back_to_the_graphs_origin_annotation(
    real_ns: RealNamespace,
) -> None:
    """validate --live's second source: the release that created the namespace's graphs,
    shown as a lower bound, with why the operator itself was not read."""
    graph = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": "stamped",
            "annotations": {"nvidia.com/dynamo-operator-origin-version": "1.4.2"},
        },
        "spec": {"components": []},
    }
    real_ns.create(graph)
    done = real_ns.kdgd("version", who="dev")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == (
        "Dynamo Operator: 1.4.2 or newer (from the nvidia.com/dynamo-operator-origin-version "
        f"annotation on the graphs of {real_ns.name}; the operator itself: forbidden: this "
        "account may not list Deployments in all namespaces)"
    )
