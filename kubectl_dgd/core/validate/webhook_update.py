"""Layer "webhook", update-only rules (§2.2): immutability, component set, restart during rollout."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile


def check_update(new: dict[str, Any], old: dict[str, Any], profile: Profile) -> list[Finding]:
    return []
