"""The bundled CRD schema is what scripts/extract_crd_schema.py makes of the upstream CRD."""

from __future__ import annotations

import importlib.util
import json
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ROOT

BUNDLE = ROOT / "kubectl_dgd" / "data" / "crd-schema.json"
SCRIPT = ROOT / "scripts" / "extract_crd_schema.py"
REFERENCE = ROOT.parent / "shared" / "reference" / "crd-dynamographdeployments.yaml"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_crd_schema", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bundle() -> dict[str, Any]:
    return json.loads(BUNDLE.read_text())


def versions(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["name"]: v for v in data["spec"]["versions"]}


@pytest.mark.skipif(not REFERENCE.exists(), reason="upstream CRD reference not available")
def test_bundle_is_what_the_script_makes_of_the_reference_crd() -> None:
    assert load_script().build(REFERENCE) == bundle()


def test_bundle_keeps_the_licence_notice_and_lists_every_extension() -> None:
    notice = bundle()["_notice"]
    assert any(line.startswith("SPDX-License-Identifier: Apache-2.0") for line in notice)
    assert any("NVIDIA CORPORATION" in line for line in notice)
    extensions = [
        line.removeprefix("Extension: ") for line in notice if line.startswith("Extension: ")
    ]
    assert extensions == load_script().EXTENSIONS
    assert extensions


def _descriptions(node: Any) -> int:
    if isinstance(node, dict):
        own = 1 if isinstance(node.get("description"), str) else 0
        return own + sum(_descriptions(v) for v in node.values())
    if isinstance(node, list):
        return sum(_descriptions(v) for v in node)
    return 0


def test_bundle_has_no_descriptions() -> None:
    assert _descriptions(bundle()) == 0


def test_bundle_serves_v1beta1_as_storage_and_v1alpha1_as_deprecated() -> None:
    served = versions(bundle())
    assert set(served) == {"v1alpha1", "v1beta1"}
    assert served["v1beta1"]["storage"] is True and served["v1beta1"]["served"] is True
    assert served["v1alpha1"]["deprecated"] is True
    for version in served.values():
        assert version["schema"]["openAPIV3Schema"]["type"] == "object"


def test_bundle_carries_the_lpx_era_fields() -> None:
    schema = versions(bundle())["v1beta1"]["schema"]["openAPIV3Schema"]
    component = schema["properties"]["spec"]["properties"]["components"]["items"]
    assert "lpx" in component["properties"]["type"]["enum"]
    assert {"lpx", "roles"} <= set(component["properties"])
    replica_status = schema["properties"]["status"]["properties"]["components"][
        "additionalProperties"
    ]
    assert {"gpusPerEngine", "gpusPerReplica"} <= set(replica_status["properties"])
    messages = {r["message"] for r in component["x-kubernetes-validations"]}
    assert "LPX Pod templates belong to roles" in messages


def test_extending_twice_adds_nothing_more() -> None:
    script = load_script()
    data = bundle()
    before = json.dumps(data, sort_keys=True)
    script.extend_schema(data["spec"]["versions"])
    assert json.dumps(data, sort_keys=True) == before
