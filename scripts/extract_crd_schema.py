"""Build the bundled CRD schemas (kubectl_dgd/data/crd-schema*.json) from the upstream DGD CRD.

Usage: python scripts/extract_crd_schema.py [--operator-version X.Y] [CRD_YAML] [OUT_JSON]

One bundle per supported operator release (see UPSTREAM for the commit each CRD comes from):
- 1.3, 1.4, 1.5: the upstream CRD of that release as it is, descriptions stripped
  (``git show <commit>:deploy/operator/config/crd/bases/nvidia.com_dynamographdeployments.yaml``);
- 1.6 (the default, written to crd-schema.json): the 1.5 CRD plus the LPX-era changes the
  upstream CRD predates, applied by ``extend_schema`` and listed in the output's ``_notice``.

Keeps what validation needs (names, versions, openAPIV3Schema with its CEL rules) and the
upstream licence notice.
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
DATA = ROOT / "kubectl_dgd" / "data"
NEWEST = "1.6"

# The upstream commit of each release's CRD, in the public mirror wxsms/dynamo.
UPSTREAM = {
    "1.3": "f0c4516ca (main after the 1.3.0 branch cut, #12040)",
    "1.4": "c13fdcec6 (main after the 1.4.0 branch cut, #13137)",
    "1.5": "2a6da14c8 (main, chart 1.5.0; = shared/reference/crd-dynamographdeployments.yaml)",
    "1.6": "the 1.5 CRD with the extensions below",
}


def bundle_path(version: str) -> Path:
    """crd-schema.json for the newest release, crd-schema-X.Y.json for the others."""
    return DATA / ("crd-schema.json" if version == NEWEST else f"crd-schema-{version}.json")


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
    "providerOverride, podTemplate; list-map keyed by name; maxItems 2",
    "v1beta1 status.components.*: gpusPerEngine, gpusPerReplica (int64, min 0)",
    "v1beta1 spec CEL: 'spec.restart.strategy.type must be Parallel when the graph contains "
    "LPX components'",
    "v1beta1 spec.components[] CEL: 'type is immutable after it is set', 'scalingAdapter is not "
    "supported when type is lpx', 'replicas must be positive when type is lpx', 'LPX Pod "
    "templates belong to roles'",
    "v1beta1 spec.components[] CEL 'minAvailable must be less than or equal to replicas unless "
    "replicas is 0': an LPX component without replicas passes (LPX replicas are not defaulted)",
    "v1beta1 spec.components[].multinode: nodeCount only (leader and worker moved to roles[])",
    "v1beta1 spec.components[].lpx.buildId: required",
    "v1beta1 status.components.*: servedModelName, runtimeComponentName (string), "
    "gpuPowerLimitWatts (integer, min 1)",
    "v1beta1 status.restart.phase: enum Pending, Restarting, Completed, Failed, Superseded",
    "v1alpha1 spec.services.*: lpx (as v1beta1) and roles[] (as v1beta1, maxItems 2), for "
    "componentType 'lpx'",
    "v1alpha1 spec.services.* CEL: 'componentType is immutable after it is set', 'lpx is required "
    "when componentType is lpx', 'lpx may only be set when componentType is lpx', 'replicas must "
    "be positive when componentType is lpx'; the minAvailable rule exempts an LPX service "
    "without replicas (66854651310, 70778590138)",
    "v1beta1 spec.components[] and v1alpha1 spec.services.* CEL 'minAvailable is immutable after "
    "creation': removing the deprecated field passes (the 1.6 migration moves it into the "
    "component providerOverride; the webhook keeps the effective value; docs 70638219375, "
    "70243226474)",
]

ROLES_MAX = 2
DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
IS_LPX = "has(self.type) && self.type == 'lpx'"
MIN_AVAILABLE_MESSAGE = "minAvailable must be less than or equal to replicas unless replicas is 0"
MIN_AVAILABLE_IMMUTABLE = "minAvailable is immutable after creation"
REMOVABLE = "!has(self.minAvailable) || "


def _removable_min_available(rules: list[dict[str, Any]]) -> None:
    """1.6: the deprecated minAvailable may be removed (changing it stays refused)."""
    for rule in rules:
        if rule.get("message") == MIN_AVAILABLE_IMMUTABLE and REMOVABLE not in rule["rule"]:
            rule["rule"] = REMOVABLE + rule["rule"]


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
        "required": ["buildId"],
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
        # Every role set has at most two roles (leader/worker, agent/conductor). Unbounded, the
        # CEL rules under each role's podTemplate exceed the API server's cost budget and the
        # real kube-apiserver refuses the whole CRD.
        "maxItems": ROLES_MAX,
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


IS_ALPHA_LPX = "has(self.componentType) && self.componentType == 'lpx'"
ALPHA_LPX_RULES: list[dict[str, Any]] = [
    {
        "rule": "!has(oldSelf.componentType) || "
        "(has(self.componentType) && self.componentType == oldSelf.componentType)",
        "message": "componentType is immutable after it is set",
    },
    {
        "rule": f"!({IS_ALPHA_LPX}) || has(self.lpx)",
        "message": "lpx is required when componentType is lpx",
    },
    {
        "rule": f"!has(self.lpx) || ({IS_ALPHA_LPX})",
        "message": "lpx may only be set when componentType is lpx",
    },
    {
        "rule": f"!({IS_ALPHA_LPX}) || !has(self.replicas) || self.replicas > 0",
        "message": "replicas must be positive when componentType is lpx",
    },
]


def _extend_alpha(alpha: dict[str, Any], beta_component: dict[str, Any]) -> None:
    """1.6 v1alpha1 services carry the LPX block and roles natively (alpha has no type enum)."""
    service = alpha["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["services"][
        "additionalProperties"
    ]
    props = service["properties"]
    props["lpx"] = _lpx_block()
    props["roles"] = _roles(beta_component)
    rules = service.setdefault("x-kubernetes-validations", [])
    exempt = f"(({IS_ALPHA_LPX}) && !has(self.replicas)) || "
    for rule in rules:
        if rule.get("message") == MIN_AVAILABLE_MESSAGE and not rule["rule"].startswith(exempt):
            rule["rule"] = exempt + rule["rule"]
    rules.extend(r for r in ALPHA_LPX_RULES if r not in rules)
    _removable_min_available(rules)


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
        multinode = props["multinode"]["properties"]
        for moved in ("leader", "worker"):
            multinode.pop(moved, None)
        rules = component.setdefault("x-kubernetes-validations", [])
        lpx_exempt = f"(({IS_LPX}) && !has(self.replicas)) || "
        for rule in rules:
            if rule.get("message") == MIN_AVAILABLE_MESSAGE and not rule["rule"].startswith(
                lpx_exempt
            ):
                rule["rule"] = lpx_exempt + rule["rule"]
        rules.extend(r for r in LPX_RULES if r not in rules)
        _removable_min_available(rules)
        spec_rules = spec.setdefault("x-kubernetes-validations", [])
        if RESTART_PARALLEL_FOR_LPX not in spec_rules:
            spec_rules.append(RESTART_PARALLEL_FOR_LPX)
        replica_status = root["properties"]["status"]["properties"]["components"][
            "additionalProperties"
        ]["properties"]
        for name in ("gpusPerEngine", "gpusPerReplica"):
            replica_status[name] = {"type": "integer", "format": "int64", "minimum": 0}
        for name in ("servedModelName", "runtimeComponentName"):
            replica_status[name] = {"type": "string"}
        replica_status["gpuPowerLimitWatts"] = {"type": "integer", "format": "int32", "minimum": 1}
        restart_status = root["properties"]["status"]["properties"]["restart"]["properties"]
        restart_status["phase"] = {
            "type": "string",
            "enum": ["Pending", "Restarting", "Completed", "Failed", "Superseded"],
        }
        for alpha in versions:
            if alpha["name"] == "v1alpha1":
                _extend_alpha(alpha, component)


def build(crd_path: Path, version: str = NEWEST) -> dict[str, Any]:
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
    notice = [*NOTICE, f"Operator release {version}: upstream CRD at {UPSTREAM[version]}."]
    if version == NEWEST:
        extend_schema(versions)
        notice += [f"Extension: {e}" for e in EXTENSIONS]
    return {
        "_notice": notice,
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
    args = sys.argv[1:]
    version = NEWEST
    if args[:1] == ["--operator-version"]:
        version, args = args[1], args[2:]
    if version not in UPSTREAM:
        sys.exit(f"unknown operator version {version!r}; one of {', '.join(UPSTREAM)}")
    crd_path = Path(args[0]) if args else DEFAULT_CRD
    out = Path(args[1]) if len(args) > 1 else bundle_path(version)
    data = build(crd_path, version)
    out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
