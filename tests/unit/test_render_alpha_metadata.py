"""v1alpha1 service labels/annotations in render and the worker hash, as the operator reads them.

The operator keeps a service's ``labels``/``annotations`` in its conversion record, not in the
v1beta1 component, and reads them back for the workload pods (GetDCDKubeLabels,
GetDCDKubeAnnotations, Grove's generatePodMetadata): under the pod template's own, which win.
The worker hash therefore sees them in its ``labels``/``annotations`` fields but not in the
hashed DCD spec, whose pod template is the component's own.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.convert import alpha_to_beta
from kubectl_dgd.core.convert.alpha import preserved_pod_metadata
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import render_graph
from kubectl_dgd.core.render.context import graph_context
from kubectl_dgd.core.render.worker_hash import hash_input, worker_hash

SERVICE = {
    "componentType": "worker",
    "labels": {"team": "infra", "shared": "service"},
    "annotations": {"note": "from-service", "clash": "service"},
    "extraPodMetadata": {"labels": {"shared": "pod"}, "annotations": {"clash": "pod"}},
    "extraPodSpec": {"mainContainer": {"image": "img:1.0.0"}},
}


def alpha_graph() -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "g", "namespace": "ns"},
        "spec": {"backendFramework": "vllm", "services": {"w": dict(SERVICE)}},
    }


def by_kind(objects: list[Any], kind: str) -> dict[str, Any]:
    return next(o.obj for o in objects if o.obj["kind"] == kind)


def component_path_graph(obj: dict[str, Any]) -> Any:
    graph = graph_context(alpha_to_beta(obj).obj, Profile(grove=False))
    graph.alpha_metadata = preserved_pod_metadata(obj)
    return graph


def test_the_dcd_template_keeps_only_its_own_metadata_and_the_pods_get_the_service_s() -> None:
    objects = render_graph(alpha_graph(), Profile(grove=False))
    dcd = by_kind(objects, "DynamoComponentDeployment")
    template_meta = dcd["spec"]["podTemplate"]["metadata"]
    assert "team" not in template_meta.get("labels", {})
    assert "note" not in template_meta.get("annotations", {})
    pod_meta = by_kind(objects, "Deployment")["spec"]["template"]["metadata"]
    assert pod_meta["labels"]["team"] == "infra"
    assert pod_meta["labels"]["shared"] == "pod"  # the pod template wins
    assert pod_meta["annotations"]["note"] == "from-service"
    assert pod_meta["annotations"]["clash"] == "pod"


def test_the_worker_hash_sees_the_service_metadata_outside_the_hashed_spec() -> None:
    entry = hash_input(component_path_graph(alpha_graph()))["w"]
    assert entry["labels"]["team"] == "infra" and entry["labels"]["shared"] == "pod"
    assert entry["annotations"]["note"] == "from-service"
    assert entry["annotations"]["clash"] == "pod"
    spec_meta = entry["spec"]["podTemplate"]["metadata"]
    assert "team" not in spec_meta.get("labels", {})
    assert "note" not in spec_meta.get("annotations", {})


def test_a_service_label_changes_the_worker_hash_and_the_worker_dcd_name() -> None:
    plain = alpha_graph()
    labelled = alpha_graph()
    labelled["spec"]["services"]["w"]["labels"] = {"team": "other", "shared": "service"}
    first = worker_hash(component_path_graph(plain))
    second = worker_hash(component_path_graph(labelled))
    assert first is not None and second is not None and first != second
    names = {
        o.obj["metadata"]["name"]
        for o in render_graph(labelled, Profile(grove=False))
        if o.obj["kind"] == "DynamoComponentDeployment"
    }
    assert names == {f"g-w-{second}"}


def test_grove_cliques_carry_the_service_metadata_under_the_template_s() -> None:
    pcs = by_kind(render_graph(alpha_graph(), Profile()), "PodCliqueSet")
    clique = next(c for c in pcs["spec"]["template"]["cliques"] if c["name"] == "w")
    assert clique["labels"]["team"] == "infra" and clique["labels"]["shared"] == "pod"
    assert clique["annotations"]["note"] == "from-service"
    assert clique["annotations"]["clash"] == "pod"
