"""Component ``topologyConstraint`` immutability."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import invalid

TOPOLOGY_IMMUTABLE = (
    "is immutable and cannot be added, removed, or changed after creation; delete and recreate the "
    "DynamoGraphDeployment to change topology constraints"
)


def component_topology(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    before, after = old.get("topologyConstraint"), new.get("topologyConstraint")
    if before == after:
        return []
    return [invalid(f"{base}.topologyConstraint", after, TOPOLOGY_IMMUTABLE, "topology-immutable")]
