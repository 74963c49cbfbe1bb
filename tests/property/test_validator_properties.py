"""Properties of the validator and the loader over wide input spaces (hypothesis).

- Validation returns findings and never raises, whatever the document holds.
- The loader returns documents or raises our InputError (one line), for any text.
- A valid graph survives a round trip through the loader and the model, and validates alike.
"""

from __future__ import annotations

import copy
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.adapters.yamlload import Document, load_file, load_text
from kubectl_dgd.core.graph import read_graph
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import KIND, V1ALPHA1, V1BETA1
from kubectl_dgd.output.serialize import to_yaml
from kubectl_dgd.usecases.validate import validate_documents
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "manifests" / "examples"
# Modest by default so the suite stays fast; PROPERTY_EXAMPLES=2000 for a deeper search.
EXAMPLE_COUNT = int(os.environ.get("PROPERTY_EXAMPLES", "60"))
SETTINGS = settings(
    max_examples=EXAMPLE_COUNT,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SPEC_KEYS = [
    "components", "backendFramework", "env", "annotations", "labels", "priorityClassName",
    "restart", "topologyConstraint", "providerOverride", "experimental",
]  # fmt: skip
COMPONENT_KEYS = [
    "name", "type", "replicas", "minAvailable", "podTemplate", "multinode", "roles", "lpx",
    "providerOverride", "sharedMemorySize", "modelRef", "scalingAdapter", "eppConfig",
    "frontendSidecar", "compilationCache", "topologyConstraint", "experimental",
    "runtimeVersionOverride", "globalDynamoNamespace",
]  # fmt: skip
OTHER_KEYS = [
    "spec", "containers", "initContainers", "image", "command", "args", "resources", "limits",
    "requests", "nvidia.com/gpu", "metadata", "annotations", "nodeCount", "id", "strategy",
    "type", "order", "packDomain", "clusterTopologyName", "apiVersion", "target", "value",
    "kvTransferPolicy", "gpuMemoryService", "failover", "checkpoint", "grove", "mode", "env",
    "nvidia.com/workload-provider", "nvidia.com/enable-grove", "status", "rollingUpdate",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["main", "worker", "lpx", "grove", "Parallel", "1.4.0", "img:1.4.0", ""]),
)
# Keys are strings: the loader turns YAML's other scalar keys into strings as kubectl does
# (and refuses null keys), so validation never sees anything else.
keys = st.one_of(
    st.sampled_from(SPEC_KEYS + COMPONENT_KEYS + OTHER_KEYS),
    st.text(max_size=8),
)
trees = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


def _dgd_shaped() -> st.SearchStrategy[dict[str, Any]]:
    component = st.dictionaries(st.sampled_from(COMPONENT_KEYS), trees, max_size=7)
    spec = st.fixed_dictionaries(
        {"components": st.one_of(st.lists(component, max_size=4), trees)},
        optional={key: trees for key in SPEC_KEYS[1:]},
    )
    return st.fixed_dictionaries(
        {
            "apiVersion": st.sampled_from([V1BETA1, V1BETA1, V1ALPHA1]),
            "kind": st.just(KIND),
            "metadata": st.one_of(
                st.fixed_dictionaries(
                    {"name": st.text(max_size=70)}, optional={"annotations": trees}
                ),
                trees,
            ),
            "spec": st.one_of(spec, trees),
        },
        optional={"status": trees},
    )


profiles = st.builds(
    Profile,
    provider=st.sampled_from([None, "grove", "component"]),
    grove=st.booleans(),
    lpx=st.booleans(),
    checkpoint=st.booleans(),
    strict=st.booleans(),
)


@cache
def _example_graphs() -> tuple[dict[str, Any], ...]:
    graphs: list[dict[str, Any]] = []
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        graphs.extend(doc.data for doc in load_file(str(path)) if isinstance(doc.data, dict))
    return tuple(graphs)


def _validate(data: Any, profile: Profile, old: dict[str, Any] | None = None) -> ValidationReport:
    doc = Document("property.yaml", 0, 1, data, {"": 1})
    return validate_documents([doc], bundled_schemas(), profile, old=old)


def _assert_well_formed(report: ValidationReport) -> None:
    for item in report.items:
        for finding in item.findings:
            assert finding.severity in ("error", "warning", "info")
            assert finding.layer in ("input", "schema", "cel", "webhook", "lint")
            assert isinstance(finding.path, str)
            assert isinstance(finding.message, str)
            assert finding.message
            assert "\n" not in finding.message, finding
            assert finding.line is None or finding.line >= 1
    json.dumps(report.to_dict())  # the JSON output can always be written


@SETTINGS
@given(data=trees, profile=profiles)
def test_validator_never_raises_on_any_tree(data: Any, profile: Profile) -> None:
    _assert_well_formed(_validate(data, profile))


@SETTINGS
@given(data=_dgd_shaped(), profile=profiles)
@example(
    data={"apiVersion": V1BETA1, "kind": KIND, "metadata": {"name": ""}, "spec": {"\n": None}},
    profile=Profile(),
)
def test_validator_never_raises_on_dgd_shaped_documents(data: Any, profile: Profile) -> None:
    report = _validate(data, profile)
    _assert_well_formed(report)
    assert report.summary.graphs == 1


@SETTINGS
@given(new=_dgd_shaped(), old=_dgd_shaped(), profile=profiles)
def test_update_validation_never_raises_on_dgd_shaped_pairs(
    new: dict[str, Any], old: dict[str, Any], profile: Profile
) -> None:
    _assert_well_formed(_validate(new, profile, old=old))


def _locations(value: Any, keys: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [keys]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_locations(item, (*keys, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.extend(_locations(item, (*keys, i)))
    return found


def _mutate(graph: Any, where: tuple[Any, ...], operation: str, replacement: Any) -> Any:
    if not where:
        return replacement if operation == "replace" else graph
    parent = graph
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    if operation == "delete":
        del parent[last]
    elif operation == "replace":
        parent[last] = replacement
    elif operation == "wrap":
        parent[last] = [parent[last]]
    elif operation == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif operation == "null":
        parent[last] = None
    return graph


@SETTINGS
@given(data=st.data(), profile=profiles, as_update=st.booleans())
def test_validator_never_raises_on_mutated_valid_graphs(
    data: st.DataObject, profile: Profile, as_update: bool
) -> None:
    original = data.draw(st.sampled_from(_example_graphs()))
    graph = copy.deepcopy(original)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(_locations(graph)))
        operation = data.draw(st.sampled_from(["delete", "replace", "wrap", "duplicate", "null"]))
        graph = _mutate(graph, where, operation, data.draw(trees))
    report = _validate(graph, profile, old=copy.deepcopy(original) if as_update else None)
    _assert_well_formed(report)


def _keys_are_strings(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _keys_are_strings(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_keys_are_strings(v) for v in value)
    return True


YAML_PIECES = [
    "a", "b", ": ", ":", " ", "  ", "\n", "- ", "-", "[", "]", "{", "}", ", ", "&x ", "*x",
    "!!int ", "!!str ", "!!binary ", "!x ", "'", '"', "# c", "|\n", ">-\n", "\t", "? ", "---\n",
    "...\n", "<<: ", "%YAML 1.2\n", "1", "0x1F", "1e3", "null", "~", "yes", ".inf", "\\",
    "\ufeff", "\r\n", "apiVersion: nvidia.com/v1beta1\n", "kind: DynamoGraphDeployment\n",
]  # fmt: skip
yamlish_text = st.lists(st.sampled_from(YAML_PIECES), max_size=40).map("".join)
any_text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=200)


@SETTINGS
@given(text=st.one_of(yamlish_text, any_text))
def test_loader_returns_documents_or_one_line_input_error(text: str) -> None:
    try:
        docs = load_text(text, "fuzz.yaml")
    except InputError as err:
        assert str(err).startswith("fuzz.yaml")
        assert "\n" not in str(err)
        return
    for doc in docs:
        assert _keys_are_strings(doc.data)
        assert doc.source == "fuzz.yaml"
        assert doc.line >= 1
        assert all(line >= 1 for line in doc.lines.values())
    _assert_well_formed(
        validate_documents(docs, bundled_schemas(), Profile(), report=ValidationReport())
    )


# --- round trip of valid graphs ------------------------------------------------------------

component_names = st.from_regex(r"\A[A-Za-z][a-z0-9]{0,12}\Z")
semver_tags = st.tuples(st.integers(1, 2), st.integers(0, 9), st.integers(0, 9)).map(
    lambda v: f"{v[0]}.{v[1]}.{v[2]}"
)


@st.composite
def valid_graphs(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(component_names, min_size=1, max_size=5, unique_by=str.lower))
    tag = draw(semver_tags)
    components = []
    for name in names:
        kind = draw(st.sampled_from(["frontend", "worker", "prefill", "decode", "planner"]))
        container: dict[str, Any] = {
            "name": "main",
            "image": f"nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}",
        }
        if kind in ("worker", "prefill", "decode"):
            gpus = draw(st.integers(1, 8))
            container["resources"] = {"limits": {"nvidia.com/gpu": str(gpus)}}
        component: dict[str, Any] = {"name": name, "type": kind}
        if draw(st.booleans()):
            component["replicas"] = draw(st.integers(0, 4))
        if draw(st.booleans()):
            container["env"] = [
                {"name": "DYN_LOG", "value": draw(st.sampled_from(["info", "debug"]))}
            ]
        component["podTemplate"] = {"spec": {"containers": [container]}}
        components.append(component)
    graph: dict[str, Any] = {
        "apiVersion": V1BETA1,
        "kind": KIND,
        "metadata": {"name": draw(st.from_regex(r"\A[a-z][a-z0-9-]{0,20}[a-z0-9]\Z"))},
        "spec": {"components": components},
    }
    if draw(st.booleans()):
        graph["metadata"]["namespace"] = "dynamo"
    return graph


def _errors(report: ValidationReport) -> list[str]:
    return [
        f"{f.path}: {f.message}" for i in report.items for f in i.findings if f.severity == "error"
    ]


@settings(
    max_examples=max(10, EXAMPLE_COUNT * 2 // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(graph=valid_graphs())
def test_valid_graph_survives_loader_and_model_round_trip(graph: dict[str, Any]) -> None:
    for text in (to_yaml(graph), json.dumps(graph, indent=2)):
        [doc] = load_text(text, "graph.yaml")
        assert doc.data == graph
    _assert_graph_reads_back(graph)

    [doc] = load_text(to_yaml(graph), "graph.yaml")
    reloaded = _validate(doc.data, Profile())
    assert _errors(reloaded) == []
    original = _validate(graph, Profile())
    assert [f.to_dict() for f in reloaded.items[0].findings] == [
        f.to_dict() for f in original.items[0].findings
    ]


def _assert_graph_reads_back(graph: dict[str, Any]) -> None:
    """The graph reader (core.graph, strict) accepts every valid graph and loses nothing."""
    read = read_graph(graph, strict=True)
    assert read.raw == graph
    written = [c for c in graph.get("spec", {}).get("components", [])]
    assert [(c.name, c.type, c.replicas, c.raw) for c in read.components] == [
        (c["name"], c.get("type"), c.get("replicas"), c) for c in written
    ]
    assert read.name == graph.get("metadata", {}).get("name", "")


def test_example_graphs_survive_the_model_round_trip() -> None:
    assert _example_graphs()
    for graph in _example_graphs():
        _assert_graph_reads_back(graph)


TOP_EXAMPLES = sorted(EXAMPLES.glob("*.yaml"))


@pytest.mark.parametrize("path", TOP_EXAMPLES, ids=lambda p: p.name)
def test_each_example_graph_is_valid_and_says_what_it_shows(path: Path) -> None:
    text = path.read_text()
    assert text.startswith("# "), "an example opens with a comment saying what it shows"
    flags = ["--lpx"] if "type: lpx" in text else []
    result = run_cli("validate", *flags, str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(error," not in result.stdout


def test_lpx_example_is_rejected_without_the_lpx_gate() -> None:
    result = run_cli("validate", str(EXAMPLES / "lpx.yaml"))
    assert result.returncode == 1
    assert "LPX components require lpx.enabled=true" in result.stdout
