"""Answers of the wrong kind or shape, as a broken proxy or server sends them: each is one
``error:`` line with exit 4, never shown as the graph, never patched, never a traceback; text
that is not valid Unicode is shown with U+FFFD, as kubectl (Go) shows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.apiserver.children import gpu_node
from tests.apiserver.faults import body, matching, watch_lines
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

API = 4
GET_GRAPH = matching(verb="get", resource="dynamographdeployments")
CONFIGMAP = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "my-graph", "namespace": NS},
}


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    (line,) = stderr.splitlines()
    assert line.startswith("error: ")
    return line


def _answer(apiserver: ApiServer, payload: Any, match: Any = GET_GRAPH) -> None:
    apiserver.faults.respond(body(json.dumps(payload).encode()), match)


@pytest.mark.parametrize(
    "answer",
    [{}, CONFIGMAP, graph("another-graph")],
    ids=["empty-object", "a-configmap", "another-graph"],
)
def test_a_get_answered_with_another_object_is_neither_shown_nor_patched(
    apiserver: ApiServer, answer: dict[str, Any]
) -> None:
    apiserver.seed(graph())
    _answer(apiserver, answer)
    status = dgd(apiserver, "status", "my-graph")
    assert status.returncode == API and status.stdout == ""
    line = _one_error_line(status.stderr)
    assert 'the API server answered get dynamographdeployments.nvidia.com "my-graph"' in line
    restart = dgd(apiserver, "restart", "my-graph", "--id", "r1")
    assert restart.returncode == API
    _one_error_line(restart.stderr)
    assert apiserver.requests("patch", "dynamographdeployments") == []


def test_a_list_answered_with_one_object_is_an_error_not_no_resources(
    apiserver: ApiServer,
) -> None:
    _answer(apiserver, graph(), matching(verb="list", resource="dynamographdeployments"))
    result = dgd(apiserver, "list")
    assert result.returncode == API
    assert "No resources found" not in result.stdout + result.stderr
    assert "not a list" in _one_error_line(result.stderr)


def _list_of(*items: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeploymentList",
        "metadata": {"resourceVersion": "1"},
        "items": list(items),
    }


def _with_meta(**meta: Any) -> dict[str, Any]:
    obj = graph()
    obj["metadata"].update(meta)
    return obj


@pytest.mark.parametrize(
    ("args", "verb", "answer"),
    [
        (("list",), "list", _list_of({**graph(), "metadata": [1, 2]})),
        (("list",), "list", _list_of(7)),
        (("status", "my-graph", "-o", "name"), "get", {**graph(), "metadata": None}),
        (("restart", "my-graph", "--id", "r1"), "get", _with_meta(annotations=7)),
        (("status", "my-graph"), "get", _with_meta(labels={"a": 1})),
        (("tree", "my-graph"), "get", _with_meta(creationTimestamp=5)),
    ],
    ids=[
        "list-metadata-a-list",
        "list-item-a-number",
        "status-name-without-metadata",
        "restart-annotations-7",
        "status-label-a-number",
        "tree-creation-timestamp-5",
    ],
)
def test_wrong_shaped_answers_are_one_line(
    apiserver: ApiServer, args: tuple[str, ...], verb: str, answer: dict[str, Any]
) -> None:
    apiserver.seed(graph())
    _answer(apiserver, answer, matching(verb=verb, resource="dynamographdeployments"))
    result = dgd(apiserver, *args)
    assert result.returncode == API, result.stdout + result.stderr
    _one_error_line(result.stderr)
    assert apiserver.requests("patch", "dynamographdeployments") == []


def test_a_child_with_a_wrong_typed_creation_time_is_one_line_in_tree(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    pod = {"metadata": {"name": "p", "namespace": NS, "creationTimestamp": 5}}
    _answer(
        apiserver,
        {"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": [pod]},
        matching(verb="list", resource="pods"),
    )
    result = dgd(apiserver, "tree", "my-graph")
    assert result.returncode == API
    assert "metadata.creationTimestamp is not a string" in _one_error_line(result.stderr)


def test_logs_with_junk_items_in_the_pods_list_is_one_line(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    _answer(
        apiserver,
        {"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": [1, "x", None]},
        matching(verb="list", resource="pods"),
    )
    result = dgd(apiserver, "logs", "my-graph")
    assert result.returncode == API
    _one_error_line(result.stderr)


def _surrogate(payload: dict[str, Any], text: str) -> bytes:
    """``payload`` as JSON with ``text`` written as a lone surrogate escape (\\ud800)."""
    return json.dumps(payload).replace(text, "\\ud800").encode()


def test_lone_surrogates_are_shown_as_replacement_characters(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    broken = graph()
    broken["status"]["conditions"][0]["reason"] = "SURROGATE"
    apiserver.faults.respond(body(_surrogate(broken, "SURROGATE")), GET_GRAPH)
    for output in ("text", "json", "yaml"):
        status = dgd(apiserver, "status", "my-graph", "-o", output)
        assert status.returncode == 0, status.stderr
        assert "\ufffd" in status.stdout or "\\ufffd" in status.stdout, output
    apiserver.faults.clear()
    node = gpu_node("gpu-SURROGATE", 8)
    nodes = {"apiVersion": "v1", "kind": "NodeList", "metadata": {}, "items": [node]}
    apiserver.faults.respond(body(_surrogate(nodes, "SURROGATE")), matching(resource="nodes"))
    gpus = dgd(apiserver, "gpus", "-o", "json")
    assert gpus.returncode == 0, gpus.stderr
    assert json.loads(gpus.stdout)["nodes"][0]["name"] == "gpu-\ufffd"
    event = {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": "e1", "namespace": NS},
        "involvedObject": {"kind": "DynamoGraphDeployment", "name": "my-graph", "namespace": NS},
        "reason": "Odd",
        "message": "bad SURROGATE text",
        "type": "Warning",
        "count": 1,
        "lastTimestamp": "2026-11-01T11:00:00Z",
    }
    apiserver.seed(event)
    raw = {"apiVersion": "v1", "kind": "EventList", "metadata": {}, "items": [event]}
    apiserver.faults.respond(body(_surrogate(raw, "SURROGATE")), matching(resource="events"))
    events = dgd(apiserver, "events", "my-graph")
    assert events.returncode == 0, events.stderr
    assert "bad \ufffd text" in events.stdout


@pytest.mark.parametrize(
    ("resource", "answer"),
    [
        ("deployments", {"kind": "DeploymentList", "items": [1, {"spec": 7}]}),
        (
            "deployments",
            {
                "kind": "DeploymentList",
                "items": [{"metadata": {}, "spec": {"template": {"spec": {"containers": [3]}}}}],
            },
        ),
        (
            "customresourcedefinitions",
            {
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": "dynamographdeployments.nvidia.com"},
                "spec": {"versions": [{"name": "v1beta1", "schema": -1}]},
            },
        ),
    ],
    ids=["operator-deployments-junk-items", "operator-container-a-number", "crd-schema-minus-1"],
)
def test_validate_live_survives_junk_it_only_consults(
    apiserver: ApiServer, tmp_path: Path, resource: str, answer: dict[str, Any]
) -> None:
    """The operator's Deployments and the CRD object only refine validate --live: junk there
    leaves the bundled defaults in charge, as when they cannot be read."""
    apiserver.seed(graph())
    _answer(apiserver, answer, matching(resource=resource))
    path = tmp_path / "graph.yaml"
    manifest = graph()
    manifest.pop("status")
    path.write_text(json.dumps(manifest))
    result = dgd(apiserver, "validate", "--live", str(path))
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr


@pytest.mark.parametrize(
    "event",
    [{"type": "MODIFIED", "object": {}}, {"type": "MODIFIED", "object": CONFIGMAP}],
    ids=["empty-object", "a-configmap"],
)
def test_a_watch_event_of_another_object_is_one_line_not_a_redraw(
    apiserver: ApiServer, event: dict[str, Any]
) -> None:
    apiserver.seed(graph())
    apiserver.faults.respond(watch_lines(json.dumps(event).encode()), matching(verb="watch"))
    result = dgd(apiserver, "status", "my-graph", "--watch", timeout=30)
    assert result.returncode == API
    assert "not the object asked for" in _one_error_line(result.stderr)


def test_a_lone_surrogate_in_a_watch_event_is_shown_as_a_replacement_character(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    changed = graph()
    changed["metadata"]["resourceVersion"] = "999999"
    changed["status"]["conditions"][0]["reason"] = "SURROGATE"
    event = _surrogate({"type": "MODIFIED", "object": changed}, "SURROGATE")
    apiserver.faults.respond(watch_lines(event), matching(verb="watch"), times=1)
    stop = b'{"type": "ERROR", "object": {"kind": "Status", "code": 403, "message": "stop"}}'
    apiserver.faults.respond(watch_lines(stop), matching(verb="watch"), times=1)  # ends it
    result = dgd(apiserver, "status", "my-graph", "--watch", "-o", "yaml", timeout=30)
    assert "Traceback" not in result.stderr
    assert result.returncode == API  # the watch's end, not the surrogate
    assert "\ufffd" in result.stdout
