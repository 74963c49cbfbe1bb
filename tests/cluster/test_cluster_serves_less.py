"""A cluster that serves less than the tests' usual one: no nodes endpoint (404), DCDs only at a
newer version, deprecation ``Warning`` headers. The commands degrade to one note, use what
discovery says is served, and print the server's warnings as kubectl does."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path

from tests.apiserver import discovery
from tests.apiserver.children import gpu_node
from tests.apiserver.faults import body, matching
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.resources import DCD, DGD
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

CHILDREN_CREATED = datetime(2026, 11, 1, 11, 0, tzinfo=UTC)
NO_NODES = json.dumps(
    {
        "kind": "Status",
        "apiVersion": "v1",
        "status": "Failure",
        "message": "the server could not find the requested resource",
        "reason": "NotFound",
        "code": 404,
    }
).encode()
SKIPPED_NODES = "warning: GPU peak check skipped: nodes not found"
DEPRECATED = (
    "nvidia.com/v1alpha1 DynamoComponentDeployment is deprecated; "
    "use nvidia.com/v1beta1 DynamoComponentDeployment"
)


def _without_nodes(apiserver: ApiServer) -> None:
    apiserver.faults.respond(body(NO_NODES, 404), matching(resource="nodes"))


def _settled(apiserver: ApiServer) -> OperatorSim:
    apiserver.store.clock = lambda: CHILDREN_CREATED
    for name in ("gpu-a", "gpu-b", "gpu-c"):
        apiserver.seed(gpu_node(name, 8))
    apiserver.seed(graph())
    sim = OperatorSim(apiserver.store, children=True)
    sim.settle()
    return sim


def test_restart_wait_without_a_nodes_endpoint_restarts_once_and_exits_0(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(graph())
    _without_nodes(apiserver)
    operator_sim.start()
    result = dgd(apiserver, "restart", "my-graph", "--id", "w1", "--wait", "--timeout", "30s")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("restart w1 completed\n")
    notes = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(notes) == 1 and notes[0].startswith(SKIPPED_NODES), result.stderr
    assert len(apiserver.requests("patch", "dynamographdeployments")) == 1


def test_restart_dry_run_without_a_nodes_endpoint_exits_0_with_one_note(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    _without_nodes(apiserver)
    result = dgd(apiserver, "restart", "my-graph", "--id", "r1", "--dry-run")
    assert result.returncode == 0, result.stderr
    (note,) = result.stderr.splitlines()
    assert note.startswith(SKIPPED_NODES)
    assert apiserver.requests("patch", "dynamographdeployments") == []


def test_diff_without_a_nodes_endpoint_exits_as_without_the_check(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    _settled(apiserver)
    live = apiserver.store.get(DGD, NS, "my-graph")
    new = copy.deepcopy(live)
    new.pop("status")
    for key in ("uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"):
        new["metadata"].pop(key, None)
    new["spec"]["components"][2]["podTemplate"]["spec"]["containers"][0]["resources"]["limits"][
        "nvidia.com/gpu"
    ] = "4"
    path = tmp_path / "new.yaml"
    path.write_text(json.dumps(new))
    _without_nodes(apiserver)
    result = dgd(apiserver, "diff", "-f", str(path))
    assert result.returncode == 1, result.stderr  # differences found, as documented
    assert "managed rolling update" in result.stdout
    (note,) = result.stderr.splitlines()
    assert note.startswith(SKIPPED_NODES)


def test_tree_lists_dcds_at_the_version_discovery_says_is_served(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.store.serve_at(DCD, "v1beta1")
    apiserver.clear_log()
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "dcd/my-graph-decode-" in result.stdout
    assert "pod/my-graph-decode-" in result.stdout
    (dcds,) = [r for r in apiserver.request_log if r.resource == "dynamocomponentdeployments"]
    assert dcds.path == f"/apis/nvidia.com/v1beta1/namespaces/{NS}/dynamocomponentdeployments"


def test_the_servers_warning_headers_are_printed_once_on_stderr(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.faults.warn(DEPRECATED, lambda r: "/nvidia.com/v1alpha1/" in r.path)
    apiserver.faults.warn('say "hi" \\ twice', matching(resource="pods"))
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"Warning: {DEPRECATED}",
        'Warning: say "hi" \\ twice',
    ]
    # the answers of every command are read for them, once per text and process
    twice = dgd(apiserver, "events", "my-graph")
    assert twice.stderr.splitlines().count(f"Warning: {DEPRECATED}") == 1


def _apis(record: object) -> bool:
    return getattr(record, "path", "") == "/apis"


def test_without_aggregated_discovery_only_the_groups_asked_for_are_read(
    apiserver: ApiServer,
) -> None:
    """An API server before 1.30 (or a proxy) answers /apis with the plain group list: the
    tree then reads the resource list of the groups it needs, not every group's."""
    _settled(apiserver)
    legacy = discovery.api_group_list(apiserver.visible_types())
    apiserver.faults.respond(body(json.dumps(legacy).encode()), _apis)
    apiserver.clear_log()
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "dcd/my-graph-decode-" in result.stdout and result.stderr == ""
    read = sorted(r.path for r in apiserver.request_log if r.is_discovery)
    assert read == [
        "/apis",
        "/apis/apps/v1",
        "/apis/nvidia.com/v1alpha1",
        "/apis/nvidia.com/v1beta1",
    ]
    assert not [r for r in apiserver.request_log if "grove" in r.path or "leaderworker" in r.path]


def test_when_discovery_fails_every_kind_is_asked_for_once(apiserver: ApiServer) -> None:
    _settled(apiserver)
    apiserver.faults.respond(body(b"{}", 503), _apis)
    apiserver.clear_log()
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "pod/my-graph-decode-" in result.stdout and result.stderr == ""
    assert len([r for r in apiserver.request_log if r.is_discovery]) == 1
    assert len([r for r in apiserver.request_log if r.verb == "list"]) == 8
