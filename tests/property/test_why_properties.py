"""``why``'s diagnosis over pods, nodes and Events of any shape (bounded: FUZZ_EXAMPLES).

The promises under test: ``diagnose`` returns a report whatever JSON the API server sends (it
never raises), every finding's reason is one of the documented set, and the report's data is
JSON; ``node_gpu_usage`` never reports negative free GPUs; the ``gpus`` view and its text, and
a restart's GPU peak and its placement on the nodes, never raise either.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.core.node_gpus import node_gpu_usage
from kubectl_dgd.core.why import REASONS, WhyInput, diagnose
from tests.cluster.conftest import graph

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# The words pods are made of, so that random shapes often reach the interesting branches.
_WORDS = [
    "Pending", "Running", "Failed", "PodScheduled", "False", "True", "Ready", "main",
    "CrashLoopBackOff", "ImagePullBackOff", "CreateContainerConfigError", "OOMKilled",
    'secret "s" not found', "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
    "pod has unbound immediate PersistentVolumeClaims", "nvidia.com/gpu", "2", "-1", "x",
]  # fmt: skip
_KEYS = [
    "status", "spec", "metadata", "phase", "conditions", "type", "message", "reason",
    "containerStatuses", "state", "waiting", "lastState", "terminated", "exitCode", "name",
    "containers", "resources", "limits", "nodeName", "labels", "volumes", "env", "valueFrom",
    "secretKeyRef", "restartCount", "allocatable", "nvidia.com/gpu", "nvidia.com/dynamo-component",
    "replicas", "readyReplicas", "template", "image",
]  # fmt: skip
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(_WORDS),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4)
    ),
    max_leaves=25,
)
objects = st.lists(
    st.dictionaries(st.sampled_from(_KEYS), json_values, max_size=4).map(
        lambda d: {**d, "kind": "Pod"}
    ),
    max_size=4,
)

# Deployments shaped as the operator's, with any values where the counts go.
deployments = st.lists(
    st.fixed_dictionaries(
        {
            "metadata": st.fixed_dictionaries({"name": json_values, "namespace": json_values}),
            "spec": st.fixed_dictionaries({"replicas": json_values}),
            "status": st.fixed_dictionaries({"readyReplicas": json_values}),
        }
    ),
    max_size=2,
)


@FUZZ
@given(objects, objects, objects, deployments, st.booleans())
def test_diagnose_never_raises_and_keeps_to_the_reason_set(
    pods: list[dict[str, Any]],
    nodes: list[dict[str, Any]],
    events: list[dict[str, Any]],
    operators: list[dict[str, Any]],
    behind: bool,
) -> None:
    dgd = graph()
    if behind:  # the operator is then looked at
        dgd["metadata"]["generation"] = 2
    report = diagnose(
        WhyInput(
            graph=dgd,
            objects=pods,
            events=events,
            nodes=nodes,
            node_pods=pods,
            names={"Secret": set(), "ConfigMap": set(), "ServiceAccount": set()},
            pvcs=[],
            operators=operators,
        )
    )
    assert {f.reason for f in report.findings} <= set(REASONS)
    json.dumps(report.to_data())


@FUZZ
@given(objects, objects)
def test_free_gpus_are_never_negative(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]]
) -> None:
    assert all(n.free >= 0 for n in node_gpu_usage(nodes, pods))


@FUZZ
@given(objects, objects, st.sampled_from([None, "dynamo", "other"]))
def test_the_gpus_view_never_raises_and_its_data_is_json(
    nodes: list[dict[str, Any]], pods: list[dict[str, Any]], namespace: str | None
) -> None:
    from kubectl_dgd.core.cluster_gpus import cluster_gpus
    from kubectl_dgd.output.cluster_gpus import draw_cluster_gpus
    from kubectl_dgd.output.printer import Options
    from kubectl_dgd.output.style import PLAIN

    view = cluster_gpus(nodes, pods, namespace)
    json.dumps(view.to_data())
    for wide in (False, True):
        draw_cluster_gpus(view, Options(PLAIN, True, width=80), wide)


component_shapes = st.lists(
    st.dictionaries(
        st.sampled_from([*_KEYS, "multinode", "nodeCount", "podTemplate"]), json_values
    ).map(lambda d: {**d, "name": str(d.get("name"))}),
    max_size=3,
)


@FUZZ
@given(component_shapes, objects, st.booleans(), st.booleans())
def test_a_restarts_peak_and_its_placement_never_raise(
    components: list[dict[str, Any]], nodes: list[dict[str, Any]], parallel: bool, grove: bool
) -> None:
    from kubectl_dgd.core.gpu_peak import restart_needs, shortfalls

    dgd = graph(components=components)
    needs = restart_needs(dgd, parallel, grove)
    assert all(need.extra_gpus >= 0 and need.pod_gpus >= 0 for need in needs)
    for short in shortfalls(needs, node_gpu_usage(nodes, [])):
        assert short.message()
