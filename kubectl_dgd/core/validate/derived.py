"""What the walks learn from a bundled CRD schema alone, worked out ahead and seeded here.

The first graph of a process used to pay for facts that depend on the schema only: which
subtrees carry a ``default`` or a CEL rule (the defaults and CEL walks skip the others, and
finding that out walked a thousand-odd nodes of the pod template), and, for each CEL rule,
whether it names ``oldSelf``, which extension functions it calls and which fields of ``self``
it selects (a scan with a dozen regular expressions). For a bundled CRD these are the same in
every process, so ``scripts/derive_crd_walks.py`` writes them beside each bundle
(``derived-crd-schema*.json``); ``adapters/crdfile.py`` seeds them here when it loads that
bundle; tests/unit/test_derived_walks.py regenerates every file byte for byte (so they cannot
drift from the schema or the CEL library) and checks the seeded answers against the walk. A
schema that is not a bundled one (``--crd``) has no seeds and is walked as before.

Format, per served version: the entry of the schema root. An entry gives the walk's answer
for a node in bits (1: a ``default`` at or below it, 2: a CEL rule), as a number or, when some
child has bits too, as ``[bits, {property: entry}, items entry, additionalProperties entry]``
listing only such children (``null`` for none): a walk asks about every child of a node with
bits, and never goes below a node without. Rules: ``{rule text: [names oldSelf, extension
functions it calls, fields of self it selects, whether the cut goes deep]}``, the fields and
flag ``null`` when ``self`` is used whole (cel.py, ``_fields_used``).
"""

from __future__ import annotations

from typing import Any

# id(schema node) -> (node, entry): a node's seed, registered when its parent's is read.
WALKS: dict[int, tuple[dict[str, Any], Any]] = {}
# rule text -> its shipped facts (only rules that compile and call provided functions).
RULE_FACTS: dict[str, list[Any]] = {}


def seed(schemas: dict[str, dict[str, Any]], derived: Any) -> None:
    """Register the derived facts of the bundle whose schemas are ``schemas`` (just loaded)."""
    if not isinstance(derived, dict):
        return
    versions = derived.get("versions")
    if isinstance(versions, dict):
        for version, entry in versions.items():
            root = schemas.get(version)
            if isinstance(root, dict):
                WALKS[id(root)] = (root, entry)
    rules = derived.get("rules")
    if isinstance(rules, dict):
        RULE_FACTS.update(rules)
