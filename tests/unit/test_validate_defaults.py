"""The mutating webhook's defaults (docs/operator-semantics.md#admission-order) as apply_defaults models them."""

from __future__ import annotations

import copy

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.defaults import apply_defaults
from tests.unit.dgd_factory import component, graph, stored, worker

PROVIDER = "nvidia.com/workload-provider"
DEFAULT = Profile()


def defaults(obj: dict, profile: Profile = DEFAULT, old: dict | None = None) -> dict:
    return apply_defaults(obj, bundled_schemas(profile.operator_version), profile, old=old)


def test_input_is_never_changed() -> None:
    obj = graph()
    before = copy.deepcopy(obj)
    defaults(obj)
    assert obj == before


def test_create_stamps_grove_when_the_gate_is_on() -> None:
    assert defaults(graph())["metadata"]["annotations"][PROVIDER] == "grove"


def test_create_overwrites_a_user_supplied_provider() -> None:
    assert defaults(graph(provider="component"))["metadata"]["annotations"][PROVIDER] == "grove"


def test_enable_grove_false_selects_the_component_path() -> None:
    obj = graph()
    obj["metadata"]["annotations"] = {"nvidia.com/enable-grove": "FALSE"}
    assert defaults(obj)["metadata"]["annotations"][PROVIDER] == "component"


def test_grove_gate_off_selects_the_component_path() -> None:
    assert (
        defaults(graph(), Profile(grove=False))["metadata"]["annotations"][PROVIDER] == "component"
    )


def test_origin_version_is_not_invented() -> None:
    assert (
        "nvidia.com/dynamo-operator-origin-version"
        not in defaults(graph())["metadata"]["annotations"]
    )


def test_update_keeps_the_stored_provider_when_the_file_omits_it() -> None:
    old = stored(graph(), "component")
    assert defaults(graph(), old=old)["metadata"]["annotations"][PROVIDER] == "component"


def test_update_keeps_a_different_user_value_for_the_immutability_rule() -> None:
    old = stored(graph(), "grove")
    assert (
        defaults(graph(provider="component"), old=old)["metadata"]["annotations"][PROVIDER]
        == "component"
    )


def test_replicas_default_to_one_except_for_lpx() -> None:
    obj = graph()
    del worker(obj)["replicas"]
    obj["spec"]["components"].append(component("accel", "lpx"))
    result = defaults(obj)["spec"]["components"]
    assert [c.get("replicas") for c in result] == [1, 1, None]


def test_min_available_defaults_to_one_on_grove_only() -> None:
    # Until 1.6; 1.6 leaves the minimum to Grove (below).
    v15 = Profile(operator_version="1.5")
    assert [c.get("minAvailable") for c in defaults(graph(), v15)["spec"]["components"]] == [1, 1]
    assert [
        c.get("minAvailable")
        for c in defaults(graph(), Profile(grove=False, operator_version="1.5"))["spec"][
            "components"
        ]
    ] == [None, None]


def test_1_6_defaults_no_min_available() -> None:
    assert [c.get("minAvailable") for c in defaults(graph())["spec"]["components"]] == [None, None]


def test_1_3_stamps_no_workload_provider() -> None:
    result = defaults(graph(), Profile(operator_version="1.3"))
    assert "nvidia.com/workload-provider" not in result["metadata"].get("annotations", {})
    assert "nvidia.com/workload-provider" in defaults(graph())["metadata"]["annotations"]


def test_1_6_persists_multinode_role_replicas() -> None:
    obj = graph()
    worker(obj)["multinode"] = {"nodeCount": 4}
    worker(obj)["roles"] = [{"name": "leader"}, {"name": "worker"}]
    roles = worker(defaults(obj))["roles"]
    assert [r["replicas"] for r in roles] == [1, 3]


def test_1_6_role_override_targets_the_clique() -> None:
    obj = graph()
    worker(obj)["multinode"] = {"nodeCount": 2}
    worker(obj)["roles"] = [
        {"name": "leader", "providerOverride": {"apiVersion": "grove.io/v1alpha1"}},
        {"name": "worker"},
    ]
    role = worker(defaults(obj))["roles"][0]
    assert role["providerOverride"]["target"] == "PodCliqueTemplateSpec"


def test_provider_override_targets_come_from_context() -> None:
    obj = graph()
    obj["spec"]["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": {}}
    worker(obj)["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": {}}
    worker(obj)["multinode"] = {
        "nodeCount": 2,
        "leader": {"providerOverride": {"apiVersion": "grove.io/v1alpha1"}},
    }
    result = defaults(obj, Profile(operator_version="1.5"))  # 1.6 moved leader/worker to roles
    assert result["spec"]["providerOverride"]["target"] == "PodCliqueSet"
    assert worker(result)["providerOverride"]["target"] == "PodCliqueScalingGroupConfig"
    assert (
        worker(result)["multinode"]["leader"]["providerOverride"]["target"]
        == "PodCliqueTemplateSpec"
    )


def test_single_node_component_override_targets_the_clique() -> None:
    obj = graph()
    worker(obj)["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "target": "", "value": {}}
    assert worker(defaults(obj))["providerOverride"]["target"] == "PodCliqueTemplateSpec"


def test_odd_shapes_do_not_raise() -> None:
    for odd in (
        {"apiVersion": "nvidia.com/v1beta1", "metadata": "x"},
        {"apiVersion": "nvidia.com/v1beta1", "spec": {"components": [1]}},
    ):
        defaults(odd)
