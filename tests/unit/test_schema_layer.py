"""Layer "schema": the CRD's structural schema, with kube-apiserver's messages."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate import schema
from kubectl_dgd.core.validate.crd import schemas_from_crd
from tests.conftest import EXAMPLES
from tests.unit.dgd_factory import component, graph

BUNDLE = Path(schema.__file__).resolve().parents[2] / "data" / "crd-schema.json"
SCHEMAS = schemas_from_crd(json.loads(BUNDLE.read_text()))
V1BETA1 = SCHEMAS["v1beta1"]
NAME_PATTERN = "^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$"


def findings(obj: dict[str, Any], *, strict: bool = False) -> list[tuple[str, str, str]]:
    return [(f.path, f.message, f.code) for f in schema.check(obj, V1BETA1, strict=strict)]


def only(obj: dict[str, Any]) -> tuple[str, str, str]:
    result = findings(obj)
    assert len(result) == 1, result
    return result[0]


def _example_graphs() -> list[tuple[str, dict[str, Any]]]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=False)
    out = []
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        for doc in yaml.load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "DynamoGraphDeployment":
                out.append((path.name, doc))
    return out


@pytest.mark.parametrize(
    ("name", "doc"), _example_graphs(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_example_graph_passes_the_schema(name: str, doc: dict[str, Any]) -> None:
    version = doc["apiVersion"].rpartition("/")[2]
    assert schema.check(doc, SCHEMAS[version]) == []


def test_the_factory_graph_passes_the_schema() -> None:
    assert findings(graph()) == []


def test_missing_required_component_name_is_required_value() -> None:
    obj = graph()
    del obj["spec"]["components"][1]["name"]
    assert only(obj) == ("spec.components[1].name", "Required value", "schema-required")


def test_required_field_set_to_null_is_required_value() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": None}
    assert only(obj) == ("spec.restart.id", "Required value", "schema-required")


def test_null_optional_field_is_dropped_not_reported() -> None:
    obj = graph()
    obj["spec"]["components"][0]["replicas"] = None
    assert findings(obj) == []


def test_enum_violation_lists_supported_values_in_schema_order() -> None:
    obj = graph()
    obj["spec"]["backendFramework"] = "pytorch"
    assert only(obj) == (
        "spec.backendFramework",
        'Unsupported value: "pytorch": supported values: "sglang", "vllm", "trtllm"',
        "schema-enum",
    )


def test_component_type_enum_includes_lpx_from_the_bundle_extension() -> None:
    obj = graph()
    obj["spec"]["components"][1]["type"] = "gpu"
    path, message, code = only(obj)
    assert path == "spec.components[1].type"
    assert message.endswith('"planner", "epp", "lpx"')
    assert code == "schema-enum"


def test_pattern_violation_quotes_the_value_and_the_regex() -> None:
    obj = graph()
    obj["spec"]["components"][0]["name"] = "bad_name"
    assert only(obj) == (
        "spec.components[0].name",
        f"Invalid value: \"bad_name\": spec.components[0].name in body should match '{NAME_PATTERN}'",
        "schema-pattern",
    )


def test_pattern_dollar_is_end_of_text_as_in_go() -> None:
    obj = graph()
    obj["spec"]["components"][0]["name"] = "frontend\n"
    assert only(obj)[2] == "schema-pattern"


def test_string_where_integer_expected_names_both_types() -> None:
    obj = graph()
    obj["spec"]["components"][1]["replicas"] = "two"
    assert only(obj) == (
        "spec.components[1].replicas",
        'Invalid value: "string": spec.components[1].replicas in body must be of type integer: "string"',
        "schema-type",
    )


def test_boolean_is_not_an_integer() -> None:
    obj = graph()
    obj["spec"]["components"][1]["replicas"] = True
    assert only(obj)[1].startswith('Invalid value: "boolean":')


def test_integral_float_is_accepted_as_integer_like_json_decoding() -> None:
    obj = graph()
    obj["spec"]["components"][1]["replicas"] = 2.0
    assert findings(obj) == []


def test_integer_beyond_int64_is_a_number_not_an_integer() -> None:
    obj = graph()
    obj["spec"]["components"][1]["replicas"] = 2**70
    assert only(obj)[1].endswith('must be of type integer: "number"')


def test_int32_field_out_of_range_reports_the_format() -> None:
    obj = graph()
    obj["spec"]["components"][1]["replicas"] = 3_000_000_000
    assert only(obj) == (
        "spec.components[1].replicas",
        'Invalid value: "": Checked value must be of type integer with format int32: '
        'strconv.ParseInt: parsing "3000000000": value out of range',
        "schema-format",
    )


def test_too_many_components_reports_count_and_limit() -> None:
    obj = graph()
    obj["spec"]["components"] = [component(f"c{i}", "worker") for i in range(26)]
    assert only(obj) == (
        "spec.components",
        "Too many: 26: must have at most 25 items",
        "schema-max-items",
    )


def test_negative_replicas_below_minimum() -> None:
    obj = graph()
    obj["spec"]["components"][0]["replicas"] = -1
    assert only(obj) == (
        "spec.components[0].replicas",
        "Invalid value: -1: spec.components[0].replicas in body should be greater than or equal to 0",
        "schema-minimum",
    )


def test_number_above_maximum_prints_bound_like_go() -> None:
    obj = graph()
    obj["spec"]["experimental"] = {
        "kvTransferPolicy": {
            "domain": "rack",
            "labelKey": "rack",
            "enforcement": "preferred",
            "preferredWeight": 1.5,
        }
    }
    assert only(obj) == (
        "spec.experimental.kvTransferPolicy.preferredWeight",
        "Invalid value: 1.5: spec.experimental.kvTransferPolicy.preferredWeight in body should be less than "
        "or equal to 1",
        "schema-maximum",
    )


def test_lpx_attempt_deadline_bounds_come_from_the_extension() -> None:
    obj = graph()
    lpx = component(
        "engine", "lpx", lpx={"buildId": "b", "scheduling": {"attemptDeadlineSeconds": 9223372037}}
    )
    del lpx["podTemplate"]
    obj["spec"]["components"].append(lpx)
    assert only(obj) == (
        "spec.components[2].lpx.scheduling.attemptDeadlineSeconds",
        "Invalid value: 9223372037: spec.components[2].lpx.scheduling.attemptDeadlineSeconds in body "
        "should be less than or equal to 9223372036",
        "schema-maximum",
    )


def test_empty_string_below_min_length() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": ""}
    assert only(obj) == (
        "spec.restart.id",
        'Invalid value: "": spec.restart.id in body should be at least 1 chars long',
        "schema-min-length",
    )


def test_string_above_max_length_is_too_long() -> None:
    obj = graph()
    obj["spec"]["components"][0]["name"] = "a" * 64
    assert only(obj) == (
        "spec.components[0].name",
        "Too long: may not be more than 63 bytes",
        "schema-max-length",
    )


def test_role_name_must_be_a_lowercase_dns_label() -> None:
    obj = graph()
    obj["spec"]["components"][1]["roles"] = [{"name": "Agent", "replicas": 0}]
    result = findings(obj)
    assert [(p, c) for p, _, c in result] == [
        ("spec.components[1].roles[0].name", "schema-pattern"),
        ("spec.components[1].roles[0].replicas", "schema-minimum"),
    ]


@pytest.mark.parametrize("value", ["1Gi", "512Mi", 1024, "0"])
def test_int_or_string_accepts_quantities_as_string_or_integer(value: object) -> None:
    obj = graph()
    obj["spec"]["components"][1]["sharedMemorySize"] = value
    assert findings(obj) == []


def test_int_or_string_rejects_a_boolean_with_the_anyof_errors_the_server_adds() -> None:
    """kube-apiserver 1.37 answers the type, then anyOf's verdict (no field) and its first
    branch's type (tests/realcluster/test_schema_oracle.py holds this to the real server)."""
    obj = graph()
    obj["spec"]["components"][1]["sharedMemorySize"] = True
    found = findings(obj)
    where = "spec.components[1].sharedMemorySize"
    assert found == [
        (
            where,
            f'Invalid value: "boolean": {where} in body must be of type integer,string: "boolean"',
            "schema-type",
        ),
        (
            "",
            f'Invalid value: "": "{where}" must validate at least one schema (anyOf)',
            "schema-any-of",
        ),
        (
            where,
            f'Invalid value: "boolean": {where} in body must be of type integer: "boolean"',
            "schema-type",
        ),
    ]


def test_int_or_string_quantity_pattern_applies_to_strings() -> None:
    obj = graph()
    obj["spec"]["components"][1]["sharedMemorySize"] = "lots"
    assert only(obj)[2] == "schema-pattern"


def test_preserve_unknown_fields_accepts_anything_below() -> None:
    obj = graph()
    obj["spec"]["providerOverride"] = {
        "apiVersion": "grove.io/v1alpha1",
        "value": {"any": {"thing": [1]}},
    }
    assert findings(obj) == []


def test_unknown_field_is_a_warning_naming_the_path() -> None:
    obj = graph()
    obj["spec"]["foo"] = 1
    result = schema.check(obj, V1BETA1)
    assert result == [
        Finding("warning", "schema", "spec.foo", 'unknown field "spec.foo"', "unknown-field")
    ]


def test_unknown_field_is_an_error_when_strict() -> None:
    obj = graph()
    obj["spec"]["components"][0]["replica"] = 1
    (finding,) = schema.check(obj, V1BETA1, strict=True)
    assert (finding.severity, finding.path) == ("error", "spec.components[0].replica")


def test_metadata_and_type_meta_are_not_unknown_fields() -> None:
    obj = graph()
    obj["metadata"]["labels"] = {"a": "b"}
    obj["metadata"]["whatever"] = {"x": 1}
    assert findings(obj) == []


def test_unknown_keys_with_odd_characters_are_bracketed() -> None:
    obj = graph()
    obj["spec"]["a/b"] = 1
    assert findings(obj) == [("spec[a/b]", 'unknown field "spec[a/b]"', "unknown-field")]


def test_map_list_duplicate_key_is_duplicate_value_at_the_second_item() -> None:
    obj = graph()
    obj["spec"]["components"][1]["name"] = "frontend"
    assert only(obj) == (
        "spec.components[1]",
        'Duplicate value: {"name":"frontend"}',
        "schema-duplicate",
    )


def test_set_list_duplicate_is_duplicate_value() -> None:
    obj = graph()
    obj["spec"]["components"][1]["experimental"] = {
        "gpuMemoryService": {"extraClientContainers": ["a", "b", "a"]}
    }
    assert only(obj) == (
        "spec.components[1].experimental.gpuMemoryService.extraClientContainers[2]",
        'Duplicate value: "a"',
        "schema-duplicate",
    )


def test_additional_properties_values_are_validated() -> None:
    obj = graph()
    obj["spec"]["annotations"] = {"a": 1}
    assert only(obj) == (
        "spec.annotations.a",
        'Invalid value: "integer": spec.annotations.a in body must be of type string: "integer"',
        "schema-type",
    )


def test_status_component_gpu_fields_from_the_extension_are_known() -> None:
    obj = graph()
    obj["status"] = {
        "state": "successful",
        "components": {
            "worker": {
                "componentKind": "Deployment",
                "replicas": 1,
                "updatedReplicas": 1,
                "gpusPerEngine": -1,
            }
        },
    }
    assert only(obj)[0] == "status.components.worker.gpusPerEngine"


def test_date_time_format_is_checked() -> None:
    obj = graph()
    obj["status"] = {
        "state": "pending",
        "rollingUpdate": {"phase": "InProgress", "startTime": "yesterday"},
    }
    assert only(obj) == (
        "status.rollingUpdate.startTime",
        'Invalid value: "yesterday": status.rollingUpdate.startTime in body must be of type date-time: "yesterday"',
        "schema-format",
    )


def test_type_errors_block_cel_and_pattern_errors_do_not() -> None:
    typed = graph()
    typed["spec"]["components"][1]["replicas"] = "x"
    patterned = graph()
    patterned["spec"]["components"][1]["name"] = "bad_name"
    assert schema.blocks_cel(schema.check(typed, V1BETA1))
    assert not schema.blocks_cel(schema.check(patterned, V1BETA1))


HOSTILE: list[Any] = [
    None,
    "text",
    0,
    -(2**80),
    2**80,
    1.5,
    float("nan"),
    True,
    [],
    [None],
    {},
    {"x": [1]},
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_paths(value, (*prefix, i)))
    return out


def test_never_raises_with_a_wrong_type_at_every_level() -> None:
    base = graph()
    base["spec"]["restart"] = {"id": "r", "strategy": {"type": "Parallel", "order": ["a"]}}
    for path in _paths(base)[1:]:
        for bad in HOSTILE:
            obj = copy.deepcopy(base)
            target = obj
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = bad
            result = schema.check(obj, V1BETA1)
            assert isinstance(result, list)
            schema.apply_structural_defaults(obj, V1BETA1)


@pytest.mark.parametrize(
    "obj", [None, [], "x", {"spec": []}, {"spec": {"components": {"a": 1}}}, {1: 2}]
)
def test_never_raises_on_non_objects(obj: Any) -> None:
    assert isinstance(schema.check(obj, V1BETA1), list)
    schema.apply_structural_defaults(obj, V1BETA1)


def test_deep_nesting_is_reported_not_raised() -> None:
    deep: Any = {}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    obj = graph()
    obj["spec"]["providerOverride"] = {"apiVersion": "grove.io/v1alpha1", "value": deep}
    obj["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["env"] = [deep]
    assert isinstance(schema.check(obj, V1BETA1), list)


def test_defaults_apply_only_where_the_parent_exists() -> None:
    obj = graph()
    schema.apply_structural_defaults(obj, V1BETA1)
    assert "restart" not in obj["spec"]
    assert "multinode" not in obj["spec"]["components"][1]


def test_defaults_fill_missing_fields_of_existing_objects() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": "r", "strategy": {}}
    obj["spec"]["components"][1]["multinode"] = {}
    obj["spec"]["experimental"] = {"kvTransferPolicy": {"domain": "rack", "labelKey": "k"}}
    schema.apply_structural_defaults(obj, V1BETA1)
    assert obj["spec"]["restart"]["strategy"] == {"type": "Sequential"}
    assert obj["spec"]["components"][1]["multinode"] == {"nodeCount": 2}
    assert obj["spec"]["experimental"]["kvTransferPolicy"]["enforcement"] == "required"


def test_defaults_replace_null_and_prune_null_without_default() -> None:
    obj = graph()
    obj["spec"]["components"][1]["multinode"] = {"nodeCount": None}
    obj["spec"]["components"][0]["replicas"] = None
    schema.apply_structural_defaults(obj, V1BETA1)
    assert obj["spec"]["components"][1]["multinode"] == {"nodeCount": 2}
    assert "replicas" not in obj["spec"]["components"][0]


def test_defaults_do_not_share_the_schema_default_objects() -> None:
    first, second = graph(), graph()
    for obj in (first, second):
        obj["spec"]["components"][1]["experimental"] = {"gpuMemoryService": {}}
        schema.apply_structural_defaults(obj, V1BETA1)
    first["spec"]["components"][1]["experimental"]["gpuMemoryService"]["mode"] = "InterPod"
    assert second["spec"]["components"][1]["experimental"]["gpuMemoryService"]["mode"] == "IntraPod"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"),
        (0.5, "0.5"),
        (1e6, "1e+06"),
        (123456.0, "123456"),
        (9223372036.0, "9.223372036e+09"),
        (1e-5, "1e-05"),
    ],
)
def test_floats_print_like_go(value: float, text: str) -> None:
    assert schema.go_float(value) == text


def test_object_meta_basic_types_are_checked() -> None:
    obj = graph()
    obj["metadata"]["name"] = ["a"]
    obj["metadata"]["labels"] = {"a": 1}
    assert [(p, c) for p, _, c in findings(obj)] == [
        ("metadata.name", "schema-type"),
        ("metadata.labels.a", "schema-type"),
    ]


def test_control_characters_in_keys_stay_on_one_line() -> None:
    obj = graph()
    obj["spec"]["\n"] = None
    obj["spec"]["annotations"] = {"a\nb": 1}
    result = findings(obj)
    assert len(result) == 2
    assert all("\n" not in message for _, message, _ in result)


def test_bundled_patterns_are_exactly_the_bundled_crds_patterns() -> None:
    import glob
    import json

    from kubectl_dgd.core.validate.schema import BUNDLED_PATTERNS

    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.add(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    data = Path(__file__).resolve().parents[2] / "kubectl_dgd" / "data"
    for path in glob.glob(str(data / "crd-schema*.json")):
        with open(path) as fh:
            walk(json.load(fh))
    assert found == BUNDLED_PATTERNS


def test_a_pattern_from_another_crd_runs_on_re2_in_linear_time(tmp_path: Path) -> None:
    # ^(a+)+$ on 31 characters took 30 s on a backtracking engine; on 200 it would never end.
    # The API server runs CRD patterns with RE2; so does validate --crd.
    import json
    from importlib import resources

    from tests.conftest import run_cli

    # the bundled CRD (the same schema as upstream's), so the test needs no file beside the repo
    crd = json.loads(resources.files("kubectl_dgd.data").joinpath("crd-schema.json").read_text())
    crd.pop("_notice", None)
    beta = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta1")
    props = beta["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    props["priorityClassName"] = {"type": "string", "pattern": "^(a+)+$"}
    crd_path = tmp_path / "crd.yaml"
    crd_path.write_text(json.dumps(crd))  # JSON is YAML, and quick to write
    graph_path = tmp_path / "g.yaml"
    graph_path.write_text(
        "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: g}\n"
        "spec:\n  priorityClassName: " + "a" * 200 + "!\n  components: []\n"
    )
    result = run_cli("validate", "--crd", str(crd_path), str(graph_path), timeout=60)
    assert (
        "spec.priorityClassName" in result.stdout and "should match '^(a+)+$'" in result.stdout
    ), result.stdout
