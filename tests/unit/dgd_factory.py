"""A small builder of valid DGD dicts; each test mutates its own copy."""

from __future__ import annotations

import copy
from typing import Any

IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0"


def main_container(image: str = IMAGE, gpus: int | None = None, **extra: Any) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "main", "image": image, **extra}
    if gpus is not None:
        container["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    return container


def component(name: str, type_: str | None, **extra: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"name": name}
    if type_ is not None:
        result["type"] = type_
    result["podTemplate"] = {"spec": {"containers": [main_container()]}}
    result.update(extra)
    return result


def lpx_component(name: str, **extra: Any) -> dict[str, Any]:
    """A complete 1.6 LPX component: build id, an agent and a conductor role, each with ``main``."""
    result: dict[str, Any] = {
        "name": name,
        "type": "lpx",
        "lpx": {"buildId": "test/build"},
        "roles": [
            {"name": "agent", "podTemplate": {"spec": {"containers": [main_container()]}}},
            {"name": "conductor", "podTemplate": {"spec": {"containers": [main_container()]}}},
        ],
    }
    result.update(extra)
    return result


def graph(name: str = "test-graph", *, provider: str | None = None) -> dict[str, Any]:
    """Frontend + worker, like the operator's admission fixture, with images so it is valid."""
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "backendFramework": "vllm",
            "components": [
                component("frontend", "frontend", replicas=1),
                component("worker", "worker", replicas=2),
            ],
        },
    }
    if provider is not None:
        obj["metadata"]["annotations"] = {"nvidia.com/workload-provider": provider}
    return obj


def stored(obj: dict[str, Any], provider: str = "grove") -> dict[str, Any]:
    """``obj`` as the API server stores it after create: provider stamped by the operator."""
    result = copy.deepcopy(obj)
    result.setdefault("metadata", {}).setdefault("annotations", {})[
        "nvidia.com/workload-provider"
    ] = provider
    return result


def worker(obj: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in obj["spec"]["components"] if c["name"] == "worker")


def frontend(obj: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in obj["spec"]["components"] if c["name"] == "frontend")


def main_of(component_: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in component_["podTemplate"]["spec"]["containers"] if c["name"] == "main")
