"""Credentials and hostile kubeconfigs (issue 12, items 4 and 7): credentials only over TLS, an
auth failure stops before any request, every kubeconfig problem is one line without a secret."""

from __future__ import annotations

import json
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver.faults import body, matching
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

TOKEN = "s3cr3t-token-value-never-printed"


@pytest.fixture
def plain_http(tmp_path: Path) -> Iterator[ApiServer]:
    server = ApiServer(use_tls=False, token=TOKEN).start()
    server.install_crd()
    server.store.ensure_namespace(NS)
    server.write_kubeconfig(tmp_path / "kubeconfig", namespace=NS)
    try:
        yield server
    finally:
        server.stop()


def _user(server: ApiServer, tmp_path: Path, user: dict[str, Any], name: str = "cfg") -> str:
    assert server.kubeconfig is not None
    config = yaml.safe_load(server.kubeconfig.read_text())
    config["users"][0]["user"] = user
    path = tmp_path / name
    path.write_text(yaml.safe_dump(config))
    return str(path)


def _fails_before_any_request(server: ApiServer, kubeconfig: str, code: int, *extra: str) -> str:
    server.clear_log()
    result = dgd(server, "status", "my-graph", "--kubeconfig", kubeconfig, *extra)
    assert result.returncode == code, result
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert server.requests(include_discovery=True) == []
    return result.stderr


def test_no_bearer_token_over_plain_http(plain_http: ApiServer) -> None:
    plain_http.seed(graph())
    seen: list[str | None] = []
    answer = body(json.dumps(graph()).encode())

    def respond(handler: Any) -> None:
        seen.append(handler.headers.get("Authorization"))
        answer(handler)

    plain_http.faults.respond(respond, matching(verb="get"))
    result = dgd(plain_http, "status", "my-graph", "-o", "name")
    assert result.returncode == 0, result.stderr
    assert seen == [None]  # before: "Bearer s3cr3t-..." in clear text


def test_an_exec_plugin_that_fails_stops_before_any_request(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    config = _user(apiserver, tmp_path, {"exec": {"command": "false", "apiVersion": "v1"}})
    err = _fails_before_any_request(apiserver, config, 4)
    assert "getting credentials" in err and "failed with exit code 1" in err


def test_an_exec_plugin_that_hangs_is_cut_off(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _user(apiserver, tmp_path, {"exec": {"command": "sleep", "args": ["60"]}})
    started = time.monotonic()
    err = _fails_before_any_request(apiserver, config, 4, "--request-timeout", "1s")
    assert "did not answer within 1s" in err
    assert time.monotonic() - started < 15


def test_an_exec_plugin_that_works_is_used(apiserver: ApiServer, tmp_path: Path) -> None:
    apiserver.seed(graph())
    plugin = tmp_path / "plugin"
    credential = {
        "apiVersion": "client.authentication.k8s.io/v1",
        "kind": "ExecCredential",
        "status": {"token": apiserver.token},
    }
    plugin.write_text(f"#!/bin/sh\necho '{json.dumps(credential)}'\n")
    plugin.chmod(plugin.stat().st_mode | stat.S_IXUSR)
    config = _user(apiserver, tmp_path, {"exec": {"command": str(plugin)}})
    result = dgd(apiserver, "status", "my-graph", "-o", "name", "--kubeconfig", config)
    assert result.returncode == 0, result.stderr


def test_missing_client_certificate_files_stop_before_any_request(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    user = {"client-certificate": "nope.crt", "client-key": "nope.key"}
    err = _fails_before_any_request(apiserver, _user(apiserver, tmp_path, user), 2)
    assert "unable to read client-cert" in err and "nope.crt" in err


@pytest.mark.parametrize(
    ("user", "needle"),
    [
        ({"token": TOKEN, "client-certificate-data": "not base64!"}, "not valid base64"),
        ({"tokenFile": "missing-token"}, "unable to read tokenFile"),
        ({"auth-provider": {"name": "gcp", "config": {}}}, 'auth provider "gcp"'),
        ({"auth-provider": "x"}, "auth provider null"),
        ({"exec": {"args": ["x"]}}, "exec plugin: no command"),
    ],
)
def test_bad_credentials_are_one_line(
    apiserver: ApiServer, tmp_path: Path, user: dict[str, Any], needle: str
) -> None:
    err = _fails_before_any_request(apiserver, _user(apiserver, tmp_path, user), 2)
    assert needle in err
    assert TOKEN not in err


def _raw_kubeconfig(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "raw-kubeconfig"
    path.write_bytes(data)
    return str(path)


def test_hostile_kubeconfig_files_are_one_line(apiserver: ApiServer, tmp_path: Path) -> None:
    assert apiserver.kubeconfig is not None
    good = apiserver.kubeconfig.read_bytes()
    deep = b"a: " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    err = _fails_before_any_request(apiserver, _raw_kubeconfig(tmp_path, deep), 2)
    assert "nested" in err  # before: a segfault (rc 139)
    line = b"    token: dgd-test-token\n"
    assert line in good
    duplicate = good.replace(line, f"    token: {TOKEN}\n    token: other-{TOKEN}\n".encode())
    err = _fails_before_any_request(apiserver, _raw_kubeconfig(tmp_path, duplicate), 2)
    assert "duplicate key" in err and TOKEN not in err  # before: both values over 8 lines
    err = _fails_before_any_request(apiserver, _raw_kubeconfig(tmp_path, good + b"\xff\xfe"), 2)
    assert "not UTF-8" in err
    bad_int = good.replace(b"token: dgd-test-token", f"token: !!int {TOKEN}".encode())
    err = _fails_before_any_request(apiserver, _raw_kubeconfig(tmp_path, bad_int), 2)
    assert TOKEN[:10] not in err
