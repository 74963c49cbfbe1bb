"""Load the bundled v1beta1/v1alpha1 schema of an operator release, or a CRD given with --crd."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.profile import NEWEST_VERSION, SUPPORTED_VERSIONS
from kubectl_dgd.core.validate import derived
from kubectl_dgd.core.validate.crd import CrdSchemas, schemas_from_crd
from kubectl_dgd.errors import InputError

BUNDLED = "crd-schema.json"


def bundle_name(version: str) -> str:
    """The newest release's bundle keeps the historical name; older ones carry their version."""
    return BUNDLED if version == NEWEST_VERSION else f"crd-schema-{version}.json"


@cache
def bundled_schemas(version: str = NEWEST_VERSION) -> CrdSchemas:
    """The CRD schemas of operator release ``version`` (one of SUPPORTED_VERSIONS)."""
    if version not in SUPPORTED_VERSIONS:
        raise InputError(f"no bundled CRD for operator version {version}", "--operator-version")
    # A path next to the package rather than importlib.resources, whose import alone costs ~7 ms.
    data = Path(__file__).resolve().parent.parent / "data"
    with (data / bundle_name(version)).open("rb") as fh:
        schemas = schemas_from_crd(json.load(fh))
    # What the walks would learn from this schema, worked out ahead (core/validate/derived.py);
    # without the file the first graph walks the schema instead.
    try:
        with (data / derived_name(version)).open("rb") as fh:
            derived.seed(schemas, json.load(fh))
    except (OSError, ValueError):
        pass
    return schemas


def derived_name(version: str) -> str:
    """The derived facts of a bundle sit beside it (scripts/derive_crd_walks.py writes them)."""
    return "derived-" + bundle_name(version)


def schemas_from_file(path: str) -> CrdSchemas:
    for doc in load_file(path):
        if isinstance(doc.data, dict) and doc.data.get("kind") == "CustomResourceDefinition":
            schemas = schemas_from_crd(doc.data)
            if schemas:
                return schemas
    raise InputError("no CustomResourceDefinition with an openAPIV3Schema found", path)
