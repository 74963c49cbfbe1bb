"""Worker-hash inputs the operator takes from outside the component's own pod template.

The DCD's topology-source annotations (GetDCDKubeAnnotations drops those keys from the pod
template's annotations and re-adds them from the DCD object, where the graph controller writes
each worker's kvTransferPolicy topology source), and in 1.6 the Dynamo sidecar's runtime version.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render.context import graph_context
from kubectl_dgd.core.render.dcd import TOPOLOGY_LABEL_KEY_ANNOTATION
from kubectl_dgd.core.render.worker_hash import hash_input, worker_hash


def beta_graph(**experimental: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "backendFramework": "vllm",
        "components": [
            {
                "name": "w",
                "type": "worker",
                "podTemplate": {
                    "metadata": {"annotations": {TOPOLOGY_LABEL_KEY_ANNOTATION: "from-template"}},
                    "spec": {"containers": [{"name": "main", "image": "img:1.0.0"}]},
                },
            }
        ],
    }
    if experimental:
        spec["experimental"] = experimental
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": spec,
    }


def test_the_template_s_topology_key_is_dropped_and_the_dcd_s_is_hashed() -> None:
    policy = {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}}
    with_policy = hash_input(graph_context(beta_graph(**policy), Profile()))["w"]
    assert (
        with_policy["annotations"][TOPOLOGY_LABEL_KEY_ANNOTATION] == "topology.kubernetes.io/zone"
    )
    without = hash_input(graph_context(beta_graph(), Profile()))["w"]
    assert TOPOLOGY_LABEL_KEY_ANNOTATION not in without["annotations"]


def test_the_topology_source_changes_the_worker_hash() -> None:
    zone = {"kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}}
    rack = {"kvTransferPolicy": {"labelKey": "example.com/rack", "domain": "rack"}}
    assert worker_hash(graph_context(beta_graph(**zone), Profile())) != worker_hash(
        graph_context(beta_graph(**rack), Profile())
    )


def sidecar_graph(runtime_image: str) -> dict[str, Any]:
    obj = beta_graph()
    spec = obj["spec"]["components"][0]["podTemplate"]["spec"]
    spec["containers"][0]["image"] = "vllm/vllm-openai:latest"
    spec["initContainers"] = [
        {"name": "runtime", "image": runtime_image, "restartPolicy": "Always"}
    ]
    return obj


def test_1_6_hashes_the_dynamo_sidecar_s_runtime_version() -> None:
    # resolvedRuntimeVersionForHash reads the runtime init container in sidecar mode (1.6).
    entry = hash_input(graph_context(sidecar_graph("runtime:1.5.0"), Profile()))["w"]
    assert entry["runtimeVersion"] == "1.5.0"
    newer = hash_input(graph_context(sidecar_graph("runtime:1.6.0"), Profile()))["w"]
    assert newer["runtimeVersion"] == "1.6.0"
    older = Profile(operator_version="1.5")
    assert (
        "runtimeVersion"
        not in hash_input(graph_context(sidecar_graph("runtime:1.5.0"), older))["w"]
    )
