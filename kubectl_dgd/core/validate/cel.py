"""Layer "cel": the CRD's x-kubernetes-validations rules, with their messages."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding


def check(obj: dict[str, Any], old: dict[str, Any] | None, schema: dict[str, Any]) -> list[Finding]:
    return []
