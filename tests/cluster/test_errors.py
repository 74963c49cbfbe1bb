"""Every API failure is one line on stderr with a documented exit code, never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver.faults import matching
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph

NOT_FOUND, API = 3, 4


def assert_one_line(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


def edited_kubeconfig(
    server: ApiServer, tmp_path: Path, cluster: dict, user: dict | None = None
) -> str:
    assert server.kubeconfig is not None
    config = yaml.safe_load(server.kubeconfig.read_text())
    config["clusters"][0]["cluster"] = cluster
    if user is not None:
        config["users"][0]["user"] = user
    path = tmp_path / "edited-kubeconfig"
    path.write_text(yaml.safe_dump(config))
    return str(path)


def test_unreachable_server(apiserver: ApiServer, tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path = edited_kubeconfig(apiserver, tmp_path, {"server": f"https://127.0.0.1:{port}"})
    result = dgd(apiserver, "status", "my-graph", "--kubeconfig", path)
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert f"cannot reach the API server at https://127.0.0.1:{port}" in result.stderr


def test_tls_failure_when_the_server_certificate_is_not_trusted(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    # No CA data: the test server's throwaway CA is unknown (or, over HTTP, TLS fails outright).
    path = edited_kubeconfig(apiserver, tmp_path, {"server": f"https://{apiserver.address}"})
    result = dgd(apiserver, "status", "my-graph", "--kubeconfig", path)
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "TLS error" in result.stderr
    # the innermost reason only, without the closing quotes and brackets of urllib3's wrappers
    assert result.stderr.count("(") == result.stderr.count(")"), result.stderr
    assert not result.stderr.rstrip().endswith("'"), result.stderr


def test_unauthorized_names_the_server(apiserver: ApiServer, tmp_path: Path) -> None:
    if not apiserver.use_tls:
        pytest.skip("over plain HTTP the test server does not check tokens")
    assert apiserver.kubeconfig is not None
    cluster = yaml.safe_load(apiserver.kubeconfig.read_text())["clusters"][0]["cluster"]
    path = edited_kubeconfig(apiserver, tmp_path, cluster, {"token": "wrong"})
    result = dgd(apiserver, "status", "my-graph", "--kubeconfig", path)
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "unauthorized (401)" in result.stderr and apiserver.url in result.stderr


def test_forbidden_names_verb_and_resource(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.faults.forbid("patch")
    result = dgd(apiserver, "restart", "my-graph", "--parallel")
    assert result.returncode == API
    assert (
        'error: forbidden (403): not allowed to patch dynamographdeployments.nvidia.com "my-graph" '
        'in namespace "dynamo"'
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_not_found_with_the_crd_installed(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "status", "ghost")
    assert result.returncode == NOT_FOUND
    assert_one_line(result.stderr)
    assert (
        'dynamographdeployments.nvidia.com "ghost" in namespace "dynamo" not found' in result.stderr
    )
    assert "CRD is installed" in result.stderr


def test_not_found_says_when_the_crd_is_not_installed(apiserver: ApiServer) -> None:
    apiserver.uninstall_crd()
    result = dgd(apiserver, "status", "ghost")
    assert result.returncode == NOT_FOUND
    assert_one_line(result.stderr)
    assert (
        "CRD (dynamographdeployments.nvidia.com) is not installed in this cluster" in result.stderr
    )
    listing = dgd(apiserver, "list")
    assert listing.returncode == NOT_FOUND
    assert "not installed" in listing.stderr


def test_conflict_that_persists_after_retries(apiserver: ApiServer) -> None:
    apiserver.seed(graph())

    def other_writer(_record: object) -> None:
        apiserver.store.patch(
            apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments"),
            "dynamo",
            "my-graph",
            lambda obj: {
                **obj,
                "metadata": {
                    **obj["metadata"],
                    "labels": {"touched": str(len(apiserver.request_log))},
                },
            },
        )

    apiserver.faults.before(other_writer, matching("patch"), times=100)
    result = dgd(apiserver, "restart", "my-graph", "--parallel")
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "conflict (409)" in result.stderr
    assert len(apiserver.requests("patch")) == 5  # bounded retries


def test_invalid_shows_the_api_message(apiserver: ApiServer) -> None:
    apiserver.seed(graph())

    def webhook(
        operation: str, rt: object, old: object, new: dict
    ) -> list[tuple[str, str, str]] | None:
        if operation == "UPDATE" and (new.get("spec") or {}).get("restart"):
            return [
                (
                    "spec.restart.id",
                    "FieldValueInvalid",
                    'spec.restart.id: Invalid value: "x": denied by test',
                )
            ]
        return None

    apiserver.store.validators.append(webhook)
    result = dgd(apiserver, "restart", "my-graph", "--parallel")
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "rejected by the API server (422)" in result.stderr
    assert "denied by test" in result.stderr


def test_server_error(apiserver: ApiServer) -> None:
    apiserver.faults.fail_next(1, 503)
    result = dgd(apiserver, "list")
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "API server error (503" in result.stderr


@pytest.fixture
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The seconds the commands' cluster clients wait before a retry, recorded, not slept."""
    from kubectl_dgd.adapters import cluster

    waits: list[float] = []

    class RecordingCluster(cluster.Cluster):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs, sleep=waits.append)

    monkeypatch.setattr(cluster, "Cluster", RecordingCluster)
    return waits


def test_too_many_requests_is_asked_again_after_retry_after(
    apiserver: ApiServer, retry_waits: list[float]
) -> None:
    """API Priority and Fairness answers 429 with Retry-After; client-go (kubectl) waits and
    asks again, and so do we, for reads and for the restart patch."""
    apiserver.seed(graph())
    apiserver.faults.fail_next(2, 429)
    result = dgd(apiserver, "status", "my-graph")
    assert result.returncode == 0, result.stderr
    assert [r.verb for r in apiserver.request_log] == ["get", "get", "get"]
    assert retry_waits == [1.0, 1.0]  # the server's Retry-After: 1, before each new try
    apiserver.clear_log()
    apiserver.faults.fail_next(1, 429, matching(verb="patch"))
    restarted = dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "r1")
    assert restarted.returncode == 0, restarted.stderr
    assert [r.verb for r in apiserver.request_log] == ["get", "patch", "patch"]
    assert retry_waits == [1.0, 1.0, 1.0]


def test_too_many_requests_gives_up_after_bounded_retries(
    apiserver: ApiServer, retry_waits: list[float]
) -> None:
    apiserver.faults.fail_next(100, 429)
    result = dgd(apiserver, "list")
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "429 Too Many Requests" in result.stderr
    assert len(apiserver.requests("list")) == 6  # the first try and 5 more
    assert retry_waits == [1.0] * 5  # a wait before each retry, none after the last answer


def test_request_timeout(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.faults.delay(3.0)
    result = dgd(apiserver, "status", "my-graph", "--request-timeout", "500ms")
    assert result.returncode == API
    assert_one_line(result.stderr)
    assert "timed out after 0.5s" in result.stderr


def test_verbose_shows_each_request(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "status", "my-graph", "-v")
    assert result.returncode == 0
    assert (
        f"GET {apiserver.url}/apis/nvidia.com/v1beta1/namespaces/dynamo/dynamographdeployments/my-graph 200"
        in result.stderr
    )


def test_kubectl_verbosity_levels_are_accepted(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    for flag in ("-v=6", "--v=8"):
        result = dgd(apiserver, "status", "my-graph", flag)
        assert result.returncode == 0, result.stderr
        assert "/dynamographdeployments/my-graph 200" in result.stderr


def test_unknown_context_is_a_usage_error(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "status", "my-graph", "--context", "nope")
    assert result.returncode == 2
    assert 'context "nope" does not exist' in result.stderr
