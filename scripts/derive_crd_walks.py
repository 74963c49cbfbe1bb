"""Write each bundled CRD's schemas in a quicker form, and what the walks learn of them.

Usage: python scripts/derive_crd_walks.py   (after scripts/extract_crd_schema.py, or a
change to the walks or the CEL library; tests/unit/test_derived_walks.py fails until then)

For every kubectl_dgd/data/crd-schema*.json, writes derived-crd-schema*.json: its served
versions' schemas with repeated subtrees stored once; per version, which subtrees carry a
``default`` or a CEL rule; per rule, the facts its compilation and scan give
(kubectl_dgd/core/validate/derived.py describes the format and why).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from kubectl_dgd.adapters.crdfile import bundle_name, derived_name
from kubectl_dgd.core.profile import SUPPORTED_VERSIONS
from kubectl_dgd.core.validate import cel, schema
from kubectl_dgd.core.validate.crd import schemas_from_crd

DATA = Path(__file__).resolve().parent.parent / "kubectl_dgd" / "data"
# Subtrees of fewer values are repeated in place: a link costs more to follow than they to decode.
SHARED_MIN = 20


def pack_schemas(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``{"versions", "shared", "links"}``: each version's schema with every repeated subtree
    of SHARED_MIN values or more replaced by ``null`` and listed in ``links`` as ``[owner
    (version or shared index), [keys or indexes to the slot], shared index]``."""
    counts: Counter[str] = Counter()
    sizes: dict[str, int] = {}

    def count(value: Any) -> int:
        """Occurrences of each subtree, the inside of a repeated one counted once (it is
        stored once); returns the subtree's number of values."""
        if not isinstance(value, (dict, list)):
            return 1
        text = json.dumps(value)  # order-sensitive: property order is meaningful
        counts[text] += 1
        if counts[text] == 1:
            items = value.values() if isinstance(value, dict) else value
            sizes[text] = 1 + sum(count(item) for item in items)
        return sizes[text]

    for version_schema in schemas.values():
        count(version_schema)
    index: dict[str, int] = {}
    shared: list[Any] = []
    links: list[list[Any]] = []

    def build(value: Any, owner: str | int, path: list[str | int]) -> Any:
        if isinstance(value, dict):
            pairs: list[tuple[str | int, Any]] = list(value.items())
            out: Any = {}
        elif isinstance(value, list):
            pairs, out = list(enumerate(value)), [None] * len(value)
        else:
            return value
        for key, item in pairs:
            text = json.dumps(item) if isinstance(item, (dict, list)) else ""
            if text and counts[text] > 1 and sizes[text] >= SHARED_MIN:
                if text not in index:
                    index[text] = len(shared)
                    shared.append(None)
                    shared[index[text]] = build(item, index[text], [])
                links.append([owner, [*path, key], index[text]])
                out[key] = None
            else:
                out[key] = build(item, owner, [*path, key])
        return out

    versions = {v: build(s, v, []) for v, s in schemas.items()}
    return {"versions": versions, "shared": shared, "links": links}


def build(bundle: Path) -> str:
    """The derived file's text for one bundle, from a fresh load of it (never from seeds)."""
    crd = json.loads(bundle.read_text())
    schemas = schemas_from_crd(crd)
    rules: dict[str, Any] = {}
    for version_schema in schemas.values():
        for _, raw in cel.all_rules(version_schema):
            text = raw.get("rule")
            if isinstance(text, str) and text.strip() not in rules:
                facts = cel.rule_facts(text)
                if facts is not None:
                    rules[text.strip()] = facts
    notice = crd.get("_notice")
    derived = {
        "_notice": [
            *(notice if isinstance(notice, list) else []),
            f"Written by scripts/derive_crd_walks.py from {bundle.name}; do not edit.",
        ],
        "schemas": pack_schemas(schemas),
        "walks": {v: schema.walk_index(s) for v, s in sorted(schemas.items())},
        "rules": dict(sorted(rules.items())),
    }
    # One line, no spaces: the smallest text for json to decode at start-up.
    return json.dumps(derived, separators=(",", ":"), sort_keys=False) + "\n"


def main() -> int:
    for version in SUPPORTED_VERSIONS:
        out = DATA / derived_name(version)
        out.write_text(build(DATA / bundle_name(version)))
        print(f"wrote {out.relative_to(DATA.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
