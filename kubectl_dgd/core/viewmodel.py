"""The base of every view model: a plain dataclass whose ``to_data()`` is what json/yaml print."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any


class ViewModel:
    """Mixed into a dataclass: ``to_data()`` gives its fields in declaration order, nested view
    models as mappings, None kept (so every key is always there)."""

    def to_data(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload, no-any-return]
