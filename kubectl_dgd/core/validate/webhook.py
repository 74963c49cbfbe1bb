"""Layer "webhook": the validating webhook's rules that apply on create and on every update (§2.1)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile


def check_create(obj: dict[str, Any], profile: Profile, old: dict[str, Any] | None = None) -> list[Finding]:
    return []
