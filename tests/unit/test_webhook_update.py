"""Every update-only webhook rule (docs/operator-semantics.md#update-rules), with the exact path and message."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.defaults import mutate
from kubectl_dgd.core.validate.webhook import check_create
from kubectl_dgd.core.validate.webhook_update import check_update
from tests.unit.dgd_factory import component, graph, lpx_component, main_of, stored, worker

Mutation = Callable[[dict[str, Any]], None]
GROVE = Profile()
RECREATE_TOPOLOGY = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change topology constraints"
)


def update_lines(old: dict[str, Any], new: dict[str, Any], profile: Profile = GROVE) -> list[str]:
    mutate(old, profile, old)  # both sides defaulted, as the pipeline does
    mutate(new, profile, old)
    found = check_create(new, profile, old=old) + check_update(new, old, profile)
    return [f"{f.path}: {f.message}" for f in found if f.severity != "info"]


def on_worker(**fields: Any) -> Mutation:
    return lambda obj: worker(obj).update(fields)


def none(obj: dict[str, Any]) -> None:
    return None


def inter_pod_gms(obj: dict[str, Any]) -> None:
    w = worker(obj)
    w.setdefault("experimental", {})["gpuMemoryService"] = {"mode": "InterPod"}
    main_of(w)["resources"] = {"limits": {"nvidia.com/gpu": "1"}}


def inter_pod_failover(shadows: int) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        inter_pod_gms(obj)
        worker(obj)["experimental"]["failover"] = {"mode": "InterPod", "numShadows": shadows}

    return apply


def restart(type_: str, *order: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        strategy: dict[str, Any] = {"type": type_}
        if order:
            strategy["order"] = list(order)
        obj["spec"]["restart"] = {"id": "roll", "strategy": strategy}

    return apply


def with_rollout(phase: str, restart_id: str) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        obj["spec"]["restart"] = {"id": restart_id}
        obj["status"] = {"rollingUpdate": {"phase": phase}}

    return apply


def power(value: str, gpus: str = "1") -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        w = worker(obj)
        w["podTemplate"]["metadata"] = {"annotations": {"dynamo.nvidia.com/gpu-power-limit": value}}
        main_of(w)["resources"] = {"limits": {"nvidia.com/gpu": gpus}}

    return apply


def gpus(count: str) -> Mutation:
    return lambda obj: main_of(worker(obj)).update(resources={"limits": {"nvidia.com/gpu": count}})


def chain(*steps: Mutation) -> Mutation:
    def apply(obj: dict[str, Any]) -> None:
        for step in steps:
            step(obj)

    return apply


def add_extra(obj: dict[str, Any]) -> None:
    obj["spec"]["components"].append(component("extra", None, replicas=1))


def spec_topology(domain: str) -> Mutation:
    return lambda obj: obj["spec"].update(
        topologyConstraint={"clusterTopologyName": "grove-topology", "packDomain": domain}
    )


CASES: list[tuple[str, Mutation, Mutation, list[str]]] = [
    ("unchanged update is valid", none, none, []),
    ("component reorder is allowed", none, lambda obj: obj["spec"]["components"].reverse(), []),
    (
        "component added",
        none,
        add_extra,
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components added: [extra]"
        ],
    ),
    (
        "component removed",
        none,
        lambda obj: obj["spec"]["components"].pop(),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components removed: [worker]"
        ],
    ),
    (
        "component add and remove reports both sides",
        none,
        lambda obj: obj["spec"].update(
            components=[obj["spec"]["components"][1], component("extra", None, replicas=1)]
        ),
        [
            "spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components added: [extra], components removed: [frontend]"
        ],
    ),
    (
        "single-node to multinode is immutable",
        none,
        on_worker(multinode={"nodeCount": 2}),
        [
            'spec.components[1].multinode: Invalid value: {"nodeCount":2}: cannot change node topology between single-node and multi-node after creation'
        ],
    ),
    (
        "scaling adapter blocks direct replica changes",
        on_worker(scalingAdapter={}, replicas=2),
        on_worker(scalingAdapter={}, replicas=3),
        [
            "spec.components[1].replicas: Forbidden: cannot be modified directly when scaling adapter is enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead"
        ],
    ),
    (
        "scaling adapter removal cannot bypass replica ownership",
        on_worker(scalingAdapter={}, replicas=2),
        lambda obj: worker(obj).update(replicas=3),
        [
            "spec.components[1].replicas: Forbidden: cannot be modified directly when scaling adapter is enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead"
        ],
    ),
    ("replicas may change without a scaling adapter", none, on_worker(replicas=5), []),
    (
        "backend framework is immutable and warns",
        none,
        lambda obj: obj["spec"].update(backendFramework="sglang"),
        [
            'spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation',
            "spec.backendFramework: Changing spec.backendFramework may cause unexpected behavior",
        ],
    ),
    (
        "spec topology constraint cannot be added",
        none,
        spec_topology("rack"),
        [
            f'spec.topologyConstraint: Invalid value: {{"clusterTopologyName":"grove-topology","packDomain":"rack"}}: {RECREATE_TOPOLOGY}'
        ],
    ),
    (
        "spec topology constraint cannot be removed",
        spec_topology("rack"),
        none,
        [f"spec.topologyConstraint: Invalid value: null: {RECREATE_TOPOLOGY}"],
    ),
    (
        "component topology constraint cannot change",
        chain(spec_topology("zone"), on_worker(topologyConstraint={"packDomain": "rack"})),
        chain(spec_topology("zone"), on_worker(topologyConstraint={"packDomain": "zone"})),
        [
            f'spec.components[1].topologyConstraint: Invalid value: {{"packDomain":"zone"}}: {RECREATE_TOPOLOGY}'
        ],
    ),
    (
        "kv transfer policy cannot be added",
        none,
        lambda obj: obj["spec"].update(
            experimental={
                "kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}
            }
        ),
        [
            'spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone","domain":"zone"}: is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change the KV transfer policy'
        ],
    ),
    (
        "explicit default kv enforcement counts as unchanged",
        lambda obj: obj["spec"].update(
            experimental={
                "kvTransferPolicy": {"labelKey": "topology.kubernetes.io/zone", "domain": "zone"}
            }
        ),
        lambda obj: obj["spec"].update(
            experimental={
                "kvTransferPolicy": {
                    "labelKey": "topology.kubernetes.io/zone",
                    "domain": "zone",
                    "enforcement": "required",
                }
            }
        ),
        [],
    ),
    (
        "inter-pod GMS cannot be toggled on",
        none,
        inter_pod_gms,
        [
            'spec.components[1].experimental.gpuMemoryService.mode: Invalid value: "InterPod": the inter-pod GMS layout cannot be toggled after creation; delete and recreate the DynamoGraphDeployment'
        ],
    ),
    (
        "inter-pod failover cannot be removed",
        inter_pod_failover(1),
        none,
        [
            "spec.components[1].experimental.gpuMemoryService.mode: Invalid value: null: the inter-pod GMS layout cannot be toggled after creation; delete and recreate the DynamoGraphDeployment",
            "spec.components[1].experimental.failover: Invalid value: null: inter-pod GMS failover cannot be toggled after creation; delete and recreate the DynamoGraphDeployment",
        ],
    ),
    (
        "inter-pod failover cannot be added",
        inter_pod_gms,
        inter_pod_failover(1),
        [
            'spec.components[1].experimental.failover: Invalid value: {"mode":"InterPod","numShadows":1}: inter-pod GMS failover cannot be toggled after creation; delete and recreate the DynamoGraphDeployment'
        ],
    ),
    (
        "forceScalingGroup cannot be toggled",
        none,
        on_worker(experimental={"grove": {"forceScalingGroup": True}}),
        [
            "spec.components[1].experimental.grove.forceScalingGroup: Invalid value: true: cannot be toggled after creation; delete and recreate the DynamoGraphDeployment to change it"
        ],
    ),
    (
        "explicit false forceScalingGroup is fine",
        none,
        on_worker(experimental={"grove": {"forceScalingGroup": False}}),
        [],
    ),
    (
        "power annotation cannot be added",
        none,
        power("300"),
        [
            'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]: Invalid value: "300": field is immutable'
        ],
    ),
    (
        "power-annotated GPU count is immutable",
        power("300", "1"),
        power("300", "2"),
        [
            'spec.components[1].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "2": field is immutable'
        ],
    ),
    ("unannotated GPU count may change", gpus("1"), gpus("2"), []),
    (
        "restart id cannot change during an active rolling update",
        with_rollout("InProgress", "old"),
        lambda obj: obj["spec"].update(restart={"id": "new"}),
        [
            'spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is InProgress'
        ],
    ),
    (
        "restart id message names the Pending phase",
        with_rollout("Pending", "old"),
        lambda obj: obj["spec"].update(restart={"id": "new"}),
        [
            'spec.restart.id: Invalid value: "new": cannot be changed while a rolling update is Pending'
        ],
    ),
    (
        "restart id can stay unchanged during a rolling update",
        with_rollout("InProgress", "same"),
        lambda obj: obj["spec"].update(restart={"id": "same"}),
        [],
    ),
    (
        "restart id can change after a completed rolling update",
        with_rollout("Completed", "old"),
        lambda obj: obj["spec"].update(restart={"id": "new"}),
        [],
    ),
    ("empty sequential order is valid", none, restart("Sequential"), []),
    ("complete sequential order is valid", none, restart("Sequential", "frontend", "worker"), []),
    (
        "parallel restart rejects order",
        none,
        restart("Parallel", "frontend", "worker"),
        ["spec.restart.strategy.order: Forbidden: cannot be specified when strategy is parallel"],
    ),
    (
        "duplicate restart order",
        none,
        restart("Sequential", "frontend", "worker", "worker"),
        [
            'spec.restart.strategy.order: Invalid value: ["frontend","worker","worker"]: must be unique'
        ],
    ),
    (
        "unknown restart order component",
        none,
        restart("Sequential", "frontend", "ghost"),
        [
            'spec.restart.strategy.order[1]: Unsupported value: "ghost": supported values: "frontend", "worker"'
        ],
    ),
    (
        "incomplete restart order",
        none,
        restart("Sequential", "worker"),
        [
            'spec.restart.strategy.order: Invalid value: ["worker"]: must have the same number of unique components as the deployment'
        ],
    ),
    (
        "restart order names are case-sensitive",
        none,
        restart("Sequential", "frontend", "Worker"),
        [
            'spec.restart.strategy.order[1]: Unsupported value: "Worker": supported values: "frontend", "worker"'
        ],
    ),
    # ratcheting
    (
        "legacy custom tag stays updatable while unchanged",
        lambda obj: main_of(worker(obj)).update(image="img:main"),
        on_worker(replicas=4),
        [],
    ),
    (
        "changed image is re-validated",
        lambda obj: main_of(worker(obj)).update(image="img:main"),
        lambda obj: main_of(worker(obj)).update(image="img:dev"),
        [
            "spec.components[1].runtimeVersionOverride: Required value: is required when the specified main container image has no parseable semantic-version tag"
        ],
    ),
]


@pytest.mark.parametrize(
    ("before", "after", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_update_rule(before: Mutation, after: Mutation, expected: list[str]) -> None:
    old = graph()
    before(old)
    old = stored(old)
    new = graph()
    after(new)
    assert update_lines(old, new) == expected


def _node_count_update(profile: Profile) -> list[str]:
    old = graph()
    on_worker(multinode={"nodeCount": 2})(old)
    new = graph()
    on_worker(multinode={"nodeCount": 3})(new)
    return update_lines(stored(old), new, profile)


def test_node_count_only_update_remains_allowed_before_1_6_with_a_warning_about_newer_operators() -> (
    None
):
    assert _node_count_update(Profile(operator_version="1.5")) == [
        "spec.components[1].multinode.nodeCount: multinode.nodeCount changed: admitted by operators up to 1.5, but newer operators reject it as `Invalid value: 3: field is immutable`"
    ]


def test_node_count_is_immutable_from_1_6() -> None:
    assert _node_count_update(Profile()) == [
        "spec.components[1].multinode.nodeCount: Invalid value: 3: field is immutable"
    ]


def test_user_may_not_add_the_workload_provider_annotation() -> None:
    old = graph()
    new = stored(graph(), "component")
    assert update_lines(old, new, Profile())[:1] == [
        "metadata.annotations[nvidia.com/workload-provider]: Forbidden: may only be materialized by the Dynamo operator"
    ]


def test_workload_provider_annotation_is_immutable() -> None:
    old = stored(graph(), "grove")
    new = stored(graph(), "component")
    assert update_lines(old, new) == [
        'metadata.annotations[nvidia.com/workload-provider]: Invalid value: "component": field is immutable'
    ]


def test_a_file_without_the_provider_annotation_keeps_the_stored_one() -> None:
    old = stored(graph(), "component")
    new = graph()
    new["spec"]["priorityClassName"] = "high"
    assert update_lines(old, new) == [
        'spec.priorityClassName: Forbidden: requires the Grove pathway, but workload provider "component" is selected'
    ]


def test_stored_grove_graph_keeps_grove_semantics_when_the_gate_is_off() -> None:
    old = stored(graph(), "grove")
    new = graph()
    new["spec"]["priorityClassName"] = "high"
    assert update_lines(old, new, Profile(grove=False)) == []


def test_provider_override_api_version_is_immutable() -> None:
    override = {
        "apiVersion": "grove.io/v1alpha1",
        "value": {"spec": {"template": {"topologyConstraint": {}}}},
    }
    old = stored(graph())
    old["spec"]["providerOverride"] = copy.deepcopy(override)
    mutate(old, GROVE, old)
    new = stored(graph())
    new["spec"]["providerOverride"] = {**copy.deepcopy(override), "apiVersion": "grove.io/v1beta1"}
    lines = update_lines(old, new)
    assert (
        'spec.providerOverride.apiVersion: Invalid value: "grove.io/v1beta1": field is immutable'
        in lines
    )
    assert (
        'spec.providerOverride.apiVersion: Unsupported value: "grove.io/v1beta1": supported values: "grove.io/v1alpha1"'
        in lines
    )


def test_provider_override_needs_an_adopted_object() -> None:
    old = graph()
    new = graph()
    new["spec"]["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": {}}
    assert update_lines(old, new)[0] == (
        'spec.providerOverride: Forbidden: requires controller-owned annotation "nvidia.com/workload-provider" '
        "to be materialized; wait for controller adoption and retry"
    )


def test_lpx_gate_applies_to_added_or_changed_components_only() -> None:
    lpx = component("accel", "lpx", lpx={"buildId": "b1"})
    old = stored(graph())
    old["spec"]["components"].append(copy.deepcopy(lpx))
    unchanged = copy.deepcopy(old)
    assert [line for line in update_lines(old, unchanged) if "lpx" in line] == []
    changed = copy.deepcopy(old)
    changed["spec"]["components"][2]["lpx"]["buildId"] = "b2"
    assert (
        "spec.components[2].type: Forbidden: LPX components require lpx.enabled=true"
        in update_lines(old, changed)
    )
    assert (
        "spec.components[2].type: Forbidden: LPX components require lpx.enabled=true"
        not in update_lines(old, copy.deepcopy(changed), Profile(lpx=True))
    )


def test_lpx_requires_grove_on_create() -> None:
    obj = graph()
    obj["spec"]["components"].append(lpx_component("accel"))
    profile = Profile(provider="component", lpx=True)
    mutate(obj, profile, None)
    lines = [f"{f.path}: {f.message}" for f in check_create(obj, profile)]
    assert lines == [
        'spec.components: Forbidden: requires the Grove pathway, but workload provider "component" is selected'
    ]
