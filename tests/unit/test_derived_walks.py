"""The derived facts shipped beside each bundled CRD (core/validate/derived.py) are what the
walks would learn, and seeding them changes no finding."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from kubectl_dgd.adapters import crdfile
from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS, Profile
from kubectl_dgd.core.validate import cel, derived, schema
from kubectl_dgd.core.validate.crd import CrdSchemas, schemas_from_crd
from kubectl_dgd.core.validate.pipeline import validate_object
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import is_dgd_kind
from tests.conftest import ROOT

DATA = ROOT / "kubectl_dgd" / "data"
SCRIPT = ROOT / "scripts" / "derive_crd_walks.py"
KEYWORDS = ("default", "x-kubernetes-validations")
TRANSITION = "!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)"  # bundled


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("derive_crd_walks", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def seeded(version: str) -> CrdSchemas:
    """A fresh load of a bundle, seeded (bundled_schemas itself is cached per process)."""
    result: CrdSchemas = crdfile.bundled_schemas.__wrapped__(version)
    return result


def unseeded(version: str) -> CrdSchemas:
    return schemas_from_crd(json.loads((DATA / crdfile.bundle_name(version)).read_text()))


def nodes(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node, parents before children (the order in which walks meet them)."""
    if not isinstance(node, dict):
        return
    yield path, node
    props = node.get("properties")
    if isinstance(props, dict):
        for key, sub in props.items():
            yield from nodes(sub, f"{path}.{key}")
    yield from nodes(node.get("items"), f"{path}[*]")
    yield from nodes(node.get("additionalProperties"), f"{path}{{*}}")


def graphs() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted([*ROOT.glob("manifests/**/*.yaml"), *ROOT.glob("tests/fixtures/**/*.yaml")]):
        try:
            docs = load_file(str(path))
        except InputError:
            continue  # the bad-input fixtures
        for i, doc in enumerate(docs):
            if isinstance(doc.data, dict) and is_dgd_kind(doc.data):
                found.append((f"{path.relative_to(ROOT)}#{i}", doc.data))
    return found


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_each_derived_file_is_what_the_script_makes_of_its_bundle(version: str) -> None:
    shipped = (DATA / crdfile.derived_name(version)).read_text()
    assert load_script().build(DATA / crdfile.bundle_name(version)) == shipped, (
        "run: python scripts/derive_crd_walks.py"
    )


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_seeded_answers_are_the_walks_answers_at_every_node(version: str) -> None:
    fast, slow = seeded(version), unseeded(version)
    assert sorted(fast) == sorted(slow)
    for served in fast:
        pairs = zip(nodes(fast[served]), nodes(slow[served]), strict=True)
        for (where, node), (_, plain) in pairs:
            for keyword in KEYWORDS:
                got = schema.keyword_below(node, keyword)
                assert got == schema.keyword_below(plain, keyword), (served, where, keyword)


def test_a_seeded_bundle_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[str] = []
    real_walk = schema._walk

    def walk(node: dict[str, Any], depth: int) -> frozenset[str]:
        walked.append(str(sorted(node)))
        return real_walk(node, depth)

    monkeypatch.setattr(schema, "_walk", walk)
    schemas = seeded("1.6")
    for _, obj in graphs():
        validate_object(copy.deepcopy(obj), schemas, Profile())
        validate_object(copy.deepcopy(obj), schemas, Profile(), old=copy.deepcopy(obj))
    assert walked == []
    unseeded_schemas = unseeded("1.6")
    validate_object(copy.deepcopy(graphs()[0][1]), unseeded_schemas, Profile())
    assert walked, "a schema without seeds (e.g. --crd) is walked"


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_seeded_and_walked_schemas_give_the_same_findings(
    version: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, slow = seeded(version), unseeded(version)
    profile = Profile(operator_version=version)
    for name, obj in graphs():
        for old in (None, obj):
            got = validate_object(copy.deepcopy(obj), fast, profile, old=copy.deepcopy(old))
            with monkeypatch.context() as patch:  # the slow side compiles every rule itself
                patch.setattr(derived, "RULE_FACTS", {})
                want = validate_object(copy.deepcopy(obj), slow, profile, old=copy.deepcopy(old))
            assert got == want, name


def test_a_transition_rule_known_by_its_facts_is_not_compiled_on_create() -> None:
    seeded("1.6")
    node = {"type": "object", "x-kubernetes-validations": [{"rule": TRANSITION}]}
    assert cel.check({"type": "x"}, None, node) == []
    (rule,) = cel.compiled_rules(node)
    assert rule.transition and rule.compile_error is None
    assert rule._program is None  # skipped on create, so never compiled
    found = cel.check({"type": "y"}, {"type": "x"}, node)
    assert [f.code for f in found] == ["cel-rule"]  # on update it compiles and runs
    assert rule._program is not None


def test_every_bundled_rule_has_facts_equal_to_a_fresh_compile() -> None:
    for version in SUPPORTED_VERSIONS:
        shipped = json.loads((DATA / crdfile.derived_name(version)).read_text())["rules"]
        for served in unseeded(version).values():
            for _, raw in cel.all_rules(served):
                text = raw["rule"].strip()
                assert shipped[text] == cel.rule_facts(text), text


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_the_shipped_schemas_are_the_bundles_schemas(version: str) -> None:
    # JSON text, not ==: key order (the order defaults are added in) and 1 against 1.0 count
    assert json.dumps(seeded(version)) == json.dumps(unseeded(version))


def test_without_a_derived_file_the_bundle_is_read_and_walked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(crdfile, "derived_name", lambda version: "no-such-file.json")
    schemas = seeded("1.6")
    assert json.dumps(schemas) == json.dumps(unseeded("1.6"))
    obj = graphs()[0][1]
    assert validate_object(copy.deepcopy(obj), schemas, Profile()) == validate_object(
        copy.deepcopy(obj), unseeded("1.6"), Profile()
    )


def test_packing_keeps_order_types_and_shares_equal_subtrees() -> None:
    sub = {"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(12)}}
    schemas = {"v1": {"properties": {"b": copy.deepcopy(sub), "a": copy.deepcopy(sub), "n": 1.0}}}
    packed = json.loads(json.dumps(load_script().pack_schemas(schemas)))
    assert len(packed["shared"]) == 1
    unpacked = derived.unpack_schemas(packed)
    assert unpacked is not None
    assert json.dumps(unpacked) == json.dumps(schemas)
    props = unpacked["v1"]["properties"]
    assert props["a"] is props["b"]
    assert (
        derived.unpack_schemas({"versions": {}, "shared": [], "links": [["v9", ["x"], 0]]}) is None
    )


def test_the_cel_extension_loads_only_when_a_rule_must_run() -> None:
    # In a child: this process has loaded it already. A transition rule known by its facts
    # is skipped on create without the extension; on update it compiles, so it loads.
    code = f"""
from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.validate import cel, cel_env
bundled_schemas()
node = {{"type": "object", "x-kubernetes-validations": [{{"rule": {TRANSITION!r}}}]}}
assert cel.check({{"type": "y"}}, None, node) == []
assert not cel_env._LOADED, "loaded on create"
assert [f.code for f in cel.check({{"type": "y"}}, {{"type": "x"}}, node)] == ["cel-rule"]
assert cel_env._LOADED
"""
    result = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
