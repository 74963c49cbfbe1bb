"""Load the bundled v1beta1/v1alpha1 schema, or a CRD the user gives with --crd."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.validate.crd import CrdSchemas, schemas_from_crd
from kubectl_dgd.errors import InputError

BUNDLED = "crd-schema.json"


@cache
def bundled_schemas() -> CrdSchemas:
    # A path next to the package rather than importlib.resources, whose import alone costs ~7 ms.
    with (Path(__file__).resolve().parent.parent / "data" / BUNDLED).open("rb") as fh:
        return schemas_from_crd(json.load(fh))


def schemas_from_file(path: str) -> CrdSchemas:
    for doc in load_file(path):
        if isinstance(doc.data, dict) and doc.data.get("kind") == "CustomResourceDefinition":
            schemas = schemas_from_crd(doc.data)
            if schemas:
                return schemas
    raise InputError("no CustomResourceDefinition with an openAPIV3Schema found", path)
