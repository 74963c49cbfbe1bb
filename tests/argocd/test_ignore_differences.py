"""The ignoreDifferences snippet, evaluated as Argo CD evaluates it.

Argo CD removes each ``jsonPointers`` entry and runs ``del(<expression>)`` for each
``jqPathExpressions`` entry (gojq) on both the desired and the live object before diffing. Here
jq plays gojq: a graph as written in Git must compare equal to the same graph after the
operator's webhook and the CRD schema filled in their defaults
(docs/operator-semantics.md#gitops-drift), and a value set
in Git that differs from the live one must still show.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CM = ROOT / "argocd-plugin" / "resource-customizations" / "argocd-cm.yaml"
KEY = "resource.customizations.ignoreDifferences.nvidia.com_DynamoGraphDeployment"
JQ = shutil.which("jq")

pytestmark = pytest.mark.skipif(JQ is None, reason="jq is not installed")


def _ignore() -> dict[str, list[str]]:
    data = yaml.safe_load(CM.read_text())["data"]
    ignore: dict[str, list[str]] = yaml.safe_load(data[KEY])
    return ignore


def _normalize(obj: dict[str, Any]) -> dict[str, Any]:
    ignore = _ignore()
    out = copy.deepcopy(obj)
    for pointer in ignore.get("jsonPointers", []):
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
        node: Any = out
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node.pop(parts[-1], None)
    program = " | ".join(f"del({e})" for e in ignore.get("jqPathExpressions", []))
    proc = subprocess.run(
        [str(JQ), "-c", program], input=json.dumps(out), capture_output=True, text=True, check=True
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def _container() -> dict[str, Any]:
    return {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}


def _git() -> dict[str, Any]:
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


def _live() -> dict[str, Any]:
    """The same graph after admission defaulted it and the operator adopted it."""
    obj = _git()
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


def test_a_graph_from_git_equals_its_defaulted_live_object() -> None:
    assert _normalize(_git()) == _normalize(_live())


@pytest.mark.parametrize(
    ("where", "git_value"),
    [
        (("components", 0, "replicas"), 3),
        (("components", 0, "minAvailable"), 2),
        (("components", 2, "multinode", "nodeCount"), 4),
        (("restart", "strategy", "type"), "Parallel"),
        (("experimental", "kvTransferPolicy", "enforcement"), "optional"),
    ],
)
def test_a_value_set_in_git_that_differs_from_the_default_still_shows(
    where: tuple[Any, ...], git_value: Any
) -> None:
    git = _git()
    node: Any = git["spec"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = git_value
    assert _normalize(git) != _normalize(_live())


def test_every_expression_runs_on_a_graph_without_the_optional_fields() -> None:
    bare = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g"},
        "spec": {"components": [{"name": "Frontend", "type": "frontend"}]},
    }
    assert _normalize(bare) == bare


def _roles_graph(worker_replicas: int | None = None) -> dict[str, Any]:
    """A newer operator's multinode component with roles, as written in Git."""
    worker: dict[str, Any] = {"name": "worker"}
    if worker_replicas is not None:
        worker["replicas"] = worker_replicas
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g"},
        "spec": {
            "components": [
                {
                    "name": "Big",
                    "type": "worker",
                    "replicas": 1,
                    "multinode": {"nodeCount": 4},
                    "roles": [{"name": "leader"}, worker],
                }
            ]
        },
    }


def _roles_live() -> dict[str, Any]:
    obj = _roles_graph()
    component = obj["spec"]["components"][0]
    component["minAvailable"] = 1
    leader, worker = component["roles"]
    leader["replicas"], worker["replicas"] = 1, 3  # leader 1, worker nodeCount - 1
    return obj


def test_defaulted_multinode_role_replicas_are_ignored() -> None:
    assert _normalize(_roles_graph()) == _normalize(_roles_live())


def test_role_replicas_set_in_git_to_another_value_still_show() -> None:
    assert _normalize(_roles_graph(worker_replicas=2)) != _normalize(_roles_live())
