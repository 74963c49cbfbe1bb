"""The one rule/version table: every code the webhook and lint layers emit has a row, and it gates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS, Profile
from kubectl_dgd.core.validate import rules_by_version
from kubectl_dgd.core.validate.pipeline import validate_object
from tests.unit.dgd_factory import graph, main_of, worker

VALIDATE = Path(__file__).resolve().parents[2] / "kubectl_dgd" / "core" / "validate"
# Modules of the webhook and lint layers (schema and CEL findings come from the CRD of a release).
LAYER_MODULES = sorted(
    p
    for p in VALIDATE.glob("*.py")
    if p.name.startswith(("webhook", "lint")) or p.name == "provider_override.py"
)
HELPERS = {"required", "forbidden", "invalid", "unsupported", "duplicate", "warning", "not_checked"}


def emitted_codes(path: Path) -> set[str]:
    """String codes passed to the finding helpers (last argument) or to Finding (fifth)."""
    codes: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name in HELPERS or name in ("_warn", "_finding"):
            argument = node.args[-1] if node.args else None
        elif name == "Finding" and len(node.args) >= 5:
            argument = node.args[4]
        else:
            continue
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            codes.add(argument.value)
    return codes


ALL_CODES = sorted(set().union(*(emitted_codes(p) for p in LAYER_MODULES)))


def test_the_scan_sees_the_layers() -> None:
    assert len(LAYER_MODULES) >= 10
    assert {"runtime-version-required", "lpx-conductor-role", "image-latest"} <= set(ALL_CODES)


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_emitted_rule_has_a_version_entry(code: str) -> None:
    assert code in rules_by_version.RULES, f"{code} has no row in rules_by_version.RULES"


def test_every_row_is_emitted_somewhere() -> None:
    assert sorted(set(rules_by_version.RULES) - set(ALL_CODES)) == []


def test_rows_name_supported_versions_and_a_source() -> None:
    for code, rule in rules_by_version.RULES.items():
        assert rule.since in SUPPORTED_VERSIONS, code
        assert rule.until is None or rule.until in SUPPORTED_VERSIONS, code
        assert rule.source, code
        assert rules_by_version.versions_of(code), code


def test_removed_rules_are_gone_from_the_versions_that_removed_them() -> None:
    assert rules_by_version.versions_of("topology-component-required") == ["1.3"]
    assert rules_by_version.versions_of("checkpoint-gms-snapshot") == ["1.3"]
    assert rules_by_version.versions_of("lpx-conductor-role") == ["1.6"]


def test_variants_pick_the_newest_not_after_the_version() -> None:
    assert rules_by_version.variant("grove-update-strategy", "1.5") == "RollingRecreate,OnDelete"
    assert "Coherent" in rules_by_version.variant("grove-update-strategy", "1.6")


def _errors(obj: dict, version: str) -> list[str]:
    profile = Profile(operator_version=version)
    found = validate_object(obj, bundled_schemas(version), profile)
    return [f"{f.path}: {f.message}" for f in found if f.severity == "error"]


def test_1_3_admits_a_custom_tag_without_an_override_and_the_default_rejects_it() -> None:
    obj = graph()
    for component in obj["spec"]["components"]:
        component.pop("runtimeVersionOverride", None)
    main_of(worker(obj))["image"] = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:my-tag"
    assert _errors(obj, "1.3") == []
    assert _errors(obj, "1.6") == [
        "spec.components[1].runtimeVersionOverride: Required value: is required when the "
        "specified main container image has no parseable semantic-version tag"
    ]
