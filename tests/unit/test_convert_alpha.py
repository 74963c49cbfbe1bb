"""v1alpha1 -> v1beta1 conversion, field by field as the operator's conversion maps them."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.convert import alpha_to_beta


def graph(services: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {**spec, "services": services},
    }


def component(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in result["spec"]["components"] if c["name"] == name)


def test_services_become_components_sorted_by_name_and_input_is_untouched() -> None:
    src = graph({"b": {"componentType": "frontend"}, "B": {}, "a": {"replicas": 2}})
    before = copy.deepcopy(src)
    conv = alpha_to_beta(src)
    assert conv.obj["apiVersion"] == "nvidia.com/v1beta1"
    assert [c["name"] for c in conv.obj["spec"]["components"]] == ["B", "a", "b"]
    assert conv.services == {0: "B", 1: "a", 2: "b"}
    assert component(conv.obj, "a")["replicas"] == 2
    assert src == before


def test_worker_with_prefill_or_decode_subtype_becomes_that_type() -> None:
    conv = alpha_to_beta(
        graph(
            {
                "p": {"componentType": "worker", "subComponentType": "prefill"},
                "d": {"subComponentType": "decode", "componentType": "worker"},
                "w": {"componentType": "worker"},
            }
        )
    )
    assert [c.get("type") for c in conv.obj["spec"]["components"]] == [
        "decode",
        "prefill",
        "worker",
    ]
    assert conv.lossy == []


def test_a_subtype_that_does_not_promote_is_lossy() -> None:
    conv = alpha_to_beta(graph({"x": {"componentType": "frontend", "subComponentType": "decode"}}))
    assert component(conv.obj, "x")["type"] == "frontend"
    assert conv.lossy == [
        "spec.services[x].subComponentType: 'decode' with componentType 'frontend' has no v1beta1 "
        "type (only worker + prefill/decode become type prefill/decode)"
    ]


def test_main_container_is_built_from_dedicated_fields_and_main_container_wins() -> None:
    svc = {
        "envFromSecret": "hf",
        "envs": [{"name": "A", "value": "dedicated"}, {"name": "B", "value": "b"}],
        "resources": {
            "requests": {"cpu": "2", "memory": "8Gi"},
            "limits": {"gpu": "1", "gpuType": "nvidia.com/mig-1g.10gb"},
        },
        "readinessProbe": {"httpGet": {"path": "/ready", "port": 9090}},
        "volumeMounts": [{"name": "models", "mountPoint": "/models"}],
        "extraPodSpec": {
            "nodeSelector": {"pool": "gpu"},
            "containers": [{"name": "main", "image": "dropped"}, {"name": "side", "image": "s:1"}],
            "mainContainer": {
                "image": "img:1.2.3",
                "env": [{"name": "A", "value": "main"}, {"name": "C", "value": "c"}],
                "resources": {"requests": {"cpu": "4"}},
                "volumeMounts": [{"name": "cfg", "mountPath": "/cfg"}],
            },
        },
        "extraPodMetadata": {"labels": {"team": "x"}},
    }
    result = component(alpha_to_beta(graph({"w": svc})).obj, "w")
    template = result["podTemplate"]
    assert template["metadata"] == {"labels": {"team": "x"}}
    assert template["spec"]["nodeSelector"] == {"pool": "gpu"}
    main, side = template["spec"]["containers"]
    assert side == {"name": "side", "image": "s:1"}
    assert main["name"] == "main" and main["image"] == "img:1.2.3"
    # env: dedicated first, a same-named mainContainer entry replaces it in place.
    assert main["env"] == [
        {"name": "A", "value": "main"},
        {"name": "B", "value": "b"},
        {"name": "C", "value": "c"},
    ]
    assert main["envFrom"] == [{"secretRef": {"name": "hf"}}]
    # resource lists merge key by key, mainContainer winning.
    assert main["resources"] == {
        "limits": {"nvidia.com/mig-1g.10gb": "1"},
        "requests": {"cpu": "4", "memory": "8Gi"},
    }
    # volumeMounts: mainContainer's first, then the dedicated ones.
    assert main["volumeMounts"] == [
        {"name": "cfg", "mountPath": "/cfg"},
        {"name": "models", "mountPath": "/models"},
    ]
    assert main["readinessProbe"] == {"httpGet": {"path": "/ready", "port": 9090}}


def test_no_pod_fields_no_pod_template() -> None:
    result = component(alpha_to_beta(graph({"f": {"componentType": "frontend"}})).obj, "f")
    assert result == {"name": "f", "type": "frontend"}


def test_shared_memory_scaling_adapter_and_compilation_cache() -> None:
    services = {
        "off": {
            "sharedMemory": {"disabled": True, "size": "1Gi"},
            "scalingAdapter": {"enabled": False},
        },
        "on": {
            "sharedMemory": {"size": "16Gi"},
            "scalingAdapter": {"enabled": True},
            "volumeMounts": [
                {"name": "cache", "mountPoint": "/cache", "useAsCompilationCache": True}
            ],
        },
    }
    conv = alpha_to_beta(graph(services))
    off, on = component(conv.obj, "off"), component(conv.obj, "on")
    assert off == {"name": "off", "sharedMemorySize": "0"}
    assert on["sharedMemorySize"] == "16Gi"
    assert on["scalingAdapter"] == {}
    assert on["compilationCache"] == {"pvcName": "cache", "mountPath": "/cache"}
    assert "podTemplate" not in on  # a cache mount alone builds no pod template


def test_experimental_blocks_and_gms_mode_names() -> None:
    svc = {
        "gpuMemoryService": {"enabled": True, "mode": "interPod"},
        "failover": {"enabled": True, "mode": "interPod", "numShadows": 1},
        "checkpoint": {"enabled": True, "mode": "Auto"},
    }
    disabled = {"gpuMemoryService": {"enabled": False}, "failover": {"enabled": False}}
    conv = alpha_to_beta(graph({"w": svc, "x": disabled}))
    assert component(conv.obj, "w")["experimental"] == {
        "gpuMemoryService": {"mode": "InterPod"},
        "failover": {"mode": "InterPod", "numShadows": 1},
        "checkpoint": {"enabled": True, "mode": "Auto"},
    }
    assert component(conv.obj, "x") == {"name": "x"}


def test_frontend_sidecar_becomes_a_container_and_its_reference() -> None:
    svc = {
        "frontendSidecar": {"image": "fe:1.0.0", "args": ["--x"], "envFromSecret": "s"},
        "extraPodSpec": {"mainContainer": {"image": "w:1.0.0"}},
    }
    result = component(alpha_to_beta(graph({"w": svc})).obj, "w")
    assert result["frontendSidecar"] == "sidecar-frontend"
    assert result["podTemplate"]["spec"]["containers"][1] == {
        "name": "sidecar-frontend",
        "image": "fe:1.0.0",
        "args": ["--x"],
        "envFrom": [{"secretRef": {"name": "s"}}],
    }


def test_graph_level_renames_and_status() -> None:
    src = graph(
        {"w": {}},
        envs=[{"name": "X", "value": "1"}],
        topologyConstraint={"topologyProfile": "racks", "packDomain": "rack"},
    )
    src["status"] = {
        "state": "successful",
        "services": {"w": {"componentName": "g-w", "replicas": 1}},
        "rollingUpdate": {"phase": "Completed", "updatedServices": ["w"]},
    }
    obj = alpha_to_beta(src).obj
    assert obj["spec"]["env"] == [{"name": "X", "value": "1"}]
    assert obj["spec"]["topologyConstraint"] == {
        "clusterTopologyName": "racks",
        "packDomain": "rack",
    }
    assert obj["status"]["components"] == {"w": {"componentNames": ["g-w"], "replicas": 1}}
    assert obj["status"]["rollingUpdate"] == {"phase": "Completed", "updatedComponents": ["w"]}


def test_fields_without_a_v1beta1_place_are_lossy_ignored_ones_dropped() -> None:
    services = {
        "a": {
            "ingress": {"enabled": True, "host": "h"},
            "labels": {"k": "v"},
            "dynamoNamespace": "ns",
        },
        "b": None,
        "c": {"autoscaling": {"enabled": True}, "serviceName": "other"},
    }
    src = graph(services, pvcs=[{"name": "models"}])
    src["metadata"]["annotations"] = {"nvidia.com/dgd-spec": "{}", "keep": "me"}
    conv = alpha_to_beta(src)
    assert [reason.split(":")[0] for reason in conv.lossy] == [
        "metadata.annotations[nvidia.com/dgd-spec]",
        "spec.pvcs",
        "spec.services[a].ingress",
        "spec.services[a].labels",
    ]
    assert [note.split(":")[0] for note in conv.dropped] == [
        "spec.services[a].dynamoNamespace",
        "spec.services[b]",
        "spec.services[c].autoscaling",
        "spec.services[c].serviceName",
    ]
    assert conv.obj["metadata"]["annotations"] == {"keep": "me"}
    assert [c["name"] for c in conv.obj["spec"]["components"]] == ["a", "c"]


def test_beta_paths_map_back_to_the_alpha_fields() -> None:
    svc = {
        "envs": [{"name": "A", "value": "1"}],
        "extraPodSpec": {"mainContainer": {"image": "i:1", "env": [{"name": "B", "value": "2"}]}},
        "componentType": "worker",
        "subComponentType": "decode",
    }
    conv = alpha_to_beta(graph({"z": {}, "Decode": svc}))
    main = "spec.components[0].podTemplate.spec.containers[0]"
    assert (
        conv.alpha_path(f"{main}.image") == "spec.services.Decode.extraPodSpec.mainContainer.image"
    )
    assert conv.alpha_path(f"{main}.env[0].value") == "spec.services.Decode.envs[0].value"
    assert (
        conv.alpha_path(f"{main}.env[1]")
        == "spec.services.Decode.extraPodSpec.mainContainer.env[0]"
    )
    assert conv.alpha_path("spec.components[0].type") == "spec.services.Decode.subComponentType"
    assert conv.alpha_path("spec.components[1].replicas") == "spec.services.z.replicas"
    assert conv.alpha_path("metadata.annotations[x/y]") == "metadata.annotations[x/y]"


def test_odd_shapes_never_raise() -> None:
    for spec in (
        None,
        [],
        "x",
        {"services": []},
        {"services": {"a": "b"}},
        {"services": {"a": {"extraPodSpec": 3}}},
    ):
        alpha_to_beta(
            {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoGraphDeployment", "spec": spec}
        )


def test_render_reads_preserved_service_labels_and_annotations_under_the_pod_template() -> None:
    from kubectl_dgd.core.convert import for_render
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.core.render import render_graph

    svc = {
        "labels": {"team": "infra", "shared": "service"},
        "annotations": {"note": "from-service"},
        "extraPodMetadata": {"labels": {"shared": "pod"}},
        "extraPodSpec": {"mainContainer": {"image": "img:1.0.0"}},
    }
    obj = graph({"f": svc, "p": {"labels": {"only": "service"}}})
    beta = for_render(obj)
    assert component(beta, "f")["podTemplate"]["metadata"] == {
        "labels": {"team": "infra", "shared": "pod"},
        "annotations": {"note": "from-service"},
    }
    assert component(beta, "p")["podTemplate"] == {"metadata": {"labels": {"only": "service"}}}
    pcs = next(o.obj for o in render_graph(obj, Profile()) if o.obj["kind"] == "PodCliqueSet")
    clique = next(c for c in pcs["spec"]["template"]["cliques"] if c["name"] == "f")
    assert clique["labels"]["team"] == "infra" and clique["labels"]["shared"] == "pod"


def test_render_of_a_v1alpha1_graph_creates_the_pvcs_it_asks_for() -> None:
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.core.render import render_graph

    pvcs = [
        {
            "name": "models",
            "create": True,
            "size": "100Gi",
            "storageClass": "standard",
            "volumeAccessMode": "ReadWriteMany",
        },
        {"name": "existing", "create": False},
    ]
    obj = graph({"f": {"extraPodSpec": {"mainContainer": {"image": "img:1.0.0"}}}}, pvcs=pvcs)
    claims = [o.obj for o in render_graph(obj, Profile()) if o.kind == "PersistentVolumeClaim"]
    assert claims == [
        {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "metadata": {"name": "models", "namespace": "ns"},
            "spec": {
                "accessModes": ["ReadWriteMany"],
                "resources": {"requests": {"storage": "100Gi"}},
                "storageClassName": "standard",
            },
        }
    ]


def test_v1beta1_spec_fields_in_a_v1alpha1_object_are_pruned_not_converted() -> None:
    conv = alpha_to_beta(graph({"w": {}}, components=[{"type": []}], env=[{"name": "A"}]))
    assert [c["name"] for c in conv.obj["spec"]["components"]] == ["w"]
    assert "env" not in conv.obj["spec"]
    assert any(d.startswith("spec.components:") for d in conv.dropped)
