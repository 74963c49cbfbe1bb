"""The status view model built from saved objects."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.core.status import build_status_view
from kubectl_dgd.errors import InputError
from kubectl_dgd.output.status import render_text
from tests.unit.status_fixtures import NOW, saved


def view(name: str, obj: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    return build_status_view(obj if obj is not None else saved(name), NOW)


def component(status_view, name: str):  # type: ignore[no-untyped-def]
    return next(c for c in status_view.components if c.name == name)


def test_json_carries_the_documented_keys() -> None:
    data = view("healthy").to_data()
    for key in (
        "name",
        "namespace",
        "state",
        "ready",
        "components",
        "totals",
        "restart",
        "rollingUpdate",
    ):
        assert key in data
    assert set(data["ready"]) >= {"status", "reason", "message"}
    expected = {
        "name",
        "type",
        "kind",
        "replicas",
        "desiredReplicas",
        "readyReplicas",
        "updatedReplicas",
        "availableReplicas",
        "gpusPerEngine",
        "gpusPerReplica",
        "gpus",
        "desiredGpus",
        "gpuSource",
        "runtimeNamespace",
        "componentNames",
    }
    assert expected <= set(data["components"][0])
    assert {"gpus", "desiredGpus", "readyReplicas", "desiredReplicas"} <= set(data["totals"])


def test_header_fields_come_from_metadata_spec_and_status() -> None:
    v = view("healthy")
    assert (v.name, v.namespace, v.state, v.backend) == (
        "vllm-disagg",
        "dynamo",
        "successful",
        "vllm",
    )
    assert (v.ready.status, v.ready.reason, v.ready.message) == (
        "True",
        "all_resources_are_ready",
        "All resources are ready",
    )
    assert (v.provider, v.providerSource) == ("component", "annotation")
    assert (v.generation, v.observedGeneration, v.stale) == (2, 2, False)


def test_gpu_figures_reported_by_the_operator_are_used_as_is() -> None:
    decode = component(view("healthy"), "VllmDecodeWorker")
    assert decode.gpuSource == "status"
    assert (decode.gpusPerEngine, decode.gpusPerReplica, decode.gpus, decode.desiredGpus) == (
        2,
        2,
        2,
        2,
    )


def test_status_figures_win_over_the_spec_when_they_differ() -> None:
    obj = saved("healthy")
    obj["status"]["components"]["VllmDecodeWorker"]["gpusPerReplica"] = 5
    assert component(view("", obj), "VllmDecodeWorker").gpusPerReplica == 5


def test_gpu_figures_are_computed_from_the_spec_when_status_has_none() -> None:
    prefill = component(view("rolling-update-in-progress"), "prefill")
    assert prefill.gpuSource == "spec"
    # 3 replicas during the surge (old + new), 2 desired.
    assert (prefill.gpusPerReplica, prefill.replicas, prefill.gpus, prefill.desiredGpus) == (
        1,
        3,
        3,
        2,
    )


def test_multinode_grove_worker_gpus_are_computed_per_engine_and_replica() -> None:
    worker = component(view("grove-healthy"), "TrtllmWorker")
    assert (worker.gpusPerEngine, worker.gpusPerReplica, worker.gpuSource) == (8, 8, "spec")


def test_scaling_groups_count_available_replicas_as_ready() -> None:
    worker = component(view("grove-healthy"), "TrtllmWorker")
    assert worker.kind == "PodCliqueScalingGroup"
    assert (worker.readyReplicas, worker.availableReplicas) == (1, 1)


def test_totals_sum_ready_desired_and_gpus() -> None:
    totals = view("rolling-update-in-progress").totals
    assert (totals.readyReplicas, totals.desiredReplicas) == (5, 5)
    assert (totals.gpus, totals.desiredGpus, totals.gpusComplete) == (7, 6, True)


def test_missing_replicas_default_to_one_desired() -> None:
    frontend = component(view("failed"), "Frontend")
    assert frontend.desiredReplicas == 1
    assert (frontend.replicas, frontend.gpus, frontend.inStatus) == (None, None, False)


def test_stale_status_is_flagged() -> None:
    obj = saved("healthy")
    obj["metadata"]["generation"] = 3
    v = view("", obj)
    assert v.stale
    assert "status is stale" in render_text(v)


def test_provider_is_inferred_from_component_kinds_without_the_annotation() -> None:
    obj = saved("grove-healthy")
    del obj["metadata"]["annotations"]["nvidia.com/workload-provider"]
    v = view("", obj)
    assert (v.provider, v.providerSource) == ("grove", "componentKinds")


def test_a_component_only_in_status_is_shown_after_the_spec_ones() -> None:
    obj = saved("healthy")
    obj["status"]["components"]["Old"] = {
        "componentKind": "Deployment",
        "replicas": 1,
        "updatedReplicas": 1,
        "gpusPerReplica": 1,
    }
    v = view("", obj)
    old = v.components[-1]
    assert (old.name, old.inSpec, old.desiredReplicas, old.gpus) == ("Old", False, None, 1)


def test_other_conditions_exclude_ready() -> None:
    v = view("grove-healthy")
    assert [c.type for c in v.conditions] == ["TopologyLevelsAvailable"]


def test_checkpoints_and_placement_are_carried() -> None:
    assert [(c.component, c.ready) for c in view("healthy").checkpoints] == [
        ("VllmDecodeWorker", True)
    ]
    placement = view("grove-healthy").placement
    assert placement is not None and (placement.state, placement.score) == ("Unknown", None)


def test_the_view_never_carries_env_names_or_values() -> None:
    dumped = json.dumps(view("healthy").to_data())
    for secret in ("do-not-print-me", "VLLM_API_KEY", "HF_TOKEN", "hf-token"):
        assert secret not in dumped
        assert secret not in render_text(view("healthy"), wide=True)


def test_an_uncountable_component_is_marked_unknown_with_its_reason() -> None:
    obj = saved("healthy")
    del obj["status"]["components"]["VllmDecodeWorker"]["gpusPerReplica"]
    main = obj["spec"]["components"][2]["podTemplate"]["spec"]["containers"][0]
    main["resources"]["limits"]["amd.com/gpu"] = "1"
    v = view("", obj)
    decode = component(v, "VllmDecodeWorker")
    assert decode.gpusPerReplica is None and decode.gpus is None
    assert not v.totals.gpusComplete
    text = render_text(v)
    # The cell says "unknown" and the footnote why (it was a bare "?" before issue 10).
    assert "VllmDecodeWorker: GPUs unknown: multiple scalar GPU resource keys" in text
    assert " ?" not in text


def test_a_graph_without_status_still_has_a_view() -> None:
    obj = saved("healthy")
    del obj["status"]
    v = view("", obj)
    assert v.state is None and v.ready.status is None
    assert v.health.status == "Progressing"
    assert all(c.replicas is None for c in v.components)
    assert "unknown (no Ready condition)" in render_text(v)


def test_health_is_part_of_the_view() -> None:
    assert view("failed").health.status == "Degraded"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-3, max_value=9) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)
STATUS_KEYS = [
    "state",
    "conditions",
    "components",
    "restart",
    "rollingUpdate",
    "checkpoints",
    "placement",
]
SPEC_KEYS = ["components", "restart", "backendFramework"]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    example=st.sampled_from(
        ["healthy", "rolling-update-in-progress", "grove-healthy", "superseded"]
    ),
    section=st.sampled_from(["status", "spec"]),
    key=st.sampled_from(STATUS_KEYS + SPEC_KEYS),
    value=json_values,
)
def test_a_damaged_object_gives_a_view_or_an_input_error(
    example: str, section: str, key: str, value: object
) -> None:
    obj = saved(example)
    obj[section][key] = value
    try:
        v = build_status_view(obj, NOW)
    except InputError:
        return
    render_text(v, wide=True)
    json.dumps(v.to_data())
