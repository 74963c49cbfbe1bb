"""kubectl's connection flags (issue 10, item 3) through the console script, against the test
API server: impersonation headers reach the server, --token replaces the kubeconfig's
credentials, --server works with --certificate-authority or --insecure-skip-tls-verify (and no
kubeconfig at all), --tls-server-name, --user/--cluster pick kubeconfig entries, and no
credential is ever printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NOW, NS, graph
from tests.conftest import Result, run_cli

pytestmark = pytest.mark.usefixtures("seeded")


@pytest.fixture
def seeded(apiserver: ApiServer) -> None:
    apiserver.seed(graph())


def run(server: ApiServer, *args: str, kubeconfig: Path | None = None, sub: bool = False) -> Result:
    """``kubectl-dgd`` with ``kubeconfig`` (default: the server's; None-like "" means none)."""
    assert server.kubeconfig is not None
    env = {"HOME": str(server.kubeconfig.parent / "empty-home"), "DGD_NOW": NOW}
    config = server.kubeconfig if kubeconfig is None else kubeconfig
    if str(config):
        env["KUBECONFIG"] = str(config)
    return run_cli(*args, env=env, subprocess=sub)


def _config(server: ApiServer) -> dict[str, Any]:
    assert server.kubeconfig is not None
    loaded: dict[str, Any] = yaml.safe_load(server.kubeconfig.read_text())
    return loaded


def _write(tmp_path: Path, config: dict[str, Any], name: str = "edited") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(config))
    return path


def _last_get(server: ApiServer) -> Any:
    gets = server.requests("get", "dynamographdeployments")
    assert gets, server.request_log
    return gets[-1]


def test_impersonation_headers_reach_the_server(apiserver: ApiServer) -> None:
    result = run(
        apiserver,
        "status", "my-graph", "-n", NS,
        "--as", "jane", "--as-group", "devs", "--as-group", "ops", "--as-uid", "u-42",
        sub=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    got = _last_get(apiserver)
    assert got.header_values("Impersonate-User") == ["jane"]
    assert got.header_values("Impersonate-Group") == ["devs", "ops"]
    assert got.header_values("Impersonate-Uid") == ["u-42"]


def test_no_impersonation_without_the_flags(apiserver: ApiServer) -> None:
    assert run(apiserver, "status", "my-graph").returncode == 0
    assert _last_get(apiserver).header_values("Impersonate-User") == []


def test_kubeconfig_as_fields_apply_and_the_flag_wins(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _config(apiserver)
    config["users"][0]["user"].update({"as": "from-config", "as-groups": ["g1"]})
    path = _write(tmp_path, config)
    assert run(apiserver, "status", "my-graph", kubeconfig=path).returncode == 0
    assert _last_get(apiserver).header_values("Impersonate-User") == ["from-config"]
    assert _last_get(apiserver).header_values("Impersonate-Group") == ["g1"]
    assert run(apiserver, "status", "my-graph", "--as", "flag", kubeconfig=path).returncode == 0
    assert _last_get(apiserver).header_values("Impersonate-User") == ["flag"]


@pytest.mark.parametrize("flag", [["--as-group", "devs"], ["--as-uid", "u-1"]])
def test_group_or_uid_without_as_is_refused(apiserver: ApiServer, flag: list[str]) -> None:
    result = run(apiserver, "status", "my-graph", *flag)
    assert result.returncode == 2
    assert result.stderr.startswith("error: requesting uid, groups or user-extra without")
    assert apiserver.requests() == []


def test_token_replaces_the_users_credentials(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _config(apiserver)
    config["users"][0]["user"] = {"token": "wrong-token"}
    path = _write(tmp_path, config)
    refused = run(apiserver, "status", "my-graph", kubeconfig=path)
    assert refused.returncode == 4 and "401" in refused.stderr
    result = run(apiserver, "status", "my-graph", "--token", apiserver.token, "-v", kubeconfig=path)
    assert result.returncode == 0, result.stderr
    assert _last_get(apiserver).header_values("Authorization") == [f"Bearer {apiserver.token}"]
    assert "GET https://" in result.stderr or "GET http://" in result.stderr
    assert apiserver.token not in result.stderr + result.stdout
    assert "wrong-token" not in result.stderr + result.stdout


def test_token_also_replaces_an_exec_plugin(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _config(apiserver)
    config["users"][0]["user"] = {"exec": {"command": "/no/such/plugin", "apiVersion": "v1"}}
    path = _write(tmp_path, config)
    assert run(apiserver, "status", "my-graph", kubeconfig=path).returncode != 0
    result = run(apiserver, "status", "my-graph", "--token", apiserver.token, kubeconfig=path)
    assert result.returncode == 0, result.stderr


def test_server_with_certificate_authority_and_no_kubeconfig(apiserver: ApiServer) -> None:
    if apiserver.ca_file is None:
        pytest.skip("no openssl: the test server speaks plain HTTP")
    result = run(
        apiserver,
        "status", "my-graph", "-n", NS,
        "--server", apiserver.url, "--certificate-authority", str(apiserver.ca_file),
        "--token", apiserver.token,
        kubeconfig=Path(""), sub=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "my-graph" in result.stdout


def test_server_overrides_the_kubeconfig_server(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _config(apiserver)
    config["clusters"][0]["cluster"]["server"] = "https://127.0.0.1:1"
    path = _write(tmp_path, config)
    assert run(apiserver, "status", "my-graph", kubeconfig=path).returncode == 4
    result = run(apiserver, "status", "my-graph", "-s", apiserver.url, kubeconfig=path)
    assert result.returncode == 0, result.stderr


def test_server_without_a_trusted_ca_fails_and_insecure_skip_works(apiserver: ApiServer) -> None:
    if apiserver.ca_file is None:
        pytest.skip("no openssl: the test server speaks plain HTTP")
    common = ["status", "my-graph", "-n", NS, "--server", apiserver.url, "--token", apiserver.token]
    untrusted = run(apiserver, *common, kubeconfig=Path(""))
    assert untrusted.returncode == 4 and "TLS" in untrusted.stderr, untrusted.stderr
    result = run(apiserver, *common, "--insecure-skip-tls-verify", kubeconfig=Path(""))
    assert result.returncode == 0, result.stderr


def test_tls_server_name(apiserver: ApiServer) -> None:
    if apiserver.ca_file is None:
        pytest.skip("no openssl: the test server speaks plain HTTP")
    ca = str(apiserver.ca_file)
    common = ["status", "my-graph", "--certificate-authority", ca]
    assert run(apiserver, *common, "--tls-server-name", "localhost").returncode == 0
    wrong = run(apiserver, *common, "--tls-server-name", "elsewhere.example")
    assert wrong.returncode == 4 and "TLS" in wrong.stderr, wrong.stderr


def test_user_and_cluster_pick_kubeconfig_entries(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _config(apiserver)
    good_cluster, good_user = config["clusters"][0], config["users"][0]
    config["clusters"].append({"name": "broken", "cluster": {"server": "https://127.0.0.1:1"}})
    config["users"].append({"name": "nobody", "user": {"token": "wrong"}})
    config["contexts"][0]["context"].update({"cluster": "broken", "user": "nobody"})
    path = _write(tmp_path, config)
    assert run(apiserver, "status", "my-graph", kubeconfig=path).returncode == 4
    only_cluster = run(
        apiserver, "status", "my-graph", "--cluster", good_cluster["name"], kubeconfig=path
    )
    assert only_cluster.returncode == 4 and "401" in only_cluster.stderr
    both = run(
        apiserver, "status", "my-graph",
        "--cluster", good_cluster["name"], "--user", good_user["name"],
        kubeconfig=path, sub=True,
    )  # fmt: skip
    assert both.returncode == 0, both.stderr


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("--user", 'error: user "ghost" does not exist in the kubeconfig'),
        ("--cluster", 'error: cluster "ghost" does not exist in the kubeconfig'),
    ],
)
def test_unknown_user_or_cluster_is_one_line(apiserver: ApiServer, flag: str, message: str) -> None:
    result = run(apiserver, "status", "my-graph", flag, "ghost")
    assert (result.returncode, result.stderr.strip()) == (2, message)
    assert apiserver.requests(include_discovery=True) == []


@pytest.mark.parametrize("flag", ["--client-certificate", "--client-key"])
def test_client_certificate_flags_override_the_user(
    apiserver: ApiServer, tmp_path: Path, flag: str
) -> None:
    missing = tmp_path / "missing.pem"
    result = run(apiserver, "status", "my-graph", flag, str(missing))
    assert result.returncode == 2, result.stderr
    assert str(missing) in result.stderr and "unable to read client-" in result.stderr
    assert apiserver.requests(include_discovery=True) == []


def test_list_takes_the_connection_flags(apiserver: ApiServer) -> None:
    result = run(apiserver, "list", "--as", "jane", "--token", apiserver.token, "-o", "name")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "dynamographdeployment.nvidia.com/my-graph\n"
    assert apiserver.requests("list")[-1].header_values("Impersonate-User") == ["jane"]


def test_readme_lists_every_connection_flag() -> None:
    from kubectl_dgd.cli.flags import _connection_flags
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    section = readme.split("### kubectl's conventions", 1)[1].split("\n## ", 1)[0]

    def command(*_: Any) -> None:
        pass

    for decorate in _connection_flags():
        params = decorate(command).__click_params__  # type: ignore[attr-defined]
        flag = params[-1].opts[-1]
        assert f"`{flag}" in section or f"/{flag}" in section, flag
        del command.__click_params__  # type: ignore[attr-defined]
    for fmt in ("jsonpath=", "jsonpath-file=", "custom-columns=", "custom-columns-file="):
        assert f"-o {fmt}" in section, fmt


@pytest.mark.parametrize("flag", [["--server", "https://x"], ["--token", "t"], ["--as", "jane"]])
def test_connection_flags_are_refused_with_a_saved_file(
    apiserver: ApiServer, tmp_path: Path, flag: list[str]
) -> None:
    saved = tmp_path / "saved.json"
    saved.write_text(json.dumps(graph()))
    result = run(apiserver, "status", "-f", str(saved), *flag)
    assert result.returncode == 2
    assert result.stderr == f"error: {flag[0]} is for live graphs; it cannot be used with -f\n"
    assert "t\n" not in result.stdout


def test_custom_columns_without_headers_on_list(apiserver: ApiServer) -> None:
    result = run(
        apiserver, "list", "--no-headers", "-o", "custom-columns=NAME:.metadata.name", sub=True
    )
    assert (result.returncode, result.stdout) == (0, "my-graph\n"), result.stderr
