"""Defaults applied before validation: CRD structural defaults, then the mutating webhook (§2.0)."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.crd import CrdSchemas


def apply_defaults(
    obj: dict[str, Any], schemas: CrdSchemas, profile: Profile, old: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A defaulted deep copy of ``obj``; the input is never changed. (Filled in by the webhook work.)"""
    return copy.deepcopy(obj)
