"""The CRD as data: the openAPIV3Schema of each served version."""

from __future__ import annotations

from typing import Any

CrdSchemas = dict[str, dict[str, Any]]


def schemas_from_crd(crd: dict[str, Any]) -> CrdSchemas:
    """``{version: openAPIV3Schema}`` from a CustomResourceDefinition (full or our stripped bundle)."""
    result: CrdSchemas = {}
    spec = crd.get("spec")
    versions = spec.get("versions") if isinstance(spec, dict) else None
    for version in versions if isinstance(versions, list) else []:
        # Anything not of a CRD's shape (a server's junk) is no schema: the caller falls back.
        holder = version.get("schema") if isinstance(version, dict) else None
        schema = holder.get("openAPIV3Schema") if isinstance(holder, dict) else None
        if isinstance(schema, dict) and version.get("served", True):
            result[str(version.get("name"))] = schema
    return result
