"""Timeouts, retries, pagination and wrong-shaped answers (issue 12, items 8 and 11), each as a
user meets them: the console script against a misbehaving test API server."""

from __future__ import annotations

import json
import time
from pathlib import Path

import yaml

from tests.apiserver.faults import (
    SilentListener,
    body,
    drip,
    drip_headers,
    matching,
    stall_after_headers,
    watch_lines,
)
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph

API = 4
GET = matching(verb="get")


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    return stderr


def _timed(server: ApiServer, *args: str) -> tuple[float, str, int]:
    started = time.monotonic()
    result = dgd(server, *args, timeout=60)
    return time.monotonic() - started, _one_line(result.stderr), result.returncode


def test_request_timeout_cuts_off_a_server_dripping_a_byte_every_half_second(
    apiserver: ApiServer,
) -> None:
    apiserver.faults.respond(drip(json.dumps(graph()).encode(), 0.5), GET)
    elapsed, err, code = _timed(apiserver, "status", "my-graph", "--request-timeout", "2s")
    assert code == API
    assert "timed out after 2s (--request-timeout)" in err
    assert elapsed < 8  # before: never (each byte arrives within the read timeout)


def test_request_timeout_cuts_off_a_body_that_stalls_after_the_headers(
    apiserver: ApiServer,
) -> None:
    apiserver.faults.respond(stall_after_headers(60), GET)
    elapsed, err, code = _timed(apiserver, "status", "my-graph", "--request-timeout", "2s")
    assert code == API
    assert "timed out after 2s" in err
    assert elapsed < 8


def test_request_timeout_is_a_deadline_for_retries_too(apiserver: ApiServer) -> None:
    too_many = body(b'{"kind": "Status", "code": 429}', 429, {"Retry-After": "10"})
    apiserver.faults.respond(too_many, GET)
    elapsed, err, code = _timed(apiserver, "status", "my-graph", "--request-timeout", "2s")
    assert code == API
    assert "the server asked to retry after 10s" in err
    assert elapsed < 8  # before: 50 s (five retries of 10 s)


def test_retry_after_nan_is_not_a_number_of_seconds(apiserver: ApiServer) -> None:
    apiserver.faults.respond(body(b"{}", 429, {"Retry-After": "nan"}), GET, times=1)
    _, err, code = _timed(apiserver, "status", "my-graph")
    assert code == API
    assert "429" in err
    assert len(apiserver.requests("get")) == 1  # no retry on a wait that is not a number


def test_a_server_that_accepts_and_never_answers_is_given_up_on(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    assert apiserver.kubeconfig is not None
    config = yaml.safe_load(apiserver.kubeconfig.read_text())
    with SilentListener() as silent:
        config["clusters"][0]["cluster"]["server"] = silent.url
        path = tmp_path / "silent"
        path.write_text(yaml.safe_dump(config))
        started = time.monotonic()
        result = dgd(apiserver, "status", "my-graph", "--kubeconfig", str(path), timeout=60)
    assert result.returncode == API
    _one_line(result.stderr)
    assert time.monotonic() - started < 30  # before: forever (no flag, no bound)


def test_wrong_shaped_api_json_is_one_line(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    for payload in (b"[1, 2]", b'"text"', b"null", b'{"metadata": []}', b'{"spec": 1}', b"["):
        apiserver.faults.clear()
        apiserver.faults.respond(body(payload), GET)
        for args in (("status", "my-graph"), ("restart", "my-graph", "--parallel")):
            result = dgd(apiserver, *args)
            assert result.returncode == API, (payload, args, result)
            _one_line(result.stderr)


def test_list_pages_with_limit_and_continue(apiserver: ApiServer) -> None:
    names = [f"g-{i:04d}" for i in range(1203)]
    apiserver.seed(*(graph(name=name) for name in names))
    apiserver.clear_log()
    result = dgd(apiserver, "list", "-o", "name")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"dynamographdeployment.nvidia.com/{n}" for n in names]
    pages = apiserver.requests("list")
    assert [r.query.get("limit") for r in pages] == [["500"]] * 3
    assert [bool(r.query.get("continue")) for r in pages] == [False, True, True]


def test_a_repeated_continue_token_ends_the_list(apiserver: ApiServer) -> None:
    loop = {"kind": "DynamoGraphDeploymentList", "metadata": {"continue": "again"}, "items": []}
    apiserver.faults.respond(body(json.dumps(loop).encode()), matching(verb="list"))
    _, err, code = _timed(apiserver, "list")
    assert code == API
    assert "repeated a continue token" in err


def test_request_timeout_cuts_off_headers_dripped_a_byte_every_half_second(
    apiserver: ApiServer,
) -> None:
    apiserver.faults.respond(drip_headers(json.dumps(graph()).encode(), 0.5), GET)
    elapsed, err, code = _timed(apiserver, "status", "my-graph", "--request-timeout", "3s")
    assert code == API
    assert "timed out after 3s (--request-timeout)" in err
    assert elapsed < 6  # before: 2 minutes (each header byte came within the read timeout)


def test_restart_wait_ends_at_its_timeout_when_the_server_holds_the_watch_open(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    # A watch that says nothing and never ends, whatever timeoutSeconds asked for.
    apiserver.faults.respond(watch_lines(then_hold=60), matching(verb="watch"))
    started = time.monotonic()
    result = dgd(apiserver, "restart", "my-graph", "--id", "h", "--wait", "--timeout", "3s")
    elapsed = time.monotonic() - started
    assert result.returncode == 1, result.stderr
    assert "timed out" in result.stderr
    assert elapsed < 6.5  # before: 8 s and more (the watch's read timeout, 5 s past the window)
