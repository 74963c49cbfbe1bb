"""v1alpha1-shaped documents of any content: validation returns findings, the conversion and
render never raise anything but their one-line errors, and the path map always answers."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubectl_dgd.core.convert import alpha_to_beta
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderError, render_graph
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import KIND, V1ALPHA1
from tests.property.test_validator_properties import (
    SETTINGS,
    _assert_well_formed,
    _validate,
    profiles,
    trees,
)

SERVICE_KEYS = [
    "componentType", "subComponentType", "serviceName", "replicas", "minAvailable", "envs",
    "envFromSecret", "resources", "volumeMounts", "extraPodSpec", "extraPodMetadata",
    "livenessProbe", "readinessProbe", "sharedMemory", "scalingAdapter", "gpuMemoryService",
    "failover", "checkpoint", "frontendSidecar", "multinode", "eppConfig", "ingress",
    "annotations", "labels", "dynamoNamespace", "autoscaling", "runtimeVersionOverride",
    "topologyConstraint", "providerOverride", "globalDynamoNamespace", "modelRef",
]  # fmt: skip
INNER_KEYS = ["mainContainer", "containers", "image", "name", "env", "limits", "requests", "gpu",
              "gpuType", "cpu", "mountPoint", "useAsCompilationCache", "enabled", "mode", "size",
              "disabled", "nodeCount", "host", "numShadows"]  # fmt: skip

inner = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 3),
        st.sampled_from(["main", "1", "intraPod", "worker", "decode", "x:1.0.0"]),
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(INNER_KEYS), children, max_size=4)
    ),
    max_leaves=20,
)
service = st.dictionaries(st.sampled_from(SERVICE_KEYS), st.one_of(inner, trees), max_size=8)
alpha_graphs = st.fixed_dictionaries(
    {
        "apiVersion": st.just(V1ALPHA1),
        "kind": st.just(KIND),
        "metadata": st.just({"name": "g", "namespace": "ns"}),
        "spec": st.fixed_dictionaries(
            {
                "services": st.dictionaries(
                    st.sampled_from(["a", "B", "c-1", ""]),
                    st.one_of(service, st.none()),
                    max_size=3,
                )
            },
            optional={"pvcs": trees, "envs": trees, "topologyConstraint": trees},
        ),
    }
)


@SETTINGS
@given(obj=alpha_graphs, profile=profiles)
def test_alpha_graphs_validate_convert_and_render_without_raising(
    obj: dict[str, Any], profile: Profile
) -> None:
    _assert_well_formed(_validate(obj, profile))
    conversion = alpha_to_beta(obj)
    for i in range(len(conversion.obj["spec"].get("components") or [])):
        assert conversion.alpha_path(f"spec.components[{i}].podTemplate.spec.containers[0].image")
    with contextlib.suppress(RenderError, InputError):  # render's one-line refusals
        render_graph(obj, profile)
