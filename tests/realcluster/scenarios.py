"""The sandbox's graphs, which the README's live examples show (scripts/sandbox.py; the tests in
tests/realcluster/ reuse them).

Two 8-GPU nodes. ``healthy`` (a frontend and a 1-GPU worker) becomes Ready; ``gpu-starved``
asks for 16 GPUs on one pod, which no node has, so the real scheduler leaves it Pending;
``crashloop``'s worker is in CrashLoopBackOff (simulated: kwok reports what the kubelet would);
``stuck-rollout`` (one 8-GPU worker, filling a node) becomes Ready, then a template change
starts a managed rolling update whose new pod cannot fit beside the old one.
"""

from __future__ import annotations

import copy
from typing import Any

IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"
NAMESPACE = "dynamo"
SIMULATE = "kdgd.test/simulate"  # read by tests/realcluster/kwok-stages.yaml


def component(
    name: str, type_: str, gpus: int = 0, replicas: int = 1, simulate: str | None = None
) -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": IMAGE}
    if type_ != "frontend":
        main["command"] = ["python3", "-m", "dynamo.vllm"]
        main["args"] = ["--model", "Qwen/Qwen3-0.6B"]
    if gpus:
        main["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    template: dict[str, Any] = {"spec": {"containers": [main]}}
    if simulate:
        template["metadata"] = {"annotations": {SIMULATE: simulate}}
    return {"name": name, "type": type_, "replicas": replicas, "podTemplate": template}


def graph(name: str, *components: dict[str, Any], namespace: str = NAMESPACE) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "annotations": {"nvidia.com/workload-provider": "component"},
        },
        "spec": {"backendFramework": "vllm", "components": list(components)},
    }


def healthy(namespace: str = NAMESPACE) -> dict[str, Any]:
    return graph(
        "healthy",
        component("Frontend", "frontend"),
        component("VllmDecodeWorker", "worker", gpus=1),
        namespace=namespace,
    )


def gpu_starved(namespace: str = NAMESPACE) -> dict[str, Any]:
    return graph(
        "gpu-starved",
        component("Frontend", "frontend"),
        component("VllmDecodeWorker", "worker", gpus=16),
        namespace=namespace,
    )


def crashloop(namespace: str = NAMESPACE) -> dict[str, Any]:
    return graph(
        "crashloop",
        component("Frontend", "frontend"),
        component("VllmWorker", "worker", gpus=1, simulate="CrashLoopBackOff"),
        namespace=namespace,
    )


def stuck_rollout(namespace: str = NAMESPACE) -> dict[str, Any]:
    return graph(
        "stuck-rollout",
        component("Frontend", "frontend"),
        component("VllmDecodeWorker", "worker", gpus=8),
        namespace=namespace,
    )


def rollout_change(obj: dict[str, Any]) -> dict[str, Any]:
    """The template change that starts stuck-rollout's rolling update (a new worker arg)."""
    changed = copy.deepcopy(obj)
    worker = next(c for c in changed["spec"]["components"] if c["type"] == "worker")
    worker["podTemplate"]["spec"]["containers"][0]["args"] += ["--max-model-len", "8192"]
    return changed


ALL = (healthy, gpu_starved, crashloop, stuck_rollout)
