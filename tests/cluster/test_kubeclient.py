"""adapters/kubeclient.py: a live command loads five modules of the ``kubernetes`` package, not
its ``__init__`` (every API class and model, pydantic, the OIDC stack, PyYAML); what it sends is
what the client's ApiClient sent; OIDC still works through the deferred names; and the whole
package stays usable in the same process afterwards."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

ROOT = Path(__file__).resolve().parents[2]
# Never loaded by `status NAME` (each is tens of milliseconds of start-up).
NOT_LOADED = (
    "kubernetes.client.api_client",
    "kubernetes.client.models",
    "kubernetes.client.api",
    "kubernetes.watch",
    "kubernetes.dynamic",
    "kubernetes.stream",
    "kubernetes.utils.create_from_yaml",
    "pydantic",
    "yaml",
    "requests",
    "oauthlib",
    "requests_oauthlib",
    "deepdiff",
    # urllib3.http2's __init__ (kubeclient defers it): h2's version, read through this
    "importlib.metadata",
)

# Runs kubectl-dgd's main() with argv in this interpreter, then (AFTER=1) uses the whole
# package as a program that imports it would, and reports what was loaded.
PROBE = """
import json, os, sys
report, *argv = sys.argv[1:]
sys.argv = ["kubectl-dgd", *argv]
code = 0
try:
    from kubectl_dgd.cli.entry import main  # the console script's function
    main()
except SystemExit as exc:
    code = exc.code
loaded = sorted(sys.modules)
deferred = type(sys.modules["kubernetes"]).__name__
from kubectl_dgd.adapters.kubeclient import _UNUSED_STANDARD
kinds = {m: type(sys.modules.get(m)).__name__ for m in (*_UNUSED_STANDARD, "urllib3.http2")}
after = {}
if os.environ.get("AFTER"):
    import kubernetes
    from kubernetes import client, config, watch
    from kubernetes.client.api_client import ApiClient
    api = client.CustomObjectsApi(config.new_client_from_config(os.environ["KUBECONFIG"]))
    got = api.get_namespaced_custom_object(
        "nvidia.com", "v1beta1", "dynamo", "dynamographdeployments", "my-graph"
    )
    after = {
        "version": kubernetes.__version__,
        "name": got["metadata"]["name"],
        "api_client_is_real": client.ApiClient is ApiClient,
        "core": client.CoreV1Api.__name__,
        "watch": watch.Watch.__name__,
    }
    import urllib3.http2
    after["http2"] = [urllib3.http2.inject_into_urllib3.__name__, type(urllib3.http2).__name__]
    # the standard modules the live command left deferred: each works at its first use
    import calendar, email.base64mime, email.header, email.quoprimime, hmac, mimetypes
    import multiprocessing, selectors, shutil, stringprep, subprocess, traceback
    after["standard"] = {
        "multiprocessing": multiprocessing.cpu_count() > 0,
        "subprocess": subprocess.run(["true"]).returncode == 0,
        "shutil": shutil.which("sh") is not None,
        "selectors": hasattr(selectors.DefaultSelector(), "select"),
        "traceback": traceback.format_exception_only(ValueError("x")) == ["ValueError: x\\n"],
        "hmac": len(hmac.new(b"k", b"m", "sha256").hexdigest()) == 64,
        "mimetypes": mimetypes.guess_type("a.json")[0] == "application/json",
        "calendar": calendar.timegm((1970, 1, 2, 0, 0, 0)) == 86400,
        "email.header": str(email.header.Header("x")) == "x",
        "email.base64mime": email.base64mime.body_encode(b"x").strip() == "eA==",
        "email.quoprimime": email.quoprimime.body_encode("x") == "x",
        "stringprep": stringprep.in_table_b1("\u00ad"),
    }
    after["ran"] = {m: type(sys.modules[m]).__name__ for m in _UNUSED_STANDARD}
with open(report, "w") as fh:
    json.dump(
        {"code": code, "modules": loaded, "deferred": deferred, "kinds": kinds, "after": after}, fh
    )
"""


def probe(
    server: ApiServer, tmp_path: Path, *argv: str, after: bool = False, plain: bool = False
) -> dict[str, Any]:
    """``kubectl-dgd ARGV`` in a fresh interpreter; ``plain``: with DGD_PLAIN_STARTUP=1."""
    assert server.kubeconfig is not None
    report = tmp_path / "report.json"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("KUBECONFIG", "PYTHON", "DGD_"))
    }
    env.update({"PYTHONPATH": str(ROOT), "KUBECONFIG": str(server.kubeconfig), "NO_COLOR": "1"})
    if after:
        env["AFTER"] = "1"
    if plain:
        env["DGD_PLAIN_STARTUP"] = "1"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(report), *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert report.exists(), proc.stderr
    result: dict[str, Any] = json.loads(report.read_text())
    result["stdout"], result["stderr"] = proc.stdout, proc.stderr
    return result


@pytest.fixture
def seeded(apiserver: ApiServer) -> ApiServer:
    apiserver.seed(graph())
    return apiserver


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["status", "my-graph"], id="status"),
        pytest.param(["list"], id="list"),
        pytest.param(["status", "my-graph", "--events"], id="status-events"),
    ],
)
def test_a_live_command_loads_only_the_client_parts_it_uses(
    seeded: ApiServer, tmp_path: Path, argv: list[str]
) -> None:
    result = probe(seeded, tmp_path, *argv)
    assert result["code"] == 0, result["stderr"]
    assert "my-graph" in result["stdout"]
    modules = set(result["modules"])
    assert "kubernetes.client.rest" in modules  # it did talk to the server through the client
    assert "kubernetes.config.kube_config" in modules
    loaded = sorted(m for m in NOT_LOADED if m in modules)
    assert loaded == []
    assert result["deferred"] == "DeferredModule"  # kubernetes/__init__.py has not run
    # imported by the client's modules, not run: see kubeclient's docstring
    assert set(result["kinds"].values()) == {"DeferredModule"}, result["kinds"]


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["status", "my-graph"], id="status"),
        pytest.param(["list", "-o", "yaml"], id="list"),
    ],
)
def test_the_plain_start_up_loads_the_whole_client_and_prints_the_same(
    seeded: ApiServer, tmp_path: Path, argv: list[str]
) -> None:
    """DGD_PLAIN_STARTUP=1: the client imported as ``import kubernetes`` would (its package
    ``__init__`` run, no module deferred), and the same output as the start-up tricks give."""
    quick = probe(seeded, tmp_path, *argv)
    plain = probe(seeded, tmp_path, *argv, plain=True)
    assert (plain["code"], plain["stdout"], plain["stderr"]) == (0, quick["stdout"], "")
    assert plain["deferred"] == "module"  # kubernetes/__init__.py ran
    assert "DeferredModule" not in set(plain["kinds"].values()), plain["kinds"]
    assert "kubernetes.client.api_client" in plain["modules"]


def test_the_whole_package_works_after_a_live_command(seeded: ApiServer, tmp_path: Path) -> None:
    """A program that imports ``kubernetes`` after our adapters gets the whole package: the
    deferred ``__init__`` modules run in place, the kubeconfig loader reads a file (PyYAML) and
    builds an ApiClient (both deferred names), and the API classes work."""
    result = probe(seeded, tmp_path, "status", "my-graph", after=True)
    assert result["code"] == 0, result["stderr"]
    after = result["after"]
    assert after["name"] == "my-graph"
    assert after["api_client_is_real"] is True
    assert (after["core"], after["watch"]) == ("CoreV1Api", "Watch")
    assert after["version"]
    # urllib3.http2, deferred by the live command, runs its __init__ at the first name asked
    assert after["http2"] == ["inject_into_urllib3", "module"]
    assert set(after["standard"]) == set(after["ran"])  # every one of kubeclient's list
    assert all(after["standard"].values()), after["standard"]
    assert set(after["ran"].values()) == {"module"}


def test_requests_carry_what_the_api_client_sent(seeded: ApiServer) -> None:
    """User-Agent, bearer token and URL are those of the client's own ApiClient.param_serialize
    (the code path before kubeclient) for the same configuration."""
    from kubernetes.client import ApiClient

    from kubectl_dgd.adapters.kubeclient import Transport, kube

    configuration = kube().Configuration()
    configuration.host = seeded.url
    configuration.api_key["BearerToken"] = "t0ken"
    configuration.api_key_prefix["BearerToken"] = "Bearer"
    theirs = ApiClient(configuration)
    sent = {"Accept": "application/json", "Content-Type": "application/json"}
    _, url, headers, body, _ = theirs.param_serialize(
        "PATCH",
        "/api/v1/x",
        header_params=dict(sent),
        body={"a": [1]},
        auth_settings=["BearerToken"],
    )
    ours = Transport(configuration)
    assert ours.headers(dict(sent)) == headers
    assert ours.url("/api/v1/x") == url
    assert body == {"a": [1]}  # passed on as it is, as ours is
    assert ours.user_agent == theirs.user_agent


def test_the_pool_size_is_the_clients_default(seeded: ApiServer) -> None:
    """Given explicitly (kubeclient.pool_size) so that ``multiprocessing`` stays unloaded, the
    connection pool size is what the Configuration would have chosen itself."""
    import multiprocessing

    from kubectl_dgd.adapters.kubeclient import kube, pool_size
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, client_configuration, resolve

    assert seeded.kubeconfig is not None
    resolved = resolve(ConnectionSettings(kubeconfig=str(seeded.kubeconfig)), environ={})
    configuration = client_configuration(resolved)
    assert configuration.connection_pool_maxsize == pool_size()
    assert pool_size() == multiprocessing.cpu_count() * 5
    assert kube().Configuration().connection_pool_maxsize == pool_size()


def _jwt(expires: float) -> str:
    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'exp': int(expires), 'sub': 'me'})}.c2ln"


@pytest.fixture
def oidc_server(tmp_path: Path) -> Iterator[ApiServer]:
    """A server whose bearer token is an OIDC id-token that expired a minute ago."""
    token = _jwt(time.time() - 60)
    server = ApiServer(token=token).start()
    server.install_crd()
    server.store.ensure_namespace(NS)
    server.seed(graph())
    path = server.write_kubeconfig(tmp_path / "kubeconfig", namespace=NS)
    config = yaml.safe_load(path.read_text())
    provider = {
        "name": "oidc",
        "config": {
            "id-token": token,
            "refresh-token": "r",
            "client-id": "kubectl-dgd",
            "client-secret": "s",
            # the refresh asks the issuer's discovery document first: here, our test server
            "idp-issuer-url": server.url,
        },
    }
    config["users"][0]["user"] = {"auth-provider": provider}
    path.write_text(yaml.safe_dump(config))
    try:
        yield server
    finally:
        server.stop()


# The client asks an issuer without a CA unverified (its own choice): urllib3 warns.
@pytest.mark.filterwarnings("ignore:Unverified HTTPS request")
def test_an_oidc_refresh_goes_through_the_deferred_api_client(oidc_server: ApiServer) -> None:
    """The expired id-token makes the client's loader try a refresh with its ApiClient (one of
    the deferred names): it asks the issuer for its discovery document, is refused (no such
    document here), keeps the token, and the request is sent with it, as before kubeclient."""
    oidc_server.clear_log()
    result = dgd(oidc_server, "status", "my-graph", "-o", "name")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "dynamographdeployment.nvidia.com/my-graph"
    log = oidc_server.requests(include_discovery=True)
    assert [r.path for r in log] == [
        "/.well-known/openid-configuration",  # the refresh's first step, over the ApiClient
        f"/apis/nvidia.com/v1beta1/namespaces/{NS}/dynamographdeployments/my-graph",
    ]
    assert log[0].header_values("Authorization") == []  # the issuer gets no token
    assert log[1].header_values("Authorization") == [f"Bearer {oidc_server.token}"]
