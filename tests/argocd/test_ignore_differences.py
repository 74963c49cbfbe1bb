"""The ignoreDifferences snippet, evaluated as Argo CD evaluates it.

Argo CD removes each ``jsonPointers`` entry and runs ``del(<expression>)`` for each
``jqPathExpressions`` entry on its own, with gojq, on both the desired and the live object before
diffing (tests/argocd/argo_semantics.py). A graph as written in Git must compare equal to the
same graph after the operator's webhook and the CRD schema filled in their defaults
(docs/operator-semantics.md#gitops-drift), and a value
set in Git that differs from the live one must still show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.argocd.argo_semantics import GOJQ, normalize
from tests.argocd.live_objects import git_graph, live_graph

ROOT = Path(__file__).resolve().parents[2]
CM = ROOT / "argocd-plugin" / "resource-customizations" / "argocd-cm.yaml"
KEY = "resource.customizations.ignoreDifferences.nvidia.com_DynamoGraphDeployment"

pytestmark = pytest.mark.skipif(GOJQ is None, reason="gojq is not installed")


def system_rules() -> list[dict[str, Any]]:
    """The argocd-cm override, as Argo CD turns it into one ignore rule for the kind."""
    data = yaml.safe_load(CM.read_text())["data"]
    ignore: dict[str, Any] = yaml.safe_load(data[KEY])
    return [{"group": "nvidia.com", "kind": "DynamoGraphDeployment", **ignore}]


def _normalize(obj: dict[str, Any]) -> dict[str, Any]:
    return normalize(obj, system_rules())


def test_a_graph_from_git_equals_its_defaulted_live_object() -> None:
    assert _normalize(git_graph()) == _normalize(live_graph())


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
    git = git_graph()
    node: Any = git["spec"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = git_value
    assert _normalize(git) != _normalize(live_graph())


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


def _roleslive_graph() -> dict[str, Any]:
    obj = _roles_graph()
    component = obj["spec"]["components"][0]
    component["minAvailable"] = 1
    leader, worker = component["roles"]
    leader["replicas"], worker["replicas"] = 1, 3  # leader 1, worker nodeCount - 1
    return obj


def test_defaulted_multinode_role_replicas_are_ignored() -> None:
    assert _normalize(_roles_graph()) == _normalize(_roleslive_graph())


def test_role_replicas_set_in_git_to_another_value_still_show() -> None:
    assert _normalize(_roles_graph(worker_replicas=2)) != _normalize(_roleslive_graph())
