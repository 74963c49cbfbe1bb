"""The live commands as a namespace-scoped user (tests/cluster/access.py): each shows what the
account can read and says in one note what it could not, never "nothing found" for what it could
not read, and never warns about kinds the cluster does not serve (discovery, which every account
may read, says which are)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from tests.apiserver.children import gpu_node
from tests.apiserver.faults import Access, Rule, matching, watch_lines
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.server import ApiServer
from tests.cluster.access import NAMESPACE_SCOPED_USER
from tests.cluster.conftest import NS, dgd, graph

CHILDREN_CREATED = datetime(2026, 11, 1, 11, 0, tzinfo=UTC)
API = 4


def _settled(apiserver: ApiServer) -> None:
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b", "gpu-c"):
        apiserver.seed(gpu_node(name, 8))
    apiserver.seed(graph())
    OperatorSim(apiserver.store, children=True).settle()


def _kinds(node: dict[str, object]) -> set[str]:
    found = {str(node["kind"])}
    for child in node["children"]:  # type: ignore[attr-defined]
        found |= _kinds(child)
    return found


def test_status_events_without_events_access_shows_the_status_and_one_note(
    apiserver: ApiServer,
) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER.without("events"))
    result = dgd(apiserver, "status", "my-graph", "--events")
    assert result.returncode == 0, result.stderr
    assert "my-graph" in result.stdout and "decode" in result.stdout
    (note,) = result.stderr.splitlines()
    assert note.startswith("warning: Events not shown: forbidden (403): not allowed to list events")


def test_status_watch_events_without_events_access_says_so_once(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER.without("events"))
    changed = apiserver.store.get(_dgd(apiserver), NS, "my-graph")
    changed["metadata"]["resourceVersion"] = "999999"
    event = json.dumps({"type": "MODIFIED", "object": changed}).encode()
    stop = b'{"type": "ERROR", "object": {"kind": "Status", "code": 403, "message": "stop"}}'
    watch = matching(verb="watch")
    apiserver.faults.respond(watch_lines(event), watch, times=1)  # one redraw, then the end
    apiserver.faults.respond(watch_lines(stop), watch)
    result = dgd(apiserver, "status", "my-graph", "--events", "--watch", timeout=30)
    assert result.stdout.count("my-graph") >= 2, result.stdout  # drawn, and drawn again
    notes = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(notes) == 1 and notes[0].startswith("warning: Events not shown: forbidden (403)")


def test_events_without_events_access_says_it_could_not_read_them(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER.without("events"))
    result = dgd(apiserver, "events", "my-graph")
    assert result.returncode == API
    assert "No events found" not in result.stdout + result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: forbidden (403): not allowed to list events")


def test_events_with_access_are_listed_without_a_word_about_grove_or_lws(
    apiserver: ApiServer,
) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER)
    result = dgd(apiserver, "events", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "grove" not in result.stdout + result.stderr
    assert "leaderworkerset" not in result.stdout + result.stderr


def test_tree_without_dcd_access_shows_what_the_dcds_own_and_one_note(
    apiserver: ApiServer,
) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER.without("dynamocomponentdeployments"))
    result = dgd(apiserver, "tree", "my-graph", "-o", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"Component", "Deployment", "ReplicaSet", "Pod"} <= _kinds(data)
    (warning,) = data["warnings"]
    assert warning.startswith("forbidden (403): not allowed to list dynamocomponentdeployments")
    decode = next(c for c in data["children"] if c["name"] == "decode")
    (stand_in,) = decode["children"]
    assert stand_in["kind"] == "DynamoComponentDeployment"
    assert stand_in["status"] == "Unknown"
    assert stand_in["name"].startswith("my-graph-decode")


def test_tree_and_why_say_nothing_of_kinds_the_cluster_does_not_serve(
    apiserver: ApiServer,
) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER)
    tree = dgd(apiserver, "tree", "my-graph")
    assert tree.returncode == 0, tree.stderr
    assert "warning" not in tree.stdout + tree.stderr
    assert "pod/my-graph-decode-" in tree.stdout
    asked = {r.resource for r in apiserver.request_log if r.verb == "list"}
    assert not asked & {"podcliques", "podcliquesets", "podcliquescalinggroups", "leaderworkersets"}
    why = dgd(apiserver, "why", "my-graph")
    assert "grove" not in why.stdout + why.stderr
    assert "leaderworkerset" not in why.stdout + why.stderr


def test_restart_wait_without_watch_access_restarts_once_and_says_it_was_requested(
    apiserver: ApiServer,
) -> None:
    """A Role without ``watch``: the restart is written, following it fails. Exit 1, as a wait
    that times out, not 4 (an API failure, which a retrying script takes for nothing done)."""
    apiserver.seed(graph())
    rules = [
        (r.api_groups, r.resources, tuple(v for v in r.verbs if v != "watch"))
        for r in NAMESPACE_SCOPED_USER.rules
    ]
    apiserver.faults.grant_only(Access(NS, tuple(Rule(*rule) for rule in rules)))
    result = dgd(apiserver, "restart", "my-graph", "--id", "w1", "--wait", "--timeout", "10s")
    assert result.returncode == 1
    assert len(apiserver.requests("patch", "dynamographdeployments")) == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: restart w1 was requested, but following it failed: forbidden (403): not allowed "
        'to watch dynamographdeployments.nvidia.com "my-graph" in namespace "dynamo": '
        'dynamographdeployments.nvidia.com is forbidden: User "dgd-tester" cannot watch resource '
        '"dynamographdeployments" in API group "nvidia.com" in the namespace "dynamo"'
    ]


def _dgd(apiserver: ApiServer) -> Any:
    rt = apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return rt


def test_why_names_every_list_it_was_refused_in_one_note(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.faults.grant_only(NAMESPACE_SCOPED_USER)
    result = dgd(apiserver, "why", "my-graph")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "warning: forbidden (403): this account may not list persistentvolumeclaims, secrets, "
        'configmaps, serviceaccounts in namespace "dynamo"; what needs them was not judged'
    ]
