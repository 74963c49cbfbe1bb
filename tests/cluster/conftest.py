"""Fixtures for the live-command tests: the test API server and graphs named after their case."""

from __future__ import annotations

import copy
from typing import Any

from tests.apiserver.fixtures import apiserver, operator_sim  # noqa: F401
from tests.apiserver.server import ApiServer
from tests.conftest import Result, run_cli

NS = "dynamo"
CREATED = "2026-11-01T10:00:00Z"
NOW = "2026-11-01T12:00:00Z"


def component(
    name: str, type_: str, replicas: int = 1, image: str = "nvcr.io/dynamo:1.5.0", gpus: int = 0
) -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": image}
    if gpus:
        main["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
    return {
        "name": name,
        "type": type_,
        "replicas": replicas,
        "podTemplate": {"spec": {"containers": [main]}},
    }


def graph(
    name: str = "my-graph",
    namespace: str = NS,
    components: list[dict[str, Any]] | None = None,
    status: dict[str, Any] | None = None,
    annotations: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
    restart: dict[str, Any] | None = None,
) -> dict[str, Any]:
    comps = components or [
        component("Frontend", "frontend"),
        component("decode", "decode", replicas=2, gpus=1),
        component("prefill", "prefill", gpus=2),
    ]
    obj: dict[str, Any] = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "creationTimestamp": CREATED,
            "annotations": {"nvidia.com/workload-provider": "component", **(annotations or {})},
            "labels": labels or {},
        },
        "spec": {"backendFramework": "vllm", "components": copy.deepcopy(comps)},
    }
    if restart:
        obj["spec"]["restart"] = restart
    obj["status"] = status if status is not None else ready_status(comps)
    return obj


def ready_status(comps: list[dict[str, Any]], generation: int = 1) -> dict[str, Any]:
    return {
        "observedGeneration": generation,
        "state": "successful",
        "conditions": [
            {
                "type": "Ready",
                "status": "True",
                "reason": "all_resources_are_ready",
                "message": "All resources are ready",
                "lastTransitionTime": CREATED,
            }
        ],
        "components": {
            c["name"]: {
                "componentKind": "Deployment",
                "componentNames": [f"my-graph-{c['name'].lower()}"],
                "replicas": c.get("replicas", 1),
                "updatedReplicas": c.get("replicas", 1),
                "readyReplicas": c.get("replicas", 1),
                "availableReplicas": c.get("replicas", 1),
            }
            for c in comps
        },
    }


def three_graphs() -> list[dict[str, Any]]:
    """Three graphs of namespace dynamo (settled, rolling, restarted) and one of another."""
    rolling = graph("rolling", labels={"team": "a"})
    rolling["status"]["state"] = "pending"
    rolling["status"]["rollingUpdate"] = {"phase": "InProgress", "updatedComponents": ["decode"]}
    rolling["status"]["components"]["prefill"]["readyReplicas"] = 0
    restarted = graph("restarted", restart={"id": "r1"}, labels={"team": "b"})
    restarted["status"]["restart"] = {"observedID": "r1", "phase": "Completed"}
    return [graph(), rolling, restarted, graph("far-away", namespace="other")]


def dgd(
    server: ApiServer,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 60,
    stdin: str | None = None,
) -> Result:
    """Run ``kubectl-dgd`` against ``server`` (KUBECONFIG = the fixture's kubeconfig)."""
    assert server.kubeconfig is not None
    full = {
        "KUBECONFIG": str(server.kubeconfig),
        "HOME": str(server.kubeconfig.parent),
        "DGD_NOW": NOW,
    }
    full.update(env or {})
    return run_cli(*args, env=full, timeout=timeout, stdin=stdin)
