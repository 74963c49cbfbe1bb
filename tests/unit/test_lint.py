"""Lint findings (warnings with stable codes) for what the operator finds late or never."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.validate.lint import check
from tests.unit.dgd_factory import graph, main_of, worker


def codes(obj: dict[str, Any], creating: bool = True) -> list[tuple[str, str]]:
    found = check(obj, creating=creating)
    assert all(f.severity == "warning" and f.layer == "lint" for f in found)
    return [(f.code, f.path) for f in found]


def messages(obj: dict[str, Any]) -> list[str]:
    return [f.message for f in check(obj, creating=True)]


def test_valid_graph_has_no_lint() -> None:
    assert codes(graph()) == []


def test_backend_framework_disagreeing_with_the_command() -> None:
    obj = graph()
    main_of(worker(obj))["command"] = ["python3", "-m", "dynamo.sglang"]
    assert codes(obj) == [("backend-mismatch", "spec.components[1]")]
    assert (
        'backend framework mismatch: detected "sglang" from command but explicitly configured as "vllm"'
        in messages(obj)[0]
    )


def test_matching_backend_framework_is_quiet() -> None:
    obj = graph()
    main_of(worker(obj))["command"] = ["python3", "-m", "dynamo.vllm"]
    assert codes(obj) == []


def test_several_frameworks_in_one_command() -> None:
    obj = graph()
    obj["spec"].pop("backendFramework")
    main_of(worker(obj))["args"] = ["python -m dynamo.vllm && python -m dynamo.trtllm"]
    main_of(worker(obj))["command"] = ["sh", "-c"]
    assert codes(obj) == [("backend-ambiguous", "spec.components[1]")]


def test_workers_naming_different_frameworks_without_an_explicit_value() -> None:
    obj = graph()
    obj["spec"].pop("backendFramework")
    main_of(worker(obj))["command"] = ["python3", "-m", "dynamo.vllm"]
    prefill = {
        "name": "prefill",
        "type": "prefill",
        "podTemplate": {
            "spec": {
                "containers": [
                    {
                        "name": "main",
                        "image": "img:1.5.0",
                        "command": ["python3", "-m", "dynamo.sglang"],
                    }
                ]
            }
        },
    }
    obj["spec"]["components"].append(prefill)
    assert codes(obj) == [("backend-multiple", "spec.backendFramework")]
    assert messages(obj)[0].endswith(
        "multiple backend frameworks detected for generated DynamoComponentDeployments: sglang and vllm"
    )


def test_restart_block_in_a_file_that_creates_the_graph() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": "r1"}
    assert codes(obj) == [("restart-on-create", "spec.restart")]
    assert codes(obj, creating=False) == []


def test_grove_name_budget_warns_for_graphs_that_opt_out_of_grove() -> None:
    obj = graph(name="test-graph-" + "x" * 50)
    worker(obj)["name"] = "w" * 38
    assert codes(obj) == []  # on Grove the webhook reports it as an error
    obj["metadata"]["annotations"] = {"nvidia.com/enable-grove": "false"}
    assert codes(obj) == [("grove-name-budget", "spec.components[1].name")]


def test_latest_and_untagged_images() -> None:
    obj = graph()
    main_of(worker(obj))["image"] = "nvcr.io/x/runtime:latest"
    main_of(obj["spec"]["components"][0])["image"] = "registry:5000/runtime"
    assert codes(obj) == [
        ("image-untagged", "spec.components[0].podTemplate.spec.containers[0].image"),
        ("image-latest", "spec.components[1].podTemplate.spec.containers[0].image"),
    ]


def test_digest_pinned_images_are_fine() -> None:
    obj = graph()
    main_of(worker(obj))["image"] = "nvcr.io/x/runtime@sha256:abcd"
    assert codes(obj) == []


def test_env_reference_to_a_variable_sorted_later() -> None:
    obj = graph()
    obj["spec"]["env"] = [{"name": "ZONE", "value": "a"}]
    main_of(worker(obj))["env"] = [{"name": "URL", "value": "http://$(ZONE)"}]
    assert codes(obj) == [
        ("env-order-reference", "spec.components[1].podTemplate.spec.containers[0].env[0].value")
    ]
    assert messages(obj)[0].startswith("$(ZONE) is not expanded in URL")


def test_env_reference_to_a_variable_sorted_earlier_is_fine() -> None:
    obj = graph()
    obj["spec"]["env"] = [{"name": "A_HOST", "value": "a"}]
    main_of(worker(obj))["env"] = [
        {"name": "URL", "value": "http://$(A_HOST)"},
        {"name": "LIT", "value": "$$(ZZ)"},
    ]
    assert codes(obj) == []


def test_replicas_beside_a_scaling_adapter() -> None:
    obj = graph()
    worker(obj)["scalingAdapter"] = {}
    assert codes(obj) == [("replicas-with-scaling-adapter", "spec.components[1].replicas")]
    # The reason, and what to do: a sync that resends replicas is refused once the adapter moved it.
    (finding,) = check(obj, creating=True)
    assert "cannot be modified directly when scaling adapter is enabled" in finding.message
    assert "leave replicas out of Git" in finding.message
    assert "ServerSideApply=true" in finding.message
    del worker(obj)["replicas"]
    assert codes(obj) == []
