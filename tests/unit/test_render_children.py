"""What render builds for a component: pod template merge, worker hash, both pathways."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderError, render_graph
from kubectl_dgd.core.render.context import graph_context
from kubectl_dgd.core.render.objects import HASH_PREVIEW, NOT_SHOWN_ANNOTATION, PREVIEW_ANNOTATION
from kubectl_dgd.core.render.worker_hash import worker_hash

COMPONENT = Profile(provider="component")
GROVE = Profile(provider="grove")


def component(name: str, type_: str, **extra: Any) -> dict[str, Any]:
    main: dict[str, Any] = {"name": "main", "image": "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}
    if type_ in ("worker", "prefill", "decode"):
        main["command"] = ["python3", "-m", "dynamo.vllm"]
    return {"name": name, "type": type_, "podTemplate": {"spec": {"containers": [main]}}, **extra}


def dgd(*components: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"components": list(components), **spec},
    }


def objects(obj: dict[str, Any], profile: Profile, kind: str) -> list[dict[str, Any]]:
    return [o.obj for o in render_graph(obj, profile) if o.kind == kind]


def dcd_of(obj: dict[str, Any], name: str) -> dict[str, Any]:
    return next(
        d for d in objects(obj, COMPONENT, "DynamoComponentDeployment") if d["spec"]["name"] == name
    )


def pod(obj: dict[str, Any], name: str) -> dict[str, Any]:
    """The pod template of the component's Deployment: what its pods get."""
    dcd_name = dcd_of(obj, name)["metadata"]["name"]
    deployment = next(
        d for d in objects(obj, COMPONENT, "Deployment") if d["metadata"]["name"] == dcd_name
    )
    template: dict[str, Any] = deployment["spec"]["template"]
    return template


def main_env(template: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = template["spec"]["containers"][0]["env"]
    return result


# ---- pod template --------------------------------------------------------------------------------


def test_graph_env_is_merged_component_wins_sorted_by_name() -> None:
    graph = dgd(
        component(
            "w",
            "worker",
            podTemplate={
                "spec": {
                    "containers": [
                        {
                            "name": "main",
                            "image": "i:1.4.0",
                            "env": [
                                {"name": "B", "value": "component"},
                                {"name": "A", "value": "component"},
                            ],
                        }
                    ]
                }
            },
        ),
        env=[{"name": "C", "value": "graph"}, {"name": "B", "value": "graph"}],
    )
    assert main_env(pod(graph, "w")) == [
        {"name": "A", "value": "component"},
        {"name": "B", "value": "component"},
        {"name": "C", "value": "graph"},
    ]


def test_a_main_container_is_created_when_missing() -> None:
    graph = dgd({"name": "f", "type": "frontend"}, env=[{"name": "X", "value": "1"}])
    assert pod(graph, "f")["spec"]["containers"] == [
        {"name": "main", "env": [{"name": "X", "value": "1"}]}
    ]


def test_graph_labels_and_annotations_are_a_low_priority_base() -> None:
    graph = dgd(
        component(
            "f",
            "frontend",
            podTemplate={
                "metadata": {"labels": {"tier": "mine"}, "annotations": {"a": "mine"}},
                "spec": {"containers": [{"name": "main", "image": "i:1.4.0"}]},
            },
        ),
        labels={"tier": "graph", "team": "graph"},
        annotations={"a": "graph", "b": "graph"},
    )
    meta = pod(graph, "f")["metadata"]
    assert meta["labels"]["tier"] == "mine" and meta["labels"]["team"] == "graph"
    assert meta["annotations"] == {"a": "mine", "b": "graph"}


def test_system_labels_cannot_be_overridden() -> None:
    graph = dgd(
        component(
            "f",
            "frontend",
            podTemplate={
                "metadata": {"labels": {"nvidia.com/dynamo-component": "x"}},
                "spec": {"containers": [{"name": "main", "image": "i:1.4.0"}]},
            },
        ),
        labels={"nvidia.com/dynamo-graph-deployment-name": "other"},
    )
    labels = pod(graph, "f")["metadata"]["labels"]
    assert labels["nvidia.com/dynamo-component"] == "f"
    assert labels["nvidia.com/dynamo-graph-deployment-name"] == "g"
    assert labels["nvidia.com/dynamo-namespace"] == "ns-g"


def test_the_five_dgd_annotations_propagate_only_when_absent() -> None:
    graph = dgd(
        component(
            "f",
            "frontend",
            podTemplate={
                "metadata": {"annotations": {"nvidia.com/enable-metrics": "true"}},
                "spec": {"containers": [{"name": "main", "image": "i:1.4.0"}]},
            },
        )
    )
    graph["metadata"]["annotations"] = {
        "nvidia.com/enable-metrics": "false",
        "nvidia.com/dynamo-kube-discovery-mode": "container",
        "example.com/other": "not propagated",
    }
    annotations = pod(graph, "f")["metadata"]["annotations"]
    assert annotations == {
        "nvidia.com/enable-metrics": "true",
        "nvidia.com/dynamo-kube-discovery-mode": "container",
    }


def test_epp_opts_out_of_istio_and_a_graph_wide_value_cannot_win() -> None:
    graph = dgd(
        component("epp", "epp"),
        component("w", "worker"),
        annotations={"sidecar.istio.io/inject": "true"},
    )
    assert pod(graph, "epp")["metadata"]["annotations"]["sidecar.istio.io/inject"] == "false"
    assert pod(graph, "w")["metadata"]["annotations"]["sidecar.istio.io/inject"] == "true"


def test_workers_get_the_worker_class_only_when_the_graph_has_an_epp() -> None:
    with_epp = dgd(component("epp", "epp"), component("w", "worker"))
    without = dgd(component("f", "frontend"), component("w", "worker"))
    assert pod(with_epp, "w")["metadata"]["labels"]["nvidia.com/dynamo-component-class"] == "worker"
    assert "nvidia.com/dynamo-component-class" not in pod(without, "w")["metadata"]["labels"]
    assert "nvidia.com/dynamo-component-class" not in pod(with_epp, "epp")["metadata"]["labels"]


def test_planners_run_as_the_planner_service_account() -> None:
    assert (
        pod(dgd(component("p", "planner")), "p")["spec"]["serviceAccountName"]
        == "planner-serviceaccount"
    )


def test_a_restart_puts_its_id_in_restart_at() -> None:
    graph = dgd(component("f", "frontend"), restart={"id": "r-7"})
    assert pod(graph, "f")["metadata"]["annotations"]["nvidia.com/restartAt"] == "r-7"


def test_the_input_graph_is_never_changed() -> None:
    graph = dgd(
        component("f", "frontend"), component("w", "worker"), env=[{"name": "A", "value": "1"}]
    )
    before = copy.deepcopy(graph)
    render_graph(graph, COMPONENT)
    render_graph(graph, GROVE)
    assert graph == before


# ---- worker hash -----------------------------------------------------------------------------------


def hash_of(obj: dict[str, Any]) -> str | None:
    return worker_hash(graph_context(obj, COMPONENT))


def test_graphs_without_workers_have_no_hash() -> None:
    assert hash_of(dgd(component("f", "frontend"))) is None


def test_the_hash_is_8_hex_and_names_every_worker() -> None:
    graph = dgd(
        component("f", "frontend"), component("Prefill", "prefill"), component("Decode", "decode")
    )
    value = hash_of(graph)
    # int(value, 16) would also take "0x1f2a3b", "+1234567" or "1_234567": match the digits.
    assert value is not None and len(value) == 8 and int(value, 16) >= 0
    assert re.fullmatch(r"[0-9a-f]{8}", value), value
    names = sorted(
        d["metadata"]["name"] for d in objects(graph, COMPONENT, "DynamoComponentDeployment")
    )
    assert names == [f"g-decode-{value}", "g-f", f"g-prefill-{value}"]


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.update(replicas=7),
        lambda c: c.update(minAvailable=2),
        lambda c: c.update(scalingAdapter={}),
        lambda c: c.update(runtimeVersionOverride="1.4.0"),
    ],
    ids=["replicas", "minAvailable", "scalingAdapter", "override-below-1.5"],
)
def test_fields_that_patch_the_live_dcd_do_not_change_the_hash(change: Any) -> None:
    base = dgd(component("f", "frontend"), component("w", "worker"))
    changed = copy.deepcopy(base)
    change(changed["spec"]["components"][1])
    assert hash_of(changed) == hash_of(base)


def test_a_worker_image_change_changes_the_hash() -> None:
    base = dgd(component("w", "worker"))
    changed = copy.deepcopy(base)
    changed["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = "img:1.4.1"
    assert hash_of(changed) != hash_of(base)


def test_graph_env_changes_the_hash_but_a_frontend_change_does_not() -> None:
    base = dgd(component("f", "frontend"), component("w", "worker"))
    with_env = dgd(
        component("f", "frontend"), component("w", "worker"), env=[{"name": "A", "value": "1"}]
    )
    frontend_changed = copy.deepcopy(base)
    frontend_changed["spec"]["components"][0]["replicas"] = 3
    frontend_changed["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "other:1.4.0"
    )
    assert hash_of(with_env) != hash_of(base)
    assert hash_of(frontend_changed) == hash_of(base)


def test_a_restart_does_not_change_the_hash() -> None:
    base = dgd(component("w", "worker"))
    assert hash_of(dgd(component("w", "worker"), restart={"id": "r"})) == hash_of(base)


def test_the_resolved_runtime_version_counts_from_1_5_0() -> None:
    def with_override(version: str | None) -> dict[str, Any]:
        worker = component("w", "worker")
        if version:
            worker["runtimeVersionOverride"] = version
        return dgd(worker)

    # 1.4.0 is the image tag's own version: below 1.5.0 nothing is hashed, so the override is invisible.
    assert hash_of(with_override("1.4.0")) == hash_of(with_override(None))
    assert hash_of(with_override("1.5.0")) != hash_of(with_override(None))
    assert hash_of(with_override("1.6.0")) != hash_of(with_override("1.5.0"))


def test_the_hash_is_the_same_on_both_pathways() -> None:
    graph = dgd(component("f", "frontend"), component("w", "worker"))
    grove_hash = worker_hash(graph_context(graph, GROVE))
    assert grove_hash == hash_of(graph)


def test_hashed_objects_are_marked_as_a_preview() -> None:
    graph = dgd(component("f", "frontend"), component("w", "worker"))
    for obj in render_graph(graph, COMPONENT):
        annotations = obj.obj["metadata"].get("annotations", {})
        hashed = obj.source == "g/w"
        assert (annotations.get(PREVIEW_ANNOTATION) == HASH_PREVIEW) == hashed, obj.name


# ---- component path --------------------------------------------------------------------------------


def test_deployments_roll_25_percent_unless_the_template_says_otherwise() -> None:
    recreate = component(
        "f",
        "frontend",
        podTemplate={"metadata": {"annotations": {"nvidia.com/deployment-strategy": "Recreate"}}},
    )
    surge = component(
        "s",
        "frontend",
        podTemplate={
            "metadata": {
                "annotations": {
                    "nvidia.com/deployment-rolling-update-max-surge": "1",
                    "nvidia.com/deployment-rolling-update-max-unavailable": "0%",
                }
            }
        },
    )
    plain = component("p", "planner")
    strategies = {
        d["metadata"]["name"]: d["spec"]["strategy"]
        for d in objects(dgd(recreate, surge, plain), COMPONENT, "Deployment")
    }
    assert strategies == {
        "g-f": {"type": "Recreate"},
        "g-s": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "0%"}},
        "g-p": {
            "type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"},
        },
    }


def test_multinode_components_get_a_leader_worker_set_named_dash_0() -> None:
    graph = dgd(component("w", "worker", multinode={"nodeCount": 3}))
    (lws,) = objects(graph, COMPONENT, "LeaderWorkerSet")
    assert lws["metadata"]["name"].endswith("-0")
    assert lws["spec"]["leaderWorkerTemplate"]["size"] == 3
    assert objects(graph, COMPONENT, "Deployment") == []


def test_multinode_without_lws_fails_like_the_operator() -> None:
    graph = dgd(component("w", "worker", multinode={"nodeCount": 2}))
    with pytest.raises(RenderError, match="no multinode orchestrator available"):
        render_graph(graph, Profile(provider="component", lws=False))


def test_only_the_frontend_gets_a_service_without_kubernetes_discovery() -> None:
    graph = dgd(component("f", "frontend"), component("w", "worker"), component("p", "planner"))
    assert [s["metadata"]["name"] for s in objects(graph, COMPONENT, "Service")] == ["g-f"]
    k8s = Profile(provider="component", kubernetes_discovery=True)
    services = objects(graph, k8s, "Service")
    assert len(services) == 3
    ports = {s["metadata"]["name"]: s["spec"]["ports"][0]["port"] for s in services}
    assert ports["g-f"] == 8000 and ports["g-p"] == 9090


def test_operator_injected_parts_are_listed_never_guessed() -> None:
    graph = dgd(
        component("w", "worker", sharedMemorySize="0", compilationCache={"pvcName": "cache"})
    )
    (deployment,) = objects(graph, COMPONENT, "Deployment")
    hidden = deployment["metadata"]["annotations"][NOT_SHOWN_ANNOTATION]
    assert "probes" in hidden and "backend-specific flags and env (vllm)" in hidden
    assert "compilation cache" in hidden and "/dev/shm" not in hidden
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert set(container) == {"name", "image", "command"}


def test_backend_conflicts_fail_like_the_operator() -> None:
    worker = component("w", "worker")
    with pytest.raises(
        RenderError,
        match='backend framework mismatch: detected "vllm" from command but explicitly configured as "trtllm"',
    ):
        render_graph(dgd(worker, backendFramework="trtllm"), COMPONENT)
    other = component("x", "worker")
    other["podTemplate"]["spec"]["containers"][0]["command"] = ["python3", "-m", "dynamo.sglang"]
    with pytest.raises(
        RenderError,
        match="multiple backend frameworks detected for generated DynamoComponentDeployments: sglang and vllm",
    ):
        render_graph(dgd(worker, other), COMPONENT)


# ---- grove ----------------------------------------------------------------------------------------


def pcs(obj: dict[str, Any]) -> dict[str, Any]:
    (found,) = objects(obj, GROVE, "PodCliqueSet")
    return found


def test_grove_pcs_carries_graph_labels_annotations_and_priority() -> None:
    graph = dgd(
        component("f", "frontend"),
        labels={"team": "a"},
        annotations={"note": "x"},
        priorityClassName="high",
    )
    found = pcs(graph)
    assert found["metadata"]["labels"] == {
        "nvidia.com/dynamo-graph-deployment-name": "g",
        "team": "a",
    }
    assert found["metadata"]["annotations"]["note"] == "x"
    assert found["spec"]["replicas"] == 1
    assert found["spec"]["template"]["priorityClassName"] == "high"
    assert found["spec"]["template"]["headlessServiceConfig"] == {"publishNotReadyAddresses": True}


def test_grove_single_node_components_are_cliques_with_default_min_available() -> None:
    (clique,) = pcs(dgd(component("Frontend", "frontend", replicas=3)))["spec"]["template"][
        "cliques"
    ]
    assert clique["name"] == "frontend"
    assert (clique["spec"]["replicas"], clique["spec"]["minAvailable"]) == (3, 1)
    assert clique["labels"]["nvidia.com/selector"] == "g-frontend"
    assert clique["labels"]["nvidia.com/metrics-enabled"] == "true"


def test_grove_metrics_label_is_dropped_when_metrics_are_disabled() -> None:
    graph = dgd(component("f", "frontend"))
    graph["metadata"]["annotations"] = {"nvidia.com/enable-metrics": "false"}
    (clique,) = pcs(graph)["spec"]["template"]["cliques"]
    assert "nvidia.com/metrics-enabled" not in clique["labels"]


@pytest.mark.parametrize(
    ("backend", "leader_after", "worker_after"),
    # The operator orders cliques only for TRT-LLM (applyCliqueStartupDependencies).
    [("vllm", None, None), ("sglang", None, None), ("trtllm", ["w-wkr"], None)],
)
def test_grove_multinode_makes_a_scaling_group_with_startup_order(
    backend: str, leader_after: list[str] | None, worker_after: list[str] | None
) -> None:
    worker = component("W", "worker", replicas=2, multinode={"nodeCount": 4})
    worker["podTemplate"]["spec"]["containers"][0]["command"] = [
        "python3",
        "-m",
        f"dynamo.{backend}",
    ]
    template = pcs(dgd(worker))["spec"]["template"]
    leader, wkr = template["cliques"]
    assert (leader["name"], leader["spec"]["replicas"], wkr["name"], wkr["spec"]["replicas"]) == (
        "w-ldr",
        1,
        "w-wkr",
        3,
    )
    assert leader["spec"].get("startsAfter") == leader_after
    assert wkr["spec"].get("startsAfter") == worker_after
    # Grove's JSON key and enum values: cliqueStartupType, CliqueStartupType*.
    assert template["cliqueStartupType"] == (
        "CliqueStartupTypeExplicit" if leader_after else "CliqueStartupTypeAnyOrder"
    )
    assert template["podCliqueScalingGroups"] == [
        {"name": "w", "cliqueNames": ["w-ldr", "w-wkr"], "replicas": 2, "minAvailable": 1}
    ]


def test_grove_force_scaling_group_wraps_a_single_clique() -> None:
    worker = component(
        "w", "worker", replicas=2, experimental={"grove": {"forceScalingGroup": True}}
    )
    template = pcs(dgd(worker))["spec"]["template"]
    assert [c["name"] for c in template["cliques"]] == ["w"]
    assert template["podCliqueScalingGroups"][0]["cliqueNames"] == ["w"]
    assert template["cliqueStartupType"] == "CliqueStartupTypeAnyOrder"


def test_grove_topology_inheritance() -> None:
    frontend = component("f", "frontend")
    worker = component("w", "worker", topologyConstraint={"packDomain": "rack"})
    packed = pcs(
        dgd(frontend, worker, topologyConstraint={"clusterTopologyName": "t", "packDomain": "zone"})
    )
    template = packed["spec"]["template"]
    assert template["topologyConstraint"] == {"topologyName": "t", "packDomain": "zone"}
    cliques = {c["name"]: c for c in template["cliques"]}
    assert "topologyConstraint" not in cliques["f"]  # inherits zone through Grove
    assert cliques["w"]["topologyConstraint"] == {"packDomain": "rack"}

    unpacked = pcs(dgd(frontend, worker, topologyConstraint={"clusterTopologyName": "t"}))["spec"][
        "template"
    ]
    assert "topologyConstraint" not in unpacked
    assert {c["name"]: c.get("topologyConstraint") for c in unpacked["cliques"]} == {
        "f": None,
        "w": {"topologyName": "t", "packDomain": "rack"},
    }


def test_grove_provider_overrides_are_applied() -> None:
    worker = component(
        "w",
        "worker",
        providerOverride={
            "apiVersion": "grove.io/v1alpha1",
            "value": {"topologyConstraint": {"packDomain": "host"}},
        },
    )
    graph = dgd(
        worker,
        providerOverride={
            "apiVersion": "grove.io/v1alpha1",
            "value": {"spec": {"template": {"topologyConstraint": {"packDomain": "zone"}}}},
        },
    )
    template = pcs(graph)["spec"]["template"]
    assert template["topologyConstraint"] == {"packDomain": "zone"}
    assert template["cliques"][0]["topologyConstraint"] == {"packDomain": "host"}


def test_grove_update_strategy_comes_from_the_annotation() -> None:
    graph = dgd(component("f", "frontend"))
    graph["metadata"]["annotations"] = {"nvidia.com/grove-update-strategy": "OnDelete"}
    assert pcs(graph)["spec"]["updateStrategy"] == {"type": "OnDelete"}


def test_grove_services_are_named_after_graph_and_component() -> None:
    services = objects(dgd(component("Front.End", "frontend")), GROVE, "Service")
    assert [s["metadata"]["name"] for s in services] == ["g-front-end"]


def test_the_provider_is_decided_like_the_mutating_webhook() -> None:
    graph = dgd(component("f", "frontend"))
    assert objects(graph, Profile(), "PodCliqueSet")
    graph["metadata"]["annotations"] = {"nvidia.com/enable-grove": "False"}
    assert not objects(graph, Profile(), "PodCliqueSet")
    assert objects(
        dgd(component("f", "frontend")), Profile(grove=False), "DynamoComponentDeployment"
    )


def test_a_saved_object_keeps_its_stored_provider() -> None:
    graph = dgd(component("f", "frontend"))
    graph["metadata"].update(uid="u-1", annotations={"nvidia.com/workload-provider": "component"})
    assert objects(graph, Profile(), "DynamoComponentDeployment")


# ---- both -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", [COMPONENT, GROVE], ids=["component", "grove"])
def test_scaling_adapters_seed_replicas_from_the_component(profile: Profile) -> None:
    graph = dgd(
        component("Decode", "decode", replicas=4, scalingAdapter={}), component("f", "frontend")
    )
    (adapter,) = objects(graph, profile, "DynamoGraphDeploymentScalingAdapter")
    assert adapter["metadata"]["name"] == "g-decode"
    assert adapter["spec"] == {"replicas": 4, "dgdRef": {"name": "g", "componentName": "Decode"}}
    assert adapter["metadata"]["labels"] == {
        "nvidia.com/dynamo-component": "Decode",
        "nvidia.com/dynamo-graph-deployment-name": "g",
    }


def test_model_refs_share_one_headless_service_per_model() -> None:
    ref = {"name": "Qwen/Qwen3-0.6B"}
    graph = dgd(component("a", "prefill", modelRef=ref), component("b", "decode", modelRef=ref))
    services = [
        s
        for s in objects(graph, COMPONENT, "Service")
        if s["metadata"]["name"].startswith("dynamo-model-")
    ]
    assert len(services) == 1 and services[0]["spec"] == {"clusterIP": "None"}


def test_gms_components_get_a_claim_template_of_their_device_class() -> None:
    graph = dgd(
        component(
            "w", "worker", experimental={"gpuMemoryService": {"deviceClassName": "gpu.example.com"}}
        )
    )
    (claim,) = objects(graph, COMPONENT, "ResourceClaimTemplate")
    assert claim["metadata"]["name"] == "g-w-gpu"
    assert claim["spec"]["spec"]["devices"]["requests"] == [
        {"name": "gpus", "exactly": {"deviceClassName": "gpu.example.com"}}
    ]


@pytest.mark.parametrize("bad", [{"a": "b"}, ["x"], 3])
def test_a_non_string_component_name_or_type_is_an_input_error(bad: Any) -> None:
    from kubectl_dgd.errors import InputError

    for key in ("name", "type"):
        graph = dgd(component("f", "frontend"))
        graph["spec"]["components"][0][key] = bad
        with pytest.raises(InputError, match=rf"spec.components\[0\].{key}: expected a string"):
            render_graph(graph, COMPONENT)


# ---- component path: what the graph controller and the DCD controller each write ----------------


def test_dcd_labels_are_the_components_own_plus_identity_and_generation() -> None:
    """generateSingleDCD: graph labels and the type label are not on the DCD object."""
    worker = component("W", "worker", podTemplate={"metadata": {"labels": {"tier": "mine"}}})
    graph = dgd(worker, component("e", "epp"), labels={"team": "graph"})
    dcd = dcd_of(graph, "W")
    hashed = dcd["metadata"]["labels"]["nvidia.com/dynamo-worker-hash"]
    assert dcd["metadata"]["labels"] == {
        "nvidia.com/dynamo-component": "W",
        "nvidia.com/dynamo-component-class": "worker",
        "nvidia.com/dynamo-graph-deployment-name": "g",
        "nvidia.com/dynamo-namespace": "ns-g",
        "nvidia.com/dynamo-worker-hash": hashed,
        "tier": "mine",
    }
    # The DCD's template: the component's labels over the graph's, plus the generation labels.
    assert dcd["spec"]["podTemplate"]["metadata"]["labels"] == {
        "nvidia.com/dynamo-component-class": "worker",
        "nvidia.com/dynamo-worker-hash": hashed,
        "team": "graph",
        "tier": "mine",
    }


def test_component_path_pods_carry_the_metrics_label_unless_disabled_exactly() -> None:
    graph = dgd(component("f", "frontend"))
    assert pod(graph, "f")["metadata"]["labels"]["nvidia.com/metrics-enabled"] == "true"
    graph["metadata"]["annotations"] = {"nvidia.com/enable-metrics": "false"}
    assert "nvidia.com/metrics-enabled" not in pod(graph, "f")["metadata"]["labels"]
    # A component's own annotation wins over the graph's.
    graph["spec"]["components"][0]["podTemplate"]["metadata"] = {
        "annotations": {"nvidia.com/enable-metrics": "true"}
    }
    assert pod(graph, "f")["metadata"]["labels"]["nvidia.com/metrics-enabled"] == "true"


def test_grove_metrics_label_is_off_only_for_exactly_false() -> None:
    graph = dgd(component("f", "frontend"))
    graph["metadata"]["annotations"] = {"nvidia.com/enable-metrics": "False"}
    clique = pcs(graph)["spec"]["template"]["cliques"][0]
    assert clique["labels"]["nvidia.com/metrics-enabled"] == "true"


def test_component_service_carries_the_dcd_labels_and_the_epp_port_is_named_grpc() -> None:
    graph = dgd(component("e", "epp"), labels={"team": "graph"})
    graph["metadata"]["annotations"] = {"nvidia.com/dynamo-discovery-backend": "kubernetes"}
    service = next(s for s in objects(graph, COMPONENT, "Service"))
    assert service["spec"]["ports"] == [
        {
            "name": "grpc",
            "port": 9002,
            "targetPort": 9002,
            "protocol": "TCP",
            "appProtocol": "http2",
        }
    ]
    assert service["metadata"]["labels"]["team"] == "graph"
    assert service["metadata"]["labels"]["nvidia.com/dynamo-component"] == "e"


def test_lws_worker_pods_carry_no_selector_label() -> None:
    worker = component("W", "worker", multinode={"nodeCount": 2})
    lws = objects(dgd(worker), Profile(provider="component", lws=True), "LeaderWorkerSet")[0]
    templates = lws["spec"]["leaderWorkerTemplate"]
    assert templates["leaderTemplate"]["metadata"]["labels"]["nvidia.com/selector"] == lws[
        "metadata"
    ]["name"].removesuffix("-0")
    assert "nvidia.com/selector" not in templates["workerTemplate"]["metadata"]["labels"]
