"""A graph NAME that is not there, on the real control plane through the console script: the
near names of the namespace ("did you mean"), the other namespaces that hold it ("found in
namespace X") for an account that may list every namespace, and for the namespace-scoped user
the plain line: no 403 warning, one request more than the names, no retry. Exit 3 throughout.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Iterator

import pytest

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.rest import Rest, RestError

NOT_FOUND = 3

# Every command that takes a graph NAME, with what it needs besides.
COMMANDS = [
    ("status", "{}"),
    ("status", "{}", "-w"),
    ("tree", "{}"),
    ("why", "{}"),
    ("logs", "{}"),
    ("events", "{}"),
    ("rollout", "status", "{}"),
    ("rollout", "explain", "{}"),
    ("restart", "{}", "--parallel"),
    ("history", "{}"),
    ("undo", "{}"),
    ("abort", "{}"),
    ("upgrade-check", "{}", "--to", "1.6"),
]


@pytest.fixture
def other_namespace(admin_rest: Rest) -> Iterator[str]:
    """A second namespace, where only the administrator may look, holding a graph."""
    name = f"t-{uuid.uuid4().hex[:10]}"
    admin_rest.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    try:
        yield name
    finally:
        with contextlib.suppress(RestError):
            admin_rest.delete("Namespace", name)


def _unique_graph(admin_rest: Rest, namespace: str) -> str:
    name = f"elsewhere-{uuid.uuid4().hex[:8]}"
    admin_rest.create(
        scenarios.graph(name, scenarios.component("Frontend", "frontend"), namespace=namespace)
    )
    return name


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_taking_a_name_says_the_near_names(
    real_ns: RealNamespace, command: tuple[str, ...]
) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    args = [arg.format("helthy") for arg in command]
    done = real_ns.kdgd(*args, subprocess=True)
    assert (done.returncode, done.stdout) == (NOT_FOUND, ""), done.stderr
    assert done.stderr == (
        f'error: dynamographdeployments.nvidia.com "helthy" in namespace "{real_ns.name}" '
        "not found; did you mean healthy?\n"
    )


@pytest.mark.parametrize("who", ["admin", "dev"])
def test_a_name_far_from_every_graph_lists_those_there(real_ns: RealNamespace, who: str) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    done = real_ns.kdgd("tree", "decode-worker", who=who, subprocess=True)
    assert done.returncode == NOT_FOUND
    assert done.stderr == (
        f'error: dynamographdeployments.nvidia.com "decode-worker" in namespace "{real_ns.name}" '
        "not found; graphs there: healthy\n"
    )


def test_the_administrator_hears_which_namespace_holds_it(
    real_ns: RealNamespace, admin_rest: Rest, other_namespace: str
) -> None:
    name = _unique_graph(admin_rest, other_namespace)
    done = real_ns.kdgd("why", name, subprocess=True)
    assert (done.returncode, done.stdout) == (NOT_FOUND, "")
    assert done.stderr == (
        f'error: dynamographdeployments.nvidia.com "{name}" in namespace "{real_ns.name}" not '
        "found; the namespace has no graphs (the DynamoGraphDeployment CRD is installed; check "
        f"-n); found in namespace {other_namespace} (-n {other_namespace})\n"
    )
    moved = real_ns.kdgd("status", name, "-n", other_namespace, subprocess=True)
    assert moved.returncode == 0, moved.stderr


def test_the_namespace_scoped_user_gets_the_plain_line_after_one_refused_request(
    real_ns: RealNamespace, admin_rest: Rest, other_namespace: str
) -> None:
    name = _unique_graph(admin_rest, other_namespace)
    real_ns.create(scenarios.healthy(real_ns.name))
    done = real_ns.kdgd("status", name, "-v", who="dev", subprocess=True)
    assert (done.returncode, done.stdout) == (NOT_FOUND, "")
    lines = done.stderr.splitlines()
    assert lines[-1] == (
        f'error: dynamographdeployments.nvidia.com "{name}" in namespace "{real_ns.name}" not '
        "found; graphs there: healthy"
    )
    assert not [line for line in lines if line.startswith(("warning:", "note:"))]
    requests = [line.split()[:3] for line in lines[:-1]]
    graphs = "/apis/nvidia.com/v1beta1"
    ns = f"{graphs}/namespaces/{real_ns.name}/dynamographdeployments"
    wide = [r for r in requests if re.search(rf"{graphs}/dynamographdeployments\?", r[1])]
    # the GET, the 404's discovery, the namespace's names, then the one cluster-wide LIST,
    # refused once and not asked again
    assert [r[0] for r in requests] == ["GET"] * 4, requests
    assert requests[0][1].endswith(f"{ns}/{name}") and requests[0][2] == "404"
    assert requests[2][1].split("?")[0].endswith(ns) and requests[2][2] == "200"
    assert wide == [requests[3]] and requests[3][2] == "403", requests
