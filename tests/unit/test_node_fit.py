"""Which nodes a pod may run on before resources count (core/node_fit.py), as the scheduler's
NodeAffinity and TaintToleration filters judge: the table is the Kubernetes API's rules."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_dgd.core.node_fit import may_run_on

POOL = {"pool": "a", "gpus": "8"}
TAINT = {"key": "dedicated", "value": "llm", "effect": "NoSchedule"}


def _term(*expressions: dict[str, Any]) -> dict[str, Any]:
    return {
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{"matchExpressions": list(expressions)}]
                }
            }
        }
    }


@pytest.mark.parametrize(
    ("spec", "taints", "fits"),
    [
        ({}, [], True),
        ({"nodeSelector": {"pool": "a"}}, [], True),
        ({"nodeSelector": {"pool": "b"}}, [], False),
        ({"nodeSelector": {"zone": "x"}}, [], False),
        (_term({"key": "pool", "operator": "In", "values": ["a", "b"]}), [], True),
        (_term({"key": "pool", "operator": "NotIn", "values": ["a"]}), [], False),
        (_term({"key": "zone", "operator": "NotIn", "values": ["x"]}), [], True),
        (_term({"key": "pool", "operator": "Exists"}), [], True),
        (_term({"key": "pool", "operator": "DoesNotExist"}), [], False),
        (_term({"key": "gpus", "operator": "Gt", "values": ["4"]}), [], True),
        (_term({"key": "gpus", "operator": "Lt", "values": ["4"]}), [], False),
        (_term({"key": "pool", "operator": "Gt", "values": ["4"]}), [], False),  # not a number
        # a term's expressions are ANDed
        (
            _term(
                {"key": "pool", "operator": "In", "values": ["a"]},
                {"key": "zone", "operator": "Exists"},
            ),
            [],
            False,
        ),
        ({}, [TAINT], False),
        (
            {"tolerations": [{"key": "dedicated", "value": "llm", "effect": "NoSchedule"}]},
            [TAINT],
            True,
        ),
        ({"tolerations": [{"key": "dedicated", "value": "other"}]}, [TAINT], False),
        ({"tolerations": [{"key": "dedicated", "operator": "Exists"}]}, [TAINT], True),
        ({"tolerations": [{"operator": "Exists"}]}, [TAINT], True),  # tolerates everything
        ({"tolerations": [{"operator": "Exists", "effect": "NoExecute"}]}, [TAINT], False),
        ({}, [{**TAINT, "effect": "PreferNoSchedule"}], True),  # only a preference
        ({}, [{**TAINT, "effect": "NoExecute"}], False),
    ],
)
def test_a_pod_may_run_on_a_node_as_the_scheduler_filters_say(
    spec: dict[str, Any], taints: list[dict[str, Any]], fits: bool
) -> None:
    assert may_run_on(spec, POOL, taints) is fits


def test_terms_are_ored() -> None:
    spec = _term({"key": "pool", "operator": "In", "values": ["b"]})
    terms = spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    terms["nodeSelectorTerms"].append({"matchExpressions": [{"key": "pool", "operator": "Exists"}]})
    assert may_run_on(spec, POOL, [])
