"""Render never fails with anything but the project's own errors, whatever type a field has."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import render_graph
from kubectl_dgd.errors import DgdError
from kubectl_dgd.output.render import render_yaml

ROOT = Path(__file__).resolve().parent.parent.parent
GRAPHS = [
    ROOT / "manifests" / "examples" / "vllm-agg.yaml",
    ROOT / "tests" / "fixtures" / "render" / "grove-multinode-vllm.yaml",
    ROOT / "tests" / "fixtures" / "render" / "component-epp-kubernetes-discovery.yaml",
]
WRONG_VALUES: list[Any] = [None, "s", -1, True, [], {"a": "b"}, [{"name": 1}]]


def field_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from field_paths(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from field_paths(child, (*path, i))


@pytest.mark.parametrize("source", GRAPHS, ids=lambda p: p.stem)
def test_every_field_replaced_by_a_wrong_type_renders_or_fails_cleanly(source: Path) -> None:
    base = load_file(str(source))[0].data
    for path in field_paths(base):
        for value in WRONG_VALUES:
            graph = copy.deepcopy(base)
            parent = graph
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = value
            for provider in ("grove", "component"):
                with contextlib.suppress(DgdError):
                    render_yaml(render_graph(graph, Profile(provider=provider)))  # type: ignore[arg-type]
