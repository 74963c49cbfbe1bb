"""The CRD as data: the openAPIV3Schema of each served version."""

from __future__ import annotations

from typing import Any

CrdSchemas = dict[str, dict[str, Any]]


def schemas_from_crd(crd: dict[str, Any]) -> CrdSchemas:
    """``{version: openAPIV3Schema}`` from a CustomResourceDefinition (full or our stripped bundle)."""
    result: CrdSchemas = {}
    for version in crd.get("spec", {}).get("versions", []) or []:
        schema = ((version or {}).get("schema") or {}).get("openAPIV3Schema")
        if isinstance(schema, dict) and version.get("served", True):
            result[str(version.get("name"))] = schema
    return result
