"""Render names and labels things as the operator does."""

from __future__ import annotations

import json
from typing import Any

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import render_graph
from kubectl_dgd.core.render.context import graph_context
from kubectl_dgd.core.render.worker_hash import hash_bytes, worker_hash
from tests.unit.test_render_children import component, dgd

GROVE = Profile(provider="grove")
COMPONENT = Profile(provider="component")


def pcs_template(obj: dict[str, Any], profile: Profile = GROVE) -> dict[str, Any]:
    pcs = next(o.obj for o in render_graph(obj, profile) if o.kind == "PodCliqueSet")
    return pcs["spec"]["template"]  # type: ignore[no-any-return]


def gms_worker(**extra: Any) -> dict[str, Any]:
    worker = component("worker", "worker", **extra)
    worker["experimental"] = {"gpuMemoryService": {"mode": "InterPod"}}
    return worker


def test_inter_pod_gms_is_a_scaling_group_with_the_gms_clique_first() -> None:
    template = pcs_template(dgd(gms_worker(replicas=2), backendFramework="vllm"))
    assert [c["name"] for c in template["cliques"]] == ["worker-gms-0", "worker"]
    gms, engine = template["cliques"]
    assert (gms["spec"]["replicas"], engine["spec"]["replicas"]) == (1, 1)
    assert engine["spec"]["startsAfter"] == ["worker-gms-0"]
    assert "podSpec" not in gms["spec"]  # operator-generated, named in the not-shown note
    group = template["podCliqueScalingGroups"][0]
    assert (group["name"], group["cliqueNames"], group["replicas"]) == (
        "worker",
        ["worker-gms-0", "worker"],
        2,
    )
    assert template["cliqueStartupType"] == "CliqueStartupTypeExplicit"


def test_inter_pod_gms_failover_shadows_add_engine_pods_and_multinode_ranks_get_their_own() -> None:
    worker = gms_worker(multinode={"nodeCount": 3})
    worker["experimental"]["failover"] = {"mode": "InterPod", "numShadows": 1}
    template = pcs_template(dgd(worker, backendFramework="vllm"))
    assert [c["name"] for c in template["cliques"]] == [
        "worker-gms-0",
        "worker-ldr",
        "worker-gms-1",
        "worker-wkr-1",
        "worker-gms-2",
        "worker-wkr-2",
    ]
    assert [c["spec"]["replicas"] for c in template["cliques"]] == [1, 2, 1, 2, 1, 2]


def test_prefill_and_decode_pods_carry_the_sub_component_type() -> None:
    obj = dgd(component("p", "prefill"), component("d", "decode"), component("w", "worker"))
    labels = {c["name"]: c["labels"] for c in pcs_template(obj)["cliques"]}
    key = "nvidia.com/dynamo-sub-component-type"
    assert (labels["p"].get(key), labels["d"].get(key), labels["w"].get(key)) == (
        "prefill",
        "decode",
        None,
    )
    deployments = {
        o.obj["metadata"]["name"]: o.obj
        for o in render_graph(obj, COMPONENT)
        if o.kind == "Deployment"
    }
    decode = next(d for name, d in deployments.items() if name.startswith("g-d-"))
    assert decode["spec"]["template"]["metadata"]["labels"][key] == "decode"


def test_grove_worker_cliques_carry_the_worker_hash_from_1_5() -> None:
    obj = dgd(component("w", "worker"))
    key = "nvidia.com/dynamo-worker-hash"
    newest = pcs_template(obj)["cliques"][0]["labels"]
    older = pcs_template(obj, Profile(provider="grove", operator_version="1.4"))["cliques"][0]
    assert key in newest and key not in older["labels"]


def test_the_hash_depends_on_the_creating_operator_version() -> None:
    plain = dgd(component("w", "worker"))
    stamped = dgd(component("w", "worker"))
    stamped["metadata"]["annotations"] = {"nvidia.com/dynamo-operator-origin-version": "1.4.0"}
    assert worker_hash(graph_context(plain, GROVE)) != worker_hash(graph_context(stamped, GROVE))
    data = json.loads(hash_bytes(graph_context(stamped, GROVE))[0])
    assert "nvidia.com/dynamo-operator-origin-version" not in data["w"].get("annotations", {})
    pod_notes = data["w"]["spec"]["podTemplate"]["metadata"]["annotations"]
    assert pod_notes["nvidia.com/dynamo-operator-origin-version"] == "1.4.0"


def test_hash_bytes_follow_go_field_order_per_release() -> None:
    worker = component("w", "worker", runtimeVersionOverride="1.5.0")
    graph = dgd(worker, backendFramework="vllm")
    newest, _ = hash_bytes(graph_context(graph, GROVE))
    assert newest.index('"labels"') < newest.index('"runtimeVersion"') < newest.index('"spec"')
    spec = newest[newest.index('"spec"') :]
    assert spec.index('"backendFramework"') < spec.index('"name"') < spec.index('"podTemplate"')
    old, _ = hash_bytes(graph_context(graph, Profile(provider="grove", operator_version="1.3")))
    assert '"runtimeVersion"' not in old  # 1.3 hashed labels, annotations and spec only
