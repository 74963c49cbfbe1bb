"""Layer "schema": the CRD's structural schema (types, enums, patterns, bounds, required, maxItems)."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding


def check(obj: dict[str, Any], schema: dict[str, Any], *, strict: bool = False) -> list[Finding]:
    return []
