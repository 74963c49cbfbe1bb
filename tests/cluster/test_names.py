"""Names and namespaces are checked before any request (issue 12, item 6): a name is one URL
path segment, never a way to reach another object."""

from __future__ import annotations

import pytest

from kubectl_dgd.adapters.apinames import check_name, check_namespace, segment
from kubectl_dgd.errors import UsageError
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph

TRAVERSAL = "../../../../../../api/v1/namespaces/default/secrets/x"


def _refused(server: ApiServer, *args: str) -> str:
    server.clear_log()
    result = dgd(server, *args)
    assert result.returncode == 2, (args, result)
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert server.requests(include_discovery=True) == []  # nothing reached the server
    assert "restart requested" not in result.stdout
    return result.stderr


def test_a_path_traversal_name_patches_nothing(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    err = _refused(apiserver, "restart", TRAVERSAL, "--parallel")
    assert err.startswith('error: invalid dynamographdeployment name "../../')
    assert "DNS subdomain" in err


@pytest.mark.parametrize(
    "args",
    [
        ("status", "a/b"),
        ("status", "my-graph?watch=true"),
        ("status", "My-Graph"),
        ("status", "x" * 254),
        ("status", "my-graph", "--watch", "--events"),
        ("rollout", "status", "bad%2Fname"),
        ("rollout", "explain", ".."),
        ("restart", "-x-", "--parallel", "--wait"),
    ],
)
def test_bad_names_are_refused_before_any_request(
    apiserver: ApiServer, args: tuple[str, ...]
) -> None:
    if args[1] == "my-graph":  # a good name in a bad namespace
        args = (*args, "-n", "../kube-system")
    _refused(apiserver, *args)


def test_bad_namespaces_are_refused_before_any_request(apiserver: ApiServer) -> None:
    for namespace in ("../default", "a.b", "UPPER", "x" * 64, "ns\x1b[2J"):
        err = _refused(apiserver, "list", "-n", namespace)
        assert "DNS label" in err
        assert "\x1b" not in err  # shown escaped


def test_good_names_still_work(apiserver: ApiServer) -> None:
    apiserver.seed(graph(name="a.b-1"))
    result = dgd(apiserver, "status", "a.b-1", "-o", "name")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "dynamographdeployment.nvidia.com/a.b-1\n"


def test_the_rules_and_the_escaping() -> None:
    assert check_name("a" * 253) and check_name("a.b") and check_namespace("a" * 63)
    for bad in ("", "a..b", "-a", "a-", "a_b", "é"):
        with pytest.raises(UsageError):
            check_name(bad)
    with pytest.raises(UsageError):
        check_namespace("a.b")
    assert segment("../x?y#z") == "..%2Fx%3Fy%23z"
