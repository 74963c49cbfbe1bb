"""A graph from a newer operator still shows: `status` does not refuse a backendFramework the
bundled CRD enum does not know (issue 12, lower)."""

from __future__ import annotations

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph


def test_status_shows_a_graph_with_a_backend_newer_than_the_bundled_enum(
    apiserver: ApiServer,
) -> None:
    newer = graph()
    newer["spec"]["backendFramework"] = "mlx"
    apiserver.seed(newer)
    result = dgd(apiserver, "status", "my-graph", "-o", "json")
    assert result.returncode == 0, result.stderr  # before: "Input should be 'sglang', ..." (2)
    assert '"backend": "mlx"' in result.stdout
