"""Child names as the operator makes them (docs/operator-semantics.md#child-names)."""

from __future__ import annotations

import hashlib

from kubectl_dgd.core.naming import (
    dcd_name,
    fnv32a,
    model_service_name,
    pcs_name,
    runtime_namespace,
    service_name,
)


def test_dcd_names_lowercase_the_component_and_workers_add_the_hash() -> None:
    assert dcd_name("my-graph", "Frontend", None) == "my-graph-frontend"
    assert (
        dcd_name("my-graph", "VllmDecodeWorker", "1a2b3c4d") == "my-graph-vllmdecodeworker-1a2b3c4d"
    )


def test_runtime_namespace_replaces_dots_or_is_global() -> None:
    assert runtime_namespace("team", "graph.v2", False) == "team-graph-v2"
    assert runtime_namespace("team", "graph", True) == "dynamo"


def test_service_names_are_lowercase_without_dots() -> None:
    assert service_name("Graph.V2-Frontend") == "graph-v2-frontend"


def test_fnv32a_matches_the_reference_vectors() -> None:
    assert fnv32a(b"") == 0x811C9DC5
    assert fnv32a(b"a") == 0xE40C292C
    assert fnv32a(b"foobar") == 0xBF9CF968


def test_pcs_name_is_the_graph_name_when_it_fits() -> None:
    assert pcs_name("short", [len("frontend")]) == "short"
    assert pcs_name("x" * 37, [8]) == "x" * 37


def test_pcs_name_is_cut_and_hashed_when_too_long() -> None:
    graph = "x" * 38
    name = pcs_name(graph, [8])
    assert name == "x" * 32 + "-" + f"{fnv32a(graph.encode()) & 0xFFFF:04x}"
    assert len(name) == 37


def test_pcs_name_budget_never_drops_below_eight() -> None:
    name = pcs_name("abcdefghijk", [44])
    assert name == "abc-" + f"{fnv32a(b'abcdefghijk') & 0xFFFF:04x}"


def test_model_service_name_is_the_first_8_hex_of_sha256() -> None:
    expected = hashlib.sha256(b"Qwen/Qwen3-0.6B").hexdigest()[:8]
    assert model_service_name("Qwen/Qwen3-0.6B") == f"dynamo-model-{expected}"
