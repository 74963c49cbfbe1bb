"""Explicit nulls in a DGD, dropped as the API server drops them.

No field of the DGD schema is ``nullable``, so the API server prunes every ``key: null`` of a
graph before storing it. A null sent by Argo CD would then differ from the live object forever:
gojq before 0.12.19 (Argo CD 3.1 to 3.4) even turns ``del(.a.b)`` on ``a: null`` into ``a: {}``.
"""

from __future__ import annotations

from typing import Any


def without_nulls(value: Any) -> Any:
    """``value`` with every mapping entry whose value is null removed, at any depth."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value
