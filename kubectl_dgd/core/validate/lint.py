"""Layer "lint": what the operator only discovers at reconcile time, or never (warnings)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding


def check(obj: dict[str, Any], *, creating: bool) -> list[Finding]:
    return []
