"""Render is deterministic: the same graph always gives the same bytes (hypothesis)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import render_graph
from kubectl_dgd.output.render import render_json, render_yaml

_names = st.from_regex(r"[A-Za-z][a-z0-9]{0,10}", fullmatch=True)
_env = st.lists(
    st.builds(
        lambda n, v: {"name": n, "value": v},
        st.from_regex(r"[A-Z]{1,4}", fullmatch=True),
        st.text(max_size=5),
    ),
    max_size=4,
)
_labels = st.dictionaries(
    st.from_regex(r"[a-z]{1,6}", fullmatch=True),
    st.from_regex(r"[a-z0-9]{0,6}", fullmatch=True),
    max_size=3,
)


@st.composite
def components(draw: st.DrawFn) -> list[dict[str, Any]]:
    names = draw(st.lists(_names, min_size=1, max_size=5, unique_by=str.lower))
    result = []
    for name in names:
        type_ = draw(
            st.sampled_from(["frontend", "worker", "prefill", "decode", "planner", "epp", None])
        )
        main: dict[str, Any] = {
            "name": "main",
            "image": draw(st.sampled_from(["img:1.4.0", "img:1.5.0", "img:latest"])),
            "env": draw(_env),
        }
        if type_ in ("worker", "prefill", "decode"):
            main["command"] = ["python3", "-m", "dynamo.vllm"]
        item: dict[str, Any] = {
            "name": name,
            "podTemplate": {"metadata": {"labels": draw(_labels)}, "spec": {"containers": [main]}},
        }
        if type_:
            item["type"] = type_
        if type_ in ("worker", "decode") and draw(st.booleans()):
            item["multinode"] = {"nodeCount": draw(st.integers(2, 4))}
        if draw(st.booleans()):
            item["scalingAdapter"] = {}
        if draw(st.booleans()):
            item["replicas"] = draw(st.integers(0, 5))
        result.append(item)
    return result


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "components": draw(components()),
        "env": draw(_env),
        "labels": draw(_labels),
    }
    if draw(st.booleans()):
        spec["restart"] = {"id": draw(_names)}
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": draw(st.from_regex(r"[a-z][a-z0-9-]{0,50}[a-z0-9]", fullmatch=True)),
            "namespace": "ns",
        },
        "spec": spec,
    }


_profiles = st.builds(
    Profile, provider=st.sampled_from(["grove", "component"]), kubernetes_discovery=st.booleans()
)


@settings(max_examples=150, deadline=None)
@given(graphs(), _profiles)
def test_property_render_gives_the_same_bytes_every_time(
    graph: dict[str, Any], profile: Profile
) -> None:
    first = render_graph(copy.deepcopy(graph), profile)
    second = render_graph(copy.deepcopy(graph), profile)
    assert render_yaml(first) == render_yaml(second)
    assert render_json(first) == render_json(second)


@settings(max_examples=100, deadline=None)
@given(graphs())
def test_property_component_path_output_does_not_depend_on_component_or_env_order(
    graph: dict[str, Any],
) -> None:
    shuffled = copy.deepcopy(graph)
    shuffled["spec"]["components"].reverse()
    if shuffled["spec"]["env"]:
        names = [e["name"] for e in shuffled["spec"]["env"]]
        if len(set(names)) == len(
            names
        ):  # with duplicates the later entry wins, as in the operator
            shuffled["spec"]["env"].reverse()
    profile = Profile(provider="component")
    assert render_yaml(render_graph(graph, profile)) == render_yaml(render_graph(shuffled, profile))
