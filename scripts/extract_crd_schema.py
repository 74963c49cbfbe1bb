"""Build kubectl_dgd/data/crd-schema.json from the upstream DGD CRD.

Usage: python scripts/extract_crd_schema.py [CRD_YAML] [OUT_JSON]

Keeps what validation needs (names, versions, openAPIV3Schema with its CEL rules), strips
descriptions, and keeps the upstream licence notice. Extensions for fields newer than the
upstream CRD are applied by ``extend_schema`` below and listed in the output's ``_notice``.
"""

from __future__ import annotations

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


EXTENSIONS: list[str] = []


def extend_schema(versions: list[dict[str, Any]]) -> None:
    """Additions for the LPX-era operator that the upstream CRD predates (none yet)."""


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
