"""Layer "cel": every x-kubernetes-validations rule of the bundled CRD, evaluated offline."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.core.validate import cel, cel_env, schema
from kubectl_dgd.core.validate.crd import schemas_from_crd
from tests.unit.dgd_factory import component, graph

BUNDLE = Path(schema.__file__).resolve().parents[2] / "data" / "crd-schema.json"
SCHEMAS = schemas_from_crd(json.loads(BUNDLE.read_text()))
V1BETA1 = SCHEMAS["v1beta1"]
ALL_RULES = [
    (version, where, rule) for version, s in SCHEMAS.items() for where, rule in cel.all_rules(s)
]


def run(obj: dict[str, Any], old: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """Findings as the API server sees them: structural defaults first, then the rules."""
    obj = copy.deepcopy(obj)
    schema.apply_structural_defaults(obj, V1BETA1)
    if old is not None:
        old = copy.deepcopy(old)
        schema.apply_structural_defaults(old, V1BETA1)
    result = cel.check(obj, old, V1BETA1)
    assert all(f.layer == "cel" and f.severity == "error" for f in result), result
    return [(f.path, f.message) for f in result]


def rejected(path: str, message: str) -> list[tuple[str, str]]:
    """A failed rule on an object or array node, as kube-apiserver 1.35+ prints it: no value."""
    return [(path, f"Invalid value: {message}")]


# --- the environment covers every rule ---------------------------------------------------


def test_the_bundle_carries_rules_in_both_versions() -> None:
    versions = {version for version, _, _ in ALL_RULES}
    assert versions == {"v1alpha1", "v1beta1"}
    assert len(ALL_RULES) >= 35


@pytest.mark.parametrize(
    ("version", "where", "rule"), ALL_RULES, ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_crd_rule_compiles_and_uses_only_provided_functions(
    version: str, where: str, rule: dict[str, Any]
) -> None:
    compiled = cel.CompiledRule(rule)
    assert compiled.compile_error is None, f"{version} {where}: {rule['rule']}"
    used = compiled.program.functions()
    missing = [
        f for f in used if not cel_env.is_operator(f) and f not in cel_env.PROVIDED_FUNCTIONS
    ]
    assert missing == []


def test_a_rule_calling_an_unknown_function_is_reported_not_passed() -> None:
    custom = {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.name.reverse() == 'x'", "message": "m"}],
    }
    (finding,) = cel.check({"name": "x"}, None, custom)
    assert (finding.severity, finding.code) == ("warning", "cel-unsupported")
    assert "reverse" in finding.message


def test_a_rule_that_does_not_compile_is_reported_not_passed() -> None:
    custom = {"type": "object", "x-kubernetes-validations": [{"rule": "self.(", "message": "m"}]}
    (finding,) = cel.check({}, None, custom)
    assert finding.code == "cel-unsupported"


NATIVE_SAMPLES = {
    "size": "size([1, 2]) == 2 && 'ab'.size() == 2 && size({'a': 1}) == 1",
    "contains": "'abc'.contains('b')",
    "startsWith": "'abc'.startsWith('a')",
    "endsWith": "'abc'.endsWith('c')",
    "matches": "'abc'.matches('^a.c$')",
    "int": "int('5') == 5",
    "uint": "uint(5) == 5u",
    "double": "double(1) == 1.0",
    "string": "string(1) == '1'",
    "bytes": "bytes('a') == b'a'",
    "timestamp": "timestamp('2024-01-01T00:00:00Z') < timestamp('2025-01-01T00:00:00Z')",
    "duration": "duration('1s') < duration('2s')",
    "type": "type(1) == int",
    "dyn": "dyn(1) == 1",
    "hasValue": "optional.of(1).hasValue()",
    "value": "optional.of(1).value() == 1",
    "orValue": "optional.none().orValue(2) == 2",
    "or": "optional.none().or(optional.of(1)).value() == 1",
    "of": "optional.of(1).hasValue()",
    "none": "!optional.none().hasValue()",
    "ofNonZeroValue": "!optional.ofNonZeroValue(0).hasValue()",
    "getFullYear": "timestamp('2024-03-02T01:02:03Z').getFullYear() == 2024",
    "getMonth": "timestamp('2024-03-02T01:02:03Z').getMonth() == 2",
    "getDayOfMonth": "timestamp('2024-03-02T01:02:03Z').getDayOfMonth() == 1",
    "getHours": "timestamp('2024-03-02T01:02:03Z').getHours() == 1",
    "getMinutes": "timestamp('2024-03-02T01:02:03Z').getMinutes() == 2",
    "getSeconds": "timestamp('2024-03-02T01:02:03Z').getSeconds() == 3",
}


def test_every_native_function_has_a_sample() -> None:
    assert set(NATIVE_SAMPLES) == set(cel_env.NATIVE_FUNCTIONS)


@pytest.mark.parametrize("name", sorted(NATIVE_SAMPLES))
def test_native_function_works_in_this_library(name: str) -> None:
    lib = cel_env.library()
    assert lib.evaluate(NATIVE_SAMPLES[name], lib.Context({}, cel_env.EXTENSION_FUNCTIONS)) is True


EXTENSION_SAMPLES = [
    "'AbC-é'.lowerAscii() == 'abc-é'",
    "'abc'.upperAscii() == 'ABC'",
    "'a/b/c'.split('/') == ['a', 'b', 'c']",
    "'a/b/c'.split('/', 2) == ['a', 'b/c']",
    "['a', 'b'].join('-') == 'a-b'",
    "'  x '.trim() == 'x'",
    "'aXa'.replace('a', 'b') == 'bXb'",
    "'abcb'.indexOf('b') == 1 && 'abcb'.lastIndexOf('b') == 3",
    "'hello'.substring(1, 3) == 'el'",
    "[1, 2, 2].isSorted() && ![2, 1].isSorted()",
    "[1, 2].sum() == 3",
    "quantity('1Gi').isGreaterThan(quantity('1G'))",
    "quantity('500m').isLessThan(quantity('1'))",
    "quantity('1k').compareTo(quantity('1000')) == 0",
    "quantity('1') == quantity('1000m')",
    "quantity('1Ki').add(quantity('24')).asInteger() == 1048",
    "quantity('2').sub(1).asInteger() == 1",
    "quantity('1.5').asApproximateFloat() == 1.5",
    "!quantity('1.5').isInteger() && quantity('-3').sign() == -1",
    "isQuantity('1e3') && !isQuantity('1 Gi')",
]


@pytest.mark.parametrize("expression", EXTENSION_SAMPLES)
def test_kubernetes_extension_function(expression: str) -> None:
    lib = cel_env.library()
    cel_env.EvalErrors.reset()
    assert lib.evaluate(expression, lib.Context({}, cel_env.EXTENSION_FUNCTIONS)) is True
    assert cel_env.EvalErrors.messages == []


@pytest.mark.parametrize(
    ("text", "value"),
    [("1Gi", 2**30), ("500m", 0.5), ("1e3", 1000), ("-2k", -2000), (".5", 0.5), ("1x", None)],
)
def test_parse_quantity(text: str, value: float | None) -> None:
    assert cel_env.parse_quantity(text) == value


def test_extension_function_on_a_wrong_type_is_an_evaluation_error_without_output(
    capfd: pytest.CaptureFixture[str],
) -> None:
    custom = {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.n.lowerAscii() == 'a'", "message": "m"}],
    }
    (finding,) = cel.check({"n": 5}, None, custom)
    assert finding.code == "cel-eval-error"
    assert (
        finding.message
        == 'Invalid value: "object": no such overload: lowerAscii evaluating rule: m'
    )
    assert capfd.readouterr() == ("", "")


def test_missing_key_is_an_evaluation_error_like_the_server() -> None:
    custom = {"type": "object", "x-kubernetes-validations": [{"rule": "self.mode == 'a'"}]}
    (finding,) = cel.check({}, None, custom)
    assert (
        finding.message
        == "Invalid value: \"object\": no such key: mode evaluating rule: self.mode == 'a'"
    )


def test_rule_without_message_reports_failed_rule() -> None:
    custom = {"type": "object", "x-kubernetes-validations": [{"rule": "has(self.a)"}]}
    (finding,) = cel.check({}, None, custom)
    assert (finding.message, finding.code) == (
        "Invalid value: failed rule: has(self.a)",
        "cel-rule",
    )


def test_message_expression_field_path_and_reason_shape_the_finding() -> None:
    custom = {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"a": {"type": "integer"}}}},
        "x-kubernetes-validations": [
            {
                "rule": "self.spec.a < 3",
                "messageExpression": "'a is ' + string(self.spec.a)",
                "fieldPath": ".spec.a",
                "reason": "FieldValueForbidden",
            }
        ],
    }
    (finding,) = cel.check({"spec": {"a": 5}}, None, custom)
    assert (finding.path, finding.message) == ("spec.a", "Forbidden: a is 5")


def test_garbage_objects_never_raise() -> None:
    for bad in [
        {"spec": []},
        {"spec": {"components": "x"}},
        {"spec": {"components": [None, 1, "a"]}},
    ]:
        assert isinstance(cel.check(bad, bad, V1BETA1), list)
    assert cel.check(None, None, V1BETA1) == []  # type: ignore[arg-type]


# --- each v1beta1 rule, accepted and rejected --------------------------------------------

RESTART_ON_CREATE = (
    "spec.restart must be unset on create; set spec.restart.id after creation to request a restart"
)


def test_valid_graph_passes_every_rule() -> None:
    assert run(graph()) == []


def test_restart_on_create_is_rejected() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": "r1"}
    assert run(obj) == rejected("spec", RESTART_ON_CREATE)


def test_restart_on_update_is_accepted_even_when_the_old_object_had_none() -> None:
    obj = graph()
    obj["spec"]["restart"] = {"id": "r1"}
    assert run(obj, old=graph()) == []


def test_component_names_differing_only_in_case_are_rejected() -> None:
    obj = graph()
    obj["spec"]["components"][1]["name"] = "FrontEnd"
    assert run(obj) == rejected(
        "spec.components", "component names must be unique case-insensitively"
    )


def test_two_epp_components_are_rejected() -> None:
    obj = graph()
    obj["spec"]["components"] += [component("epp-a", "epp"), component("epp-b", "epp")]
    assert run(obj) == rejected("spec.components", "at most one component may have type epp")


def test_one_epp_component_with_config_is_accepted() -> None:
    obj = graph()
    obj["spec"]["components"].append(
        component("epp", "epp", eppConfig={"configMapRef": {"name": "cm"}})
    )
    assert run(obj) == []


def test_epp_config_on_a_non_epp_component_is_rejected() -> None:
    obj = graph()
    obj["spec"]["components"][1]["eppConfig"] = {"configMapRef": {"name": "cm"}}
    assert run(obj) == rejected("spec.components[1]", "eppConfig may only be set when type is epp")


@pytest.mark.parametrize(
    "config", [{}, {"configMapRef": {"name": "cm"}, "config": {"plugins": []}}]
)
def test_epp_config_needs_exactly_one_source(config: dict[str, Any]) -> None:
    obj = graph()
    obj["spec"]["components"].append(component("epp", "epp", eppConfig=config))
    assert run(obj) == rejected(
        "spec.components[2].eppConfig", "exactly one of configMapRef or config must be specified"
    )


MIN_AVAILABLE = "minAvailable must be less than or equal to replicas unless replicas is 0"


@pytest.mark.parametrize(("replicas", "ok"), [(3, True), (2, False), (0, True), (None, False)])
def test_min_available_against_replicas(replicas: int | None, ok: bool) -> None:
    obj = graph()
    worker = obj["spec"]["components"][1]
    worker.pop("replicas")
    if replicas is not None:
        worker["replicas"] = replicas
    # 3 against 3, 2 and 0 replicas; 2 against an omitted replicas, which counts as 1
    worker["minAvailable"] = 3 if replicas is not None else 2
    assert run(obj) == ([] if ok else rejected("spec.components[1]", MIN_AVAILABLE))


def test_min_available_cannot_change_after_creation() -> None:
    old = graph()
    old["spec"]["components"][1]["minAvailable"] = 1
    new = copy.deepcopy(old)
    new["spec"]["components"][1]["minAvailable"] = 2
    assert run(new, old=old) == rejected(
        "spec.components[1]", "minAvailable is immutable after creation"
    )


def test_min_available_can_be_added_and_from_1_6_removed_but_before_1_6_not() -> None:
    """1.6 lets the deprecated field go (the migration moves it into the provider override; the
    webhook keeps the effective value); the 1.5 CRD refuses its removal."""
    old = graph()
    old["spec"]["components"][1]["minAvailable"] = 1
    removed = copy.deepcopy(old)
    del removed["spec"]["components"][1]["minAvailable"]
    assert run(removed, old=old) == []
    assert run(old, old=graph()) == []
    v1_5 = schemas_from_crd(json.loads(BUNDLE.with_name("crd-schema-1.5.json").read_text()))
    before = cel.check(removed, old, v1_5["v1beta1"])
    assert [(f.path, f.message) for f in before] == rejected(
        "spec.components[1]", "minAvailable is immutable after creation"
    )


def test_min_available_transition_rule_correlates_components_by_name_not_index() -> None:
    old = graph()
    old["spec"]["components"][1]["minAvailable"] = 1
    reordered = copy.deepcopy(old)
    reordered["spec"]["components"].reverse()
    assert run(reordered, old=old) == []


def test_transition_rules_are_skipped_on_create() -> None:
    obj = graph()
    obj["spec"]["components"][1]["minAvailable"] = 1
    assert run(obj) == []


def kv_policy(**fields: Any) -> dict[str, Any]:
    obj = graph()
    obj["spec"]["experimental"] = {"kvTransferPolicy": {"domain": "rack", **fields}}
    return obj


KV = "spec.experimental.kvTransferPolicy"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"labelKey": "rack"}, None),
        ({"clusterTopologyName": "topo"}, None),
        ({}, "exactly one of labelKey or clusterTopologyName is required"),
        (
            {"labelKey": "rack", "clusterTopologyName": "t"},
            "exactly one of labelKey or clusterTopologyName is required",
        ),
        (
            {"labelKey": "r", "enforcement": "preferred"},
            "preferredWeight is required when enforcement is preferred",
        ),
        ({"labelKey": "r", "enforcement": "preferred", "preferredWeight": 0.5}, None),
        (
            {"labelKey": "r", "preferredWeight": 0.5},
            "preferredWeight may only be set when enforcement is preferred",
        ),
    ],
)
def test_kv_transfer_policy_rules(fields: dict[str, Any], message: str | None) -> None:
    assert run(kv_policy(**fields)) == ([] if message is None else rejected(KV, message))


def test_kv_transfer_label_key_prefix_over_253_characters_is_rejected() -> None:
    long_prefix = ".".join(["a" * 60] * 5)  # 304 characters
    # On a scalar node the server shows the value itself (kube-apiserver 1.35+).
    assert run(kv_policy(labelKey=f"{long_prefix}/rack")) == [
        (
            f"{KV}.labelKey",
            f'Invalid value: "{long_prefix}/rack": labelKey prefix must be 253 characters or less',
        )
    ]
    assert run(kv_policy(labelKey="example.com/rack")) == []


def test_sidecar_without_image_is_rejected_and_main_is_exempt() -> None:
    obj = graph()
    containers = obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"]
    containers[0].pop("image")
    containers.append({"name": "sidecar", "image": ""})
    assert run(obj) == rejected(
        "spec.components[1].podTemplate.spec.containers[1]",
        "sidecar containers must specify a non-empty image",
    )


def test_init_container_without_image_is_rejected() -> None:
    obj = graph()
    obj["spec"]["components"][0]["podTemplate"]["spec"]["initContainers"] = [{"name": "main"}]
    assert run(obj) == rejected(
        "spec.components[0].podTemplate.spec.initContainers[0]",
        "init containers must specify a non-empty image",
    )


@pytest.mark.parametrize(
    ("value", "ok"), [("mp", True), ("RAY", True), ("Mp", True), ("spawn", False)]
)
def test_vllm_backend_annotation_must_be_mp_or_ray_case_insensitively(value: str, ok: bool) -> None:
    obj = graph()
    obj["spec"]["components"][1]["podTemplate"]["metadata"] = {
        "annotations": {"nvidia.com/vllm-distributed-executor-backend": value, "other": "x"}
    }
    expected = rejected(
        "spec.components[1].podTemplate.metadata.annotations",
        "podTemplate backend annotation must be mp or ray, case-insensitively",
    )
    assert run(obj) == ([] if ok else expected)


@pytest.mark.parametrize(
    ("gms", "messages"),
    [
        ({"extraClientContainers": ["c"]}, []),
        (
            {"mode": "InterPod", "extraClientContainers": ["c"]},
            ["extraClientContainers is only supported with mode=IntraPod"],
        ),
        (
            {"extraClientPods": [{"name": "p", "podTemplate": {}}]},
            [
                "extraClientPods is only supported with mode=InterPod",
                "extraClientPods is reserved for inter-pod GMS and is not implemented yet",
            ],
        ),
    ],
)
def test_gpu_memory_service_rules(gms: dict[str, Any], messages: list[str]) -> None:
    obj = graph()
    obj["spec"]["components"][1]["experimental"] = {"gpuMemoryService": gms}
    path = "spec.components[1].experimental.gpuMemoryService"
    assert run(obj) == [(path, f"Invalid value: {m}") for m in messages]


def test_checkpoint_job_with_checkpoint_ref_is_rejected() -> None:
    obj = graph()
    checkpoint = {"enabled": True, "checkpointRef": "ck", "job": {"podTemplate": {}}}
    obj["spec"]["components"][1]["experimental"] = {"checkpoint": checkpoint}
    assert run(obj) == rejected(
        "spec.components[1].experimental.checkpoint",
        "checkpoint.job cannot be set when checkpointRef is specified",
    )


# --- LPX rules (bundle extensions) --------------------------------------------------------


def lpx_component(**extra: Any) -> dict[str, Any]:
    result = component("engine", "lpx", lpx={"buildId": "b1", "localPartitions": {"all": True}})
    del result["podTemplate"]  # an LPX component's pod templates belong to its roles
    result["roles"] = [
        {
            "name": "agent",
            "replicas": 1,
            "podTemplate": {"spec": {"containers": [{"name": "main"}]}},
        }
    ]
    result.update(extra)
    return result


def lpx_graph(**extra: Any) -> dict[str, Any]:
    obj = graph()
    obj["spec"]["components"].append(lpx_component(**extra))
    return obj


def test_lpx_graph_passes() -> None:
    assert run(lpx_graph(replicas=2)) == []


def test_lpx_component_without_replicas_may_set_min_available() -> None:
    assert run(lpx_graph(minAvailable=2)) == []


@pytest.mark.parametrize(
    ("strategy", "ok"),
    [(None, False), ({"type": "Sequential"}, False), ({"type": "Parallel"}, True)],
)
def test_restart_of_an_lpx_graph_must_be_parallel(
    strategy: dict[str, Any] | None, ok: bool
) -> None:
    old = lpx_graph()
    new = copy.deepcopy(old)
    new["spec"]["restart"] = (
        {"id": "r1"} if strategy is None else {"id": "r1", "strategy": strategy}
    )
    expected = rejected(
        "spec", "spec.restart.strategy.type must be Parallel when the graph contains LPX components"
    )
    assert run(new, old=old) == ([] if ok else expected)


def test_component_type_cannot_change_once_set_but_may_be_set_later() -> None:
    old = graph()
    new = copy.deepcopy(old)
    new["spec"]["components"][1]["type"] = "prefill"
    assert run(new, old=old) == rejected("spec.components[1]", "type is immutable after it is set")
    untyped = copy.deepcopy(old)
    del untyped["spec"]["components"][1]["type"]
    assert run(old, old=untyped) == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"scalingAdapter": {}}, "scalingAdapter is not supported when type is lpx"),
        ({"replicas": 0}, "replicas must be positive when type is lpx"),
        (
            {"podTemplate": {"spec": {"containers": [{"name": "main", "image": "i:1"}]}}},
            "LPX Pod templates belong to roles",
        ),
    ],
)
def test_lpx_component_rules(extra: dict[str, Any], message: str) -> None:
    assert run(lpx_graph(**extra)) == rejected("spec.components[2]", message)


@pytest.mark.parametrize(
    ("partitions", "ok"),
    [
        ({"all": True}, True),
        ({"ids": [0, 1]}, True),
        ({}, False),
        ({"all": True, "ids": [1]}, False),
    ],
)
def test_lpx_local_partitions_set_either_all_or_ids(partitions: dict[str, Any], ok: bool) -> None:
    obj = lpx_graph()
    obj["spec"]["components"][2]["lpx"]["localPartitions"] = partitions
    expected = rejected("spec.components[2].lpx.localPartitions", "set either all: true or ids")
    assert run(obj) == ([] if ok else expected)


def test_rules_inside_lpx_role_pod_templates_run() -> None:
    obj = lpx_graph()
    obj["spec"]["components"][2]["roles"][0]["podTemplate"]["spec"]["containers"].append(
        {"name": "side"}
    )
    assert run(obj) == rejected(
        "spec.components[2].roles[0].podTemplate.spec.containers[1]",
        "sidecar containers must specify a non-empty image",
    )


def test_multi_line_compile_errors_are_reported_on_one_line() -> None:
    custom = {"type": "object", "x-kubernetes-validations": [{"rule": "self.(\n)", "message": "m"}]}
    (finding,) = cel.check({}, None, custom)
    assert "\n" not in finding.message


LOADERS = {
    "quick": "from kubectl_dgd.adapters.cel_extension import extension; lib = extension()",
    "package": "import cel as lib",
}
EVALUATE = """
import json, sys
{load}
from kubectl_dgd.core.validate import cel_env
out = []
for text in json.loads(sys.argv[1]):
    try:
        out.append(repr(lib.evaluate(text, lib.Context({{}}, cel_env.EXTENSION_FUNCTIONS))))
    except Exception as err:
        out.append(type(err).__name__)
print(json.dumps([lib.__name__, out]))
"""


def test_the_quick_loader_and_import_cel_give_the_same_library() -> None:
    """adapters/cel_extension.py loads the compiled extension alone (a start-up trick); the
    package (``import cel``, the plain start-up) evaluates every sample the same, failures
    included. In two children: the extension cannot be loaded twice in one process."""
    samples = [*NATIVE_SAMPLES.values(), *EXTENSION_SAMPLES, "'a' + 1", "self.a =="]
    results = {}
    for name, load in LOADERS.items():
        proc = subprocess.run(
            [sys.executable, "-c", EVALUATE.format(load=load), json.dumps(samples)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        results[name] = json.loads(proc.stdout)
    assert results["quick"][0] == "cel.cel"  # the extension, not the package
    assert results["quick"][1] == results["package"][1]
    assert results["quick"][1][: len(samples) - 2] == ["True"] * (len(samples) - 2)
