"""Build kubectl_dgd/data/crd-schema.json from the upstream DGD CRD.

Usage: python scripts/extract_crd_schema.py [CRD_YAML] [OUT_JSON]

Keeps what validation needs (names, versions, openAPIV3Schema with its CEL rules), strips
descriptions, and keeps the upstream licence notice. Extensions for fields newer than the
upstream CRD are applied by ``extend_schema`` below and listed in the output's ``_notice``.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CRD = ROOT.parent / "shared" / "reference" / "crd-dynamographdeployments.yaml"
DEFAULT_OUT = ROOT / "kubectl_dgd" / "data" / "crd-schema.json"

NOTICE = [
    "SPDX-FileCopyrightText: Copyright (c) 2024-2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved.",
    "SPDX-License-Identifier: Apache-2.0",
    "Derived from the upstream DynamoGraphDeployment CRD (ai-dynamo/dynamo,",
    "deploy/operator/config/crd/bases/nvidia.com_dynamographdeployments.yaml) by",
    "scripts/extract_crd_schema.py: descriptions stripped; see EXTENSIONS for additions.",
]


def strip_descriptions(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: strip_descriptions(v)
            for k, v in node.items()
            if not (k == "description" and isinstance(v, str))
        }
    if isinstance(node, list):
        return [strip_descriptions(v) for v in node]
    return node


EXTENSIONS: list[str] = [
    "v1beta1 spec.components[].type: enum value 'lpx'",
    "v1beta1 spec.components[].lpx: buildId (minLength 1), scheduling.attemptDeadlineSeconds "
    "(1..9223372036), localPartitions (all | ids; CEL 'set either all: true or ids')",
    "v1beta1 spec.components[].roles[]: name (lowercase DNS label, 1-63), replicas (min 1), "
    "providerOverride, podTemplate; list-map keyed by name",
    "v1beta1 status.components.*: gpusPerEngine, gpusPerReplica (int64, min 0)",
    "v1beta1 spec CEL: 'spec.restart.strategy.type must be Parallel when the graph contains "
    "LPX components'",
    "v1beta1 spec.components[] CEL: 'type is immutable after it is set', 'scalingAdapter is not "
    "supported when type is lpx', 'replicas must be positive when type is lpx', 'LPX Pod "
    "templates belong to roles'",
    "v1beta1 spec.components[] CEL 'minAvailable must be less than or equal to replicas unless "
    "replicas is 0': an LPX component without replicas passes (LPX replicas are not defaulted)",
]

DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
IS_LPX = "has(self.type) && self.type == 'lpx'"
MIN_AVAILABLE_MESSAGE = "minAvailable must be less than or equal to replicas unless replicas is 0"

LPX_RULES: list[dict[str, Any]] = [
    {
        "rule": "!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)",
        "message": "type is immutable after it is set",
    },
    {
        "rule": f"!({IS_LPX}) || !has(self.scalingAdapter)",
        "message": "scalingAdapter is not supported when type is lpx",
    },
    {
        "rule": f"!({IS_LPX}) || !has(self.replicas) || self.replicas > 0",
        "message": "replicas must be positive when type is lpx",
    },
    {
        "rule": f"!({IS_LPX}) || !has(self.podTemplate)",
        "message": "LPX Pod templates belong to roles",
    },
]

RESTART_PARALLEL_FOR_LPX: dict[str, Any] = {
    "rule": "!has(self.restart) || !has(self.components) || "
    "!self.components.exists(c, has(c.type) && c.type == 'lpx') || "
    "(has(self.restart.strategy) && has(self.restart.strategy.type) && "
    "self.restart.strategy.type == 'Parallel')",
    "message": "spec.restart.strategy.type must be Parallel when the graph contains LPX components",
}


def _lpx_block() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "buildId": {"type": "string", "minLength": 1},
            "scheduling": {
                "type": "object",
                "properties": {
                    "attemptDeadlineSeconds": {
                        "type": "integer",
                        "format": "int64",
                        "minimum": 1,
                        "maximum": 9223372036,
                    }
                },
            },
            "localPartitions": {
                "type": "object",
                "properties": {
                    "all": {"type": "boolean"},
                    # The id type is not published; accept numbers and names alike.
                    "ids": {
                        "type": "array",
                        "items": {"x-kubernetes-int-or-string": True},
                        "x-kubernetes-list-type": "set",
                    },
                },
                "x-kubernetes-validations": [
                    {
                        "rule": "(has(self.all) && self.all) != (has(self.ids) && size(self.ids) > 0)",
                        "message": "set either all: true or ids",
                    }
                ],
            },
        },
    }


def _roles(component: dict[str, Any]) -> dict[str, Any]:
    props = component["properties"]
    return {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        "items": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": DNS_LABEL},
                "replicas": {"type": "integer", "format": "int32", "minimum": 1},
                "providerOverride": copy.deepcopy(props["providerOverride"]),
                "podTemplate": copy.deepcopy(props["podTemplate"]),
            },
        },
    }


def extend_schema(versions: list[dict[str, Any]]) -> None:
    """Additions for the LPX-era operator that the upstream CRD predates (listed in EXTENSIONS)."""
    for version in versions:
        if version["name"] != "v1beta1":
            continue
        root = version["schema"]["openAPIV3Schema"]
        spec = root["properties"]["spec"]
        component = spec["properties"]["components"]["items"]
        props = component["properties"]
        if "lpx" not in props["type"]["enum"]:
            props["type"]["enum"].append("lpx")
        props["lpx"] = _lpx_block()
        props["roles"] = _roles(component)
        rules = component.setdefault("x-kubernetes-validations", [])
        lpx_exempt = f"(({IS_LPX}) && !has(self.replicas)) || "
        for rule in rules:
            if rule.get("message") == MIN_AVAILABLE_MESSAGE and not rule["rule"].startswith(
                lpx_exempt
            ):
                rule["rule"] = lpx_exempt + rule["rule"]
        rules.extend(r for r in LPX_RULES if r not in rules)
        spec_rules = spec.setdefault("x-kubernetes-validations", [])
        if RESTART_PARALLEL_FOR_LPX not in spec_rules:
            spec_rules.append(RESTART_PARALLEL_FOR_LPX)
        replica_status = root["properties"]["status"]["properties"]["components"][
            "additionalProperties"
        ]["properties"]
        for name in ("gpusPerEngine", "gpusPerReplica"):
            replica_status[name] = {"type": "integer", "format": "int64", "minimum": 0}


def build(crd_path: Path) -> dict[str, Any]:
    yaml = YAML(typ="safe", pure=False)
    crd = next(d for d in yaml.load_all(crd_path.read_text()) if d)
    versions = [
        {
            "name": v["name"],
            "served": v.get("served", True),
            "storage": v.get("storage", False),
            "deprecated": v.get("deprecated", False),
            "schema": {"openAPIV3Schema": strip_descriptions(v["schema"]["openAPIV3Schema"])},
        }
        for v in crd["spec"]["versions"]
    ]
    extend_schema(versions)
    return {
        "_notice": NOTICE + [f"Extension: {e}" for e in EXTENSIONS],
        "apiVersion": crd["apiVersion"],
        "kind": crd["kind"],
        "metadata": {"name": crd["metadata"]["name"]},
        "spec": {
            "group": crd["spec"]["group"],
            "names": crd["spec"]["names"],
            "versions": versions,
        },
    }


def main() -> None:
    crd_path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CRD
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_OUT
    data = build(crd_path)
    out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
