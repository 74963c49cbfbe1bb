"""-o jsonpath and -o custom-columns on the screens below the graph (tree, why, events, gpus),
applied to exactly what their -o json prints, as on list and status."""

from __future__ import annotations

import json

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd
from tests.cluster.test_events import _setup
from tests.cluster.test_gpus import _two_graphs
from tests.cluster.test_tree import _cluster


def test_tree_jsonpath_walks_the_nested_objects(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    data = json.loads(dgd(apiserver, "tree", "my-graph", "-o", "json").stdout)
    result = dgd(apiserver, "tree", "my-graph", "-o", "jsonpath={.children[*].name}")
    assert result.returncode == 0, result.stderr
    assert result.stdout == " ".join(c["name"] for c in data["children"])
    pods = dgd(apiserver, "tree", "my-graph", "-o", 'jsonpath={..children[?(@.kind=="Pod")].name}')
    assert pods.returncode == 0, pods.stderr
    names = pods.stdout.split()
    assert names and all("-" in n for n in names)


def test_why_jsonpath_prints_the_reasons(apiserver: ApiServer) -> None:
    _cluster(apiserver, gpus=1).settle()  # prefill wants 2 GPUs on one node: it stays Pending
    result = dgd(apiserver, "why", "my-graph", "-o", "jsonpath={.findings[*].reason}")
    assert result.returncode == 1, result.stderr  # the exit code still says a problem was found
    assert "InsufficientGPU" in result.stdout.split()


def test_events_custom_columns(apiserver: ApiServer) -> None:
    _setup(apiserver)
    result = dgd(
        apiserver, "events", "my-graph", "-o", "custom-columns=REASON:.reason,OBJECT:.object"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["REASON", "OBJECT"]
    assert any(line.split()[:1] == ["FailedScheduling"] for line in lines[1:])


def test_gpus_custom_columns_and_jsonpath(apiserver: ApiServer) -> None:
    _two_graphs(apiserver)
    result = dgd(apiserver, "gpus", "-A", "-o", "custom-columns=NODE:.name,FREE:.free")
    assert result.returncode == 0, result.stderr
    assert [line.split() for line in result.stdout.splitlines()] == [
        ["NODE", "FREE"],
        ["gpu-a", "0"],
        ["gpu-b", "4"],
        ["gpu-c", "4"],
    ]
    free = dgd(apiserver, "gpus", "-o", "jsonpath={.total.free}")
    assert (free.returncode, free.stdout) == (0, "8")
