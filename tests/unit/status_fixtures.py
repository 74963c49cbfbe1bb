"""Saved-object fixtures for the status, rollout and health tests (the examples, and edits of them)."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.graph import Graph, read_graph
from tests.conftest import EXAMPLES

STATUS_EXAMPLES = EXAMPLES / "status"
NOW = datetime(2026, 11, 30, 10, 0, 0, tzinfo=UTC)


def saved(name: str) -> dict[str, Any]:
    """A fresh copy of manifests/examples/status/NAME.yaml."""
    data = load_file(str(STATUS_EXAMPLES / f"{name}.yaml"))[0].data
    assert isinstance(data, dict)
    return copy.deepcopy(data)


def model(obj: dict[str, Any]) -> Graph:
    return read_graph(obj, strict=True)
