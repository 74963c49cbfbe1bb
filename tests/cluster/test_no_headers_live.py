"""``--no-headers`` on the tables of live graphs below the graph: tree and events (issue 10)."""

from __future__ import annotations

import pytest

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd
from tests.cluster.test_tree import _cluster


@pytest.mark.parametrize(("command", "header"), [("tree", "NAME"), ("events", "LAST SEEN")])
def test_no_headers_leaves_out_the_header_row_only(
    apiserver: ApiServer, command: str, header: str
) -> None:
    _cluster(apiserver).settle()
    with_headers = dgd(apiserver, command, "my-graph")
    without = dgd(apiserver, command, "my-graph", "--no-headers")
    assert (with_headers.returncode, without.returncode) == (0, 0), without.stderr
    first, *rows = with_headers.stdout.splitlines()
    assert first.startswith(header) and rows
    assert [r.split() for r in without.stdout.splitlines()] == [r.split() for r in rows]
