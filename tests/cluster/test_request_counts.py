"""API requests per command (the performance targets): status NAME 1, list 1, restart 2 without --wait."""

from __future__ import annotations

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("status", "my-graph"), ["get"]),
        (("status",), ["list"]),
        (("list", "-A"), ["list"]),
        (("restart", "my-graph", "--parallel"), ["get", "patch"]),
        (("restart", "my-graph", "--dry-run"), ["get", "list"]),  # + the GPU check: nodes
        (("rollout", "status", "my-graph"), ["get"]),
        (("status", "my-graph", "--events"), ["get", "list"]),
        (("status", "my-graph", "-o", "json"), ["get"]),
        (("status", "my-graph", "-o", "name"), ["get"]),
        (("list", "-o", "yaml", "-l", "team!=x"), ["list"]),
        (("list", "-o", "name", "--no-headers"), ["list"]),
        (("rollout", "explain", "my-graph"), ["get"]),
        (("rollout", "status", "my-graph", "--watch=false"), ["get"]),
    ],
)
def test_request_count_per_command(
    apiserver: ApiServer, args: tuple[str, ...], expected: list[str]
) -> None:
    apiserver.seed(graph())
    apiserver.clear_log()
    result = dgd(apiserver, *args)
    assert result.returncode == 0, result.stderr
    assert [r.verb for r in apiserver.request_log] == expected  # discovery included: none


def test_not_found_adds_one_discovery_and_the_two_lists_of_near_names(
    apiserver: ApiServer,
) -> None:
    # discovery (is the CRD installed?), then the namespace's names and the cluster-wide LIST
    # narrowed to the name (usecases/graph_lookup.py): the same count whatever the graphs
    dgd(apiserver, "status", "ghost")
    assert [r.verb for r in apiserver.request_log] == ["get", "discovery", "list", "list"]
