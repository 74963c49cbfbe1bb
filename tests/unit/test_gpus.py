"""GPU counting as the operator does it (docs/operator-semantics.md#component-status)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.core.gpus import (
    ClaimRef,
    component_gpus,
    is_gpu_resource,
    parse_count,
    pod_footprint,
    scalar_gpus,
)


def container(
    name: str = "main", limits: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if limits is not None:
        resources["limits"] = limits
    resources.update(extra.pop("resources", {}))
    return {"name": name, "image": "img:1.0.0", "resources": resources, **extra}


def component(*containers: dict[str, Any], **fields: Any) -> dict[str, Any]:
    spec = {"containers": list(containers), **fields.pop("pod", {})}
    return {"name": "worker", "type": "worker", "podTemplate": {"spec": spec}, **fields}


@pytest.mark.parametrize(
    "name",
    [
        "nvidia.com/gpu",
        "gpu",
        "amd.com/gpu",
        "NVIDIA.COM/GPU",
        "nvidia.com/mig-1g.10gb",
        "gpu.intel.com/i915",
    ],
)
def test_gpu_resource_names_are_recognised(name: str) -> None:
    assert is_gpu_resource(name)


@pytest.mark.parametrize(
    "name", ["cpu", "memory", "nvidia.com/gpumem", "example.com/gpus", "mygpu.io/x"]
)
def test_other_resource_names_are_not_gpus(name: str) -> None:
    assert not is_gpu_resource(name)


@pytest.mark.parametrize(
    ("value", "count"), [("2", 2), (3, 3), ("2000m", 2), ("1k", 1000), ("0", 0)]
)
def test_whole_quantities_parse(value: Any, count: int) -> None:
    assert parse_count(value) == count


@pytest.mark.parametrize(
    "value", ["1.5", "500m", "-1", "two", True, "NaN", "Infinity", "-inf", "", None]
)
def test_fractional_or_bad_quantities_do_not_parse(value: Any) -> None:
    assert parse_count(value) is None


def test_limits_take_precedence_over_requests() -> None:
    c = container(
        resources={"limits": {"nvidia.com/gpu": "2"}, "requests": {"nvidia.com/gpu": "1"}}
    )
    assert scalar_gpus(c).value == 2


def test_requests_count_when_no_limit_names_a_gpu() -> None:
    c = container(resources={"limits": {"cpu": "4"}, "requests": {"nvidia.com/gpu": "1"}})
    assert scalar_gpus(c).value == 1


def test_two_gpu_keys_in_one_container_are_ambiguous() -> None:
    count = scalar_gpus(container(limits={"nvidia.com/gpu": "1", "amd.com/gpu": "1"}))
    assert count.value is None
    assert count.error is not None
    assert (
        "amd.com/gpu, nvidia.com/gpu are ambiguous; specify exactly one per container"
        in count.error
    )


def test_a_fractional_gpu_quantity_is_an_error() -> None:
    count = scalar_gpus(container(limits={"nvidia.com/gpu": "0.5"}))
    assert count.value is None
    assert count.error is not None and "not a whole number" in count.error


def test_pod_footprint_is_the_init_peak_when_an_init_container_needs_more() -> None:
    pod = {
        "initContainers": [container("warmup", {"nvidia.com/gpu": 4})],
        "containers": [container(limits={"nvidia.com/gpu": 1})],
    }
    assert pod_footprint(pod).value == 4


def test_native_sidecars_add_to_the_app_phase() -> None:
    sidecar = container("sidecar", {"nvidia.com/gpu": 1}, restartPolicy="Always")
    pod = {"initContainers": [sidecar], "containers": [container(limits={"nvidia.com/gpu": 1})]}
    assert pod_footprint(pod).value == 2


def test_an_init_container_runs_beside_the_sidecars_started_before_it() -> None:
    sidecar = container("sidecar", {"nvidia.com/gpu": 1}, restartPolicy="Always")
    init = container("init", {"nvidia.com/gpu": 2})
    pod = {
        "initContainers": [sidecar, init],
        "containers": [container(limits={"nvidia.com/gpu": 1})],
    }
    assert pod_footprint(pod).value == 3  # sidecar 1 + init 2 > app 1 + sidecar 1


def test_an_init_container_before_a_sidecar_does_not_overlap_it() -> None:
    init = container("init", {"nvidia.com/gpu": 2})
    sidecar = container("sidecar", {"nvidia.com/gpu": 1}, restartPolicy="Always")
    pod = {
        "initContainers": [init, sidecar],
        "containers": [container(limits={"nvidia.com/gpu": 1})],
    }
    assert pod_footprint(pod).value == 2


def test_per_engine_counts_only_the_main_container_and_per_replica_the_whole_pod() -> None:
    figures = component_gpus(
        component(
            container(limits={"nvidia.com/gpu": 2}), container("helper", {"nvidia.com/gpu": 1})
        )
    )
    assert (figures.per_engine, figures.per_replica) == (2, 3)


def test_a_component_without_gpus_counts_zero() -> None:
    assert component_gpus({"name": "frontend", "type": "frontend"}).per_replica == 0


def test_multinode_multiplies_by_node_count() -> None:
    figures = component_gpus(
        component(container(limits={"nvidia.com/gpu": 4}), multinode={"nodeCount": 3})
    )
    assert (figures.per_engine, figures.per_replica) == (12, 12)


def test_multinode_without_node_count_uses_the_default_of_two() -> None:
    figures = component_gpus(component(container(limits={"nvidia.com/gpu": 4}), multinode={}))
    assert (figures.per_engine, figures.per_replica) == (8, 8)


def test_roles_charge_each_role_pod_times_its_replicas() -> None:
    leader = {"spec": {"containers": [container(limits={"nvidia.com/gpu": 1})]}}
    worker = {"spec": {"containers": [container(limits={"nvidia.com/gpu": 4})]}}
    figures = component_gpus(
        component(
            container(limits={"nvidia.com/gpu": 1}),
            multinode={"nodeCount": 3},
            roles=[
                {"name": "leader", "podTemplate": leader},
                {"name": "worker", "podTemplate": worker},
            ],
        )
    )
    assert figures.per_replica == 1 + 2 * 4  # worker replicas default to nodeCount - 1


def test_an_unresolved_dra_claim_makes_the_figure_unknown_and_says_why() -> None:
    pod = {"resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "big-gpus"}]}
    main = container(resources={"claims": [{"name": "gpus"}]})
    figures = component_gpus(component(main, pod=pod))
    assert figures.per_engine is None and figures.per_replica is None
    assert (
        figures.note
        == "DRA claim 'gpus' (ResourceClaimTemplate big-gpus) cannot be resolved offline"
    )


def test_a_resolved_claim_template_is_charged_per_pod() -> None:
    pod = {"resourceClaims": [{"name": "gpus", "resourceClaimTemplateName": "two"}]}
    main = container(resources={"claims": [{"name": "gpus"}]})
    figures = component_gpus(
        component(main, pod=pod, multinode={"nodeCount": 2}),
        {ClaimRef("ResourceClaimTemplate", "two"): 2},
    )
    assert (figures.per_engine, figures.per_replica) == (4, 4)


def test_a_shared_resource_claim_is_charged_once_per_replica() -> None:
    pod = {"resourceClaims": [{"name": "gpus", "resourceClaimName": "shared"}]}
    main = container(resources={"claims": [{"name": "gpus"}]})
    figures = component_gpus(
        component(main, pod=pod, multinode={"nodeCount": 2}),
        {ClaimRef("ResourceClaim", "shared"): 2},
    )
    assert figures.per_replica == 2


def test_a_claim_without_a_pod_entry_is_unknown() -> None:
    figures = component_gpus(component(container(resources={"claims": [{"name": "ghost"}]})))
    assert figures.per_replica is None
    assert figures.note == "DRA claim 'ghost' has no pod-level resourceClaims entry"


def test_inter_pod_gpu_memory_service_pods_are_unknown_offline() -> None:
    figures = component_gpus(
        component(
            container(limits={"nvidia.com/gpu": 1}),
            experimental={"gpuMemoryService": {"mode": "InterPod"}},
        )
    )
    assert figures.per_engine == 1
    assert figures.per_replica is None
    assert figures.note is not None and "inter-pod GPU memory service" in figures.note


def test_an_ambiguous_container_reports_the_error_on_the_component() -> None:
    figures = component_gpus(component(container(limits={"nvidia.com/gpu": 1, "gpu": 1})))
    assert figures.per_engine is None
    assert figures.note is not None and "ambiguous" in figures.note


pod_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=12), children, max_size=3)
    ),
    max_leaves=15,
)
container_like = st.fixed_dictionaries(
    {"name": st.sampled_from(["main", "side"])},
    optional={
        "resources": st.fixed_dictionaries(
            {},
            optional={
                "limits": st.dictionaries(
                    st.sampled_from(["nvidia.com/gpu", "gpu", "cpu"]), pod_values
                ),
                "requests": st.dictionaries(
                    st.sampled_from(["nvidia.com/gpu", "amd.com/gpu"]), pod_values
                ),
                "claims": pod_values,
            },
        ),
        "restartPolicy": st.sampled_from(["Always", "Never"]),
    },
)


@settings(max_examples=200)
@given(
    containers=st.lists(container_like | pod_values, max_size=3),
    inits=st.lists(container_like | pod_values, max_size=2),
    claims=pod_values,
    multinode=pod_values,
    roles=pod_values,
)
def test_counting_never_raises_and_never_goes_negative(
    containers: list[Any], inits: list[Any], claims: Any, multinode: Any, roles: Any
) -> None:
    pod = {"containers": containers, "initContainers": inits, "resourceClaims": claims}
    figures = component_gpus(
        {"name": "w", "podTemplate": {"spec": pod}, "multinode": multinode, "roles": roles}
    )
    for value in (figures.per_engine, figures.per_replica):
        assert value is None or value >= 0
