"""The DGD CustomResourceDefinition object the test API server holds when the CRD is installed."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from tests.apiserver.resources import DGD
from tests.apiserver.store import Obj


@functools.cache
def dgd_crd() -> Obj:
    """The DGD CustomResourceDefinition as a cluster holds it: the bundled schema (both versions,
    v1beta1 stored) with the status subresource, printer columns and an Established status.

    Parsed once and shared: copy it before editing (``Store.seed`` stores a copy)."""
    return _build()


def _build() -> Obj:
    path = Path(__file__).resolve().parents[2] / "kubectl_dgd" / "data" / "crd-schema.json"
    crd: Obj = json.loads(path.read_text())
    crd.pop("_notice", None)
    crd["spec"]["scope"] = "Namespaced"
    crd["spec"]["names"].setdefault("categories", list(DGD.categories))
    for version in crd["spec"]["versions"]:
        version["subresources"] = {"status": {}}
        if version["name"] == DGD.version:
            version["additionalPrinterColumns"] = [
                {
                    "name": "Ready",
                    "type": "string",
                    "jsonPath": '.status.conditions[?(@.type=="Ready")].status',
                },
                {"name": "Backend", "type": "string", "jsonPath": ".spec.backendFramework"},
                {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
            ]
    crd["status"] = {
        "acceptedNames": crd["spec"]["names"],
        "storedVersions": [DGD.version],
        "conditions": [
            {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts"},
            {"type": "Established", "status": "True", "reason": "InitialNamesAccepted"},
        ],
    }
    return crd


_pristine = functools.cache(_build)  # a second object, to compare the shared one with


def assert_dgd_crd_unchanged() -> None:
    """Every test's server shares the object above: one that edited it would leak into the next."""
    assert dgd_crd() == _pristine(), "the shared DGD CRD object was edited: copy it first"
