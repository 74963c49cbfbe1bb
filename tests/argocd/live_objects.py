"""A graph as written in Git and the same graph live, after admission defaulted it and the
operator adopted it: the pair every ignoreDifferences and sync test compares."""

from __future__ import annotations

from typing import Any


def container() -> dict[str, Any]:
    return {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}


def git_graph() -> dict[str, Any]:
    """A graph as a user writes it: every defaulted field left out."""
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "dynamo", "annotations": {"team": "ml"}},
        "spec": {
            "restart": {"id": "r1", "strategy": {}},
            "experimental": {"kvTransferPolicy": {}},
            "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": {}},
            "components": [
                {"name": "Frontend", "type": "frontend", "podTemplate": {"spec": {}}},
                {
                    "name": "Worker",
                    "type": "worker",
                    "replicas": 4,
                    "scalingAdapter": {},
                    "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": {}},
                    "experimental": {
                        "gpuMemoryService": {},
                        "failover": {},
                        "checkpoint": {},
                    },
                    "eppConfig": {"configMapRef": {}},
                },
                {
                    "name": "Big",
                    "type": "worker",
                    "replicas": 2,
                    "multinode": {
                        "leader": {
                            "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": {}}
                        },
                        "worker": {
                            "providerOverride": {"apiVersion": "grove.io/v1alpha1", "value": {}}
                        },
                    },
                },
            ],
        },
    }


def live_graph() -> dict[str, Any]:
    """The same graph after admission defaulted it and the operator adopted it."""
    obj = git_graph()
    meta, spec = obj["metadata"], obj["spec"]
    meta["annotations"] |= {
        "nvidia.com/workload-provider": "grove",
        "nvidia.com/dynamo-operator-origin-version": "1.4.0",
        "nvidia.com/current-worker-hash-v2": "0a1b2c3d",
        "nvidia.com/current-worker-hash": "legacy",
    }
    spec["restart"]["strategy"]["type"] = "Sequential"
    spec["experimental"]["kvTransferPolicy"]["enforcement"] = "required"
    spec["providerOverride"]["target"] = "PodCliqueSet"
    frontend, worker, big = spec["components"]
    frontend |= {"replicas": 1, "minAvailable": 1}
    worker |= {"replicas": 7, "minAvailable": 1}  # scaled through its adapter
    worker["providerOverride"]["target"] = "PodCliqueTemplateSpec"
    worker["experimental"]["gpuMemoryService"] |= {
        "mode": "IntraPod",
        "deviceClassName": "gpu.nvidia.com",
    }
    worker["experimental"]["failover"] |= {"mode": "IntraPod", "numShadows": 1}
    worker["experimental"]["checkpoint"] |= {
        "startupPolicy": "Immediate",
        "deletionPolicy": "Delete",
        "targetContainerName": "main",
    }
    worker["eppConfig"]["configMapRef"]["name"] = ""
    big["minAvailable"] = 1
    big["multinode"]["nodeCount"] = 2
    big["multinode"]["leader"]["providerOverride"]["target"] = "PodCliqueTemplateSpec"
    big["multinode"]["worker"]["providerOverride"]["target"] = "PodCliqueTemplateSpec"
    return obj
