"""Load the bundled v1beta1/v1alpha1 schema of an operator release, or a CRD given with --crd."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.profile import NEWEST_VERSION, SUPPORTED_VERSIONS
from kubectl_dgd.core.validate import derived
from kubectl_dgd.core.validate.crd import CrdSchemas, schemas_from_crd
from kubectl_dgd.errors import InputError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

BUNDLED = "crd-schema.json"


def bundle_name(version: str) -> str:
    """The newest release's bundle keeps the historical name; older ones carry their version."""
    return BUNDLED if version == NEWEST_VERSION else f"crd-schema-{version}.json"


@cache
def bundled_schemas(version: str = NEWEST_VERSION) -> CrdSchemas:
    """The CRD schemas of operator release ``version`` (one of SUPPORTED_VERSIONS)."""
    if version not in SUPPORTED_VERSIONS:
        raise InputError(f"no bundled CRD for operator version {version}", "--operator-version")
    data = _data_directory()
    # The derived file beside the bundle holds its schemas in a form several times quicker to
    # decode, and what the walks would learn from them (core/validate/derived.py); without it
    # (or with a damaged one) the bundle itself is read and the first graph walks it.
    shipped = _read_json(data / derived_name(version))
    schemas = derived.unpack_schemas(shipped.get("schemas")) if isinstance(shipped, dict) else None
    if schemas is None:
        try:
            with (data / bundle_name(version)).open("rb") as fh:
                schemas = schemas_from_crd(json.load(fh))
        except OSError as err:
            raise InputError(
                f"the bundled CRD of operator version {version} cannot be read ({err}); "
                "reinstall kubectl-dgd",
                "--operator-version",
            ) from None
    derived.seed(schemas, shipped)
    return schemas


def _data_directory() -> Path | Traversable:
    """The package's data directory: the directory beside the modules when they are files (the
    usual install, and importlib.resources' import alone costs about 7 ms), else what
    importlib.resources finds (a package run from a zip archive)."""
    beside = Path(__file__).resolve().parent.parent / "data"
    if beside.is_dir():
        return beside
    from importlib.resources import files

    return files("kubectl_dgd.data")


def _read_json(path: Path | Traversable) -> Any:
    try:
        with path.open("rb") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


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
