"""What the cluster says is shown, never obeyed: no control sequence from an object or an API
answer reaches the terminal raw (screen clear, window title, OSC 8 link, C1 CSI, bidi override,
line separator, a fake line), whichever text screen prints it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from tests.apiserver.faults import body, matching
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph, ready_status
from tests.conftest import run_cli

HOSTILE = (
    "\x1b[2J\x1b[H"  # clear the screen
    "\x1b]0;pwned\x07"  # set the window title
    "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"  # OSC 8 link
    "\x9b31m"  # C1 CSI
    "\u202egnp.exe"  # right-to-left override
    "\u2028FAKE LINE\nREADY   1/1"  # line separator and a fake table row
)
# Nothing that starts or steers a sequence may be printed as it is.
RAW = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _hostile_graph() -> dict:  # type: ignore[type-arg]
    comps = [component("Frontend", "frontend"), component("VllmWorker", "worker", gpus=1)]
    obj = graph(components=comps)
    status = ready_status(comps)
    status["state"] = HOSTILE
    for condition in status["conditions"]:
        condition["status"] = "False"
        condition["reason"] = "Bad" + HOSTILE
        condition["message"] = HOSTILE
    status["components"]["VllmWorker"]["componentNames"] = [HOSTILE]
    status["restart"] = {"observedID": HOSTILE, "phase": "Restarting", "inProgress": [HOSTILE]}
    obj["status"] = status
    obj["spec"]["restart"] = {"id": HOSTILE}
    return obj


def _event() -> dict:  # type: ignore[type-arg]
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": "my-graph.1", "namespace": "dynamo"},
        "involvedObject": {
            "kind": "DynamoGraphDeployment",
            "name": "my-graph",
            "namespace": "dynamo",
        },
        "type": "Warning",
        "reason": HOSTILE,
        "message": HOSTILE,
        "lastTimestamp": "2026-11-01T11:58:00Z",
        "count": 2,
    }


def test_status_list_events_and_explain_escape_what_the_cluster_says(apiserver: ApiServer) -> None:
    apiserver.seed(_hostile_graph(), _event())
    for args in (
        ("status", "my-graph"),
        ("status", "my-graph", "-o", "wide"),
        ("status", "my-graph", "--events"),
        ("list",),
        ("list", "-o", "wide"),
        ("rollout", "explain", "my-graph"),
        ("rollout", "status", "my-graph", "--watch=false"),
    ):
        result = dgd(apiserver, *args)
        for stream in (result.stdout, result.stderr):
            assert not RAW.search(stream), (
                args,
                sorted({hex(ord(c)) for c in RAW.findall(stream)}),
            )
        assert "\\x1b" in result.stdout + result.stderr, args  # shown, as an escape
        # No line of the output starts with the injected fake row.
        assert not any(
            line.lstrip().startswith(("FAKE LINE", "READY   1/1"))
            for line in result.stdout.splitlines()
        ), args


def test_json_keeps_the_values_as_they_are(apiserver: ApiServer) -> None:
    # Machine formats carry the data unchanged (JSON escapes control characters itself).
    apiserver.seed(_hostile_graph())
    result = dgd(apiserver, "status", "my-graph", "-o", "json")
    assert json.loads(result.stdout)["state"] == HOSTILE


def test_an_api_error_body_is_escaped_on_stderr(apiserver: ApiServer) -> None:
    status = {
        "kind": "Status",
        "apiVersion": "v1",
        "status": "Failure",
        "message": "denied " + HOSTILE,
        "reason": "Forbidden",
        "code": 403,
    }
    apiserver.faults.respond(body(json.dumps(status).encode(), 403), matching("get"), times=None)
    result = dgd(apiserver, "status", "my-graph")
    assert result.returncode == 4
    assert not RAW.search(result.stderr), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_validate_escapes_c1_bidi_and_line_separators(tmp_path: Path) -> None:
    obj = graph()
    del obj["status"]
    # A name the schema rejects: its message quotes the value.
    obj["spec"]["components"][0]["name"] = "Front\u202eend\x9b\u2028x"
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(obj, allow_unicode=True))
    result = run_cli("validate", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "\\u202e" in result.stdout, result.stdout
    assert not RAW.search(result.stdout + result.stderr), result.stdout
