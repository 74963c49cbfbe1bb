"""The private layout of ``kubernetes`` and ``urllib3`` that adapters/kubeclient.py (and the
cluster adapter over it) relies on, checked piece by piece so that a release that moves one
fails here by name instead of somewhere in a live command. Both majors are pinned in
pyproject.toml for this reason: raise a pin only with this file green."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
from typing import Any

import pytest

from kubectl_dgd.adapters.kubeclient import _HTTP2_IMPORTED, _OIDC_AND_FILES, _PACKAGES

# The modules kube() loads by name, and what it takes from each.
MODULES = {
    "kubernetes.client.configuration": ("Configuration",),
    "kubernetes.client.rest": ("RESTClientObject",),
    "kubernetes.client.exceptions": ("ApiException",),
    "kubernetes.config.config_exception": ("ConfigException",),
    "kubernetes.config.kube_config": ("KubeConfigLoader",),
    "kubernetes.config.incluster_config": ("load_incluster_config",),
}


def _moved(what: str) -> str:
    return (
        f"{what}: adapters/kubeclient.py depends on it (private layout); "
        "see the kubernetes/urllib3 pins in pyproject.toml"
    )


@pytest.mark.parametrize("module", [*MODULES, *_PACKAGES, _HTTP2_IMPORTED, "urllib3.http2"])
def test_the_modules_kubeclient_loads_by_name_are_where_it_looks(module: str) -> None:
    assert importlib.util.find_spec(module) is not None, _moved(f"no module {module}")


@pytest.mark.parametrize(("module", "names"), list(MODULES.items()))
def test_each_module_has_the_names_kubeclient_takes(module: str, names: tuple[str, ...]) -> None:
    loaded = importlib.import_module(module)
    for name in names:
        assert hasattr(loaded, name), _moved(f"{module}.{name} is gone")


def _parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_calls_kubeclient_makes_keep_their_parameters() -> None:
    from kubernetes.client.rest import RESTClientObject
    from kubernetes.config.kube_config import KubeConfigLoader

    loader = _parameters(KubeConfigLoader.__init__)
    for name in ("config_dict", "active_context", "config_base_path"):
        assert name in loader, _moved(f"KubeConfigLoader({name}=...)")
    assert hasattr(KubeConfigLoader, "load_and_set"), _moved("KubeConfigLoader.load_and_set")
    request = _parameters(RESTClientObject.request)
    for name in ("method", "url", "headers", "body", "post_params", "_request_timeout"):
        assert name in request, _moved(f"RESTClientObject.request({name}=...)")


def test_the_configuration_and_the_transport_keep_what_kubeclient_reads() -> None:
    import urllib3
    from kubernetes.client.configuration import Configuration
    from kubernetes.client.rest import RESTClientObject

    configuration = Configuration(host="https://127.0.0.1:1")
    configuration.api_key["BearerToken"] = "Bearer t"
    bearer = configuration.auth_settings().get("BearerToken") or {}
    assert {"in", "key", "value"} <= set(bearer), _moved("Configuration.auth_settings()")
    assert "SDK Package Version:" in configuration.to_debug_report(), _moved("to_debug_report")
    for name in ("proxy", "no_proxy", "verify_ssl", "retries", "username", "password"):
        assert hasattr(configuration, name), _moved(f"Configuration.{name}")
    configuration.proxy, configuration.no_proxy = None, None
    rest = RESTClientObject(configuration)
    assert isinstance(rest.pool_manager, urllib3.PoolManager), _moved(
        "RESTClientObject.pool_manager"
    )
    pool = rest.pool_manager.connection_from_url(configuration.host)
    assert hasattr(pool.ConnectionCls, "getresponse"), _moved("HTTPSConnectionPool.ConnectionCls")


def test_kube_config_still_imports_what_kubeclient_stands_in_for() -> None:
    spec = importlib.util.find_spec("kubernetes.config.kube_config")
    assert spec is not None and spec.origin is not None
    tree = ast.parse(open(spec.origin, encoding="utf-8").read())  # noqa: SIM115
    imported = {
        alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {node.module or "" for node in tree.body if isinstance(node, ast.ImportFrom)}
    for module in _OIDC_AND_FILES:
        assert module in imported, _moved(f"kube_config no longer imports {module}")


def test_urllib3_keeps_the_response_and_error_names_the_cluster_adapter_uses() -> None:
    import urllib3
    from urllib3 import exceptions

    for name in ("MaxRetryError", "SSLError", "NewConnectionError", "ProtocolError",
                 "TimeoutError", "HTTPError", "InsecureRequestWarning"):  # fmt: skip
        assert hasattr(exceptions, name), _moved(f"urllib3.exceptions.{name}")
    assert hasattr(urllib3, "HTTPHeaderDict"), _moved("urllib3.HTTPHeaderDict")
    for name in ("read_chunked", "read1", "drain_conn", "release_conn", "connection"):
        assert hasattr(urllib3.HTTPResponse, name), _moved(f"urllib3.HTTPResponse.{name}")
