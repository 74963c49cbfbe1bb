"""The worker hash keeps the DCD's topology-source annotations (GetDCDKubeAnnotations).

The operator drops those keys from the pod template's annotations and re-adds them from the DCD
object, where the graph controller writes the kvTransferPolicy topology source of each worker.
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
