"""pytest fixtures for the test API server (tests/conftest.py imports them for every test).

``apiserver``: a started :class:`ApiServer` (TLS on 127.0.0.1, random port) with a kubeconfig
written to the test's tmp_path (``.kubeconfig``; context namespace ``.namespace`` = "dynamo";
bearer-token user ``.user``/``.token``) and the DGD CRD installed. Typical use::

    apiserver.seed(sample_dgd("my-graph"))              # objects as the cluster holds them
    run_cli("status", "my-graph", env=kubectl_env(apiserver))
    assert len(apiserver.requests("get", "dynamographdeployments")) == 1   # no discovery
    apiserver.faults.forbid("patch")                    # 403 with the RBAC message
    apiserver.faults.fail_next(2, code=503)             # then recover
    apiserver.faults.before(callback, matching(verb="patch"))   # a writer in between
    apiserver.store.validators.append(rule)             # admission, 422 or webhook denial
    apiserver.uninstall_crd()                           # the cluster without Dynamo

``operator_sim``: an :class:`OperatorSim` on the same store, idle until ``.step()``,
``.settle()`` or ``.start(interval)`` (a background thread, stopped after the test; its
errors fail the test). ``api_client(apiserver)`` is the real kubernetes client configured from
the kubeconfig; ``raw(...)`` one urllib request with the status code and decoded body.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.apiserver.crd import assert_dgd_crd_unchanged
from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.server import ApiServer

NAMESPACE = "dynamo"


def kubectl_env(server: ApiServer) -> dict[str, str]:
    """Environment for a command (kubectl, kubectl-dgd, in-process or not) talking to ``server``."""
    assert server.kubeconfig is not None
    return {"KUBECONFIG": str(server.kubeconfig), "HOME": str(server.kubeconfig.parent)}


@pytest.fixture
def apiserver(tmp_path: Path) -> Iterator[ApiServer]:
    server = ApiServer().start()
    server.install_crd()
    server.store.ensure_namespace(NAMESPACE)
    server.write_kubeconfig(tmp_path / "kubeconfig", namespace=NAMESPACE)
    try:
        yield server
    finally:
        server.stop()
    assert_dgd_crd_unchanged()


@pytest.fixture
def operator_sim(apiserver: ApiServer) -> Iterator[OperatorSim]:
    """The simulated operator on the apiserver's store; drive it with ``.step()``/``.settle()``
    or run it in the background with ``.start()`` (stopped after the test)."""
    sim = OperatorSim(apiserver.store)
    try:
        yield sim
    finally:
        sim.stop()
    assert not sim.errors, f"operator simulation failed: {sim.errors!r}"


def sample_dgd(
    name: str = "my-graph",
    namespace: str = NAMESPACE,
    *,
    workers: tuple[str, ...] = ("VllmDecodeWorker",),
    others: tuple[str, ...] = ("Frontend",),
    image: str = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0",
    ready: bool = True,
    labels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A DGD as a cluster holds it after the operator reconciled it (status included)."""
    components: list[dict[str, Any]] = []
    for component in others:
        components.append(
            {
                "name": component,
                "type": "frontend",
                "replicas": 1,
                "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}},
            }
        )
    for component in workers:
        container = {
            "name": "main",
            "image": image,
            "command": ["python3", "-m", "dynamo.vllm"],
            "resources": {"limits": {"nvidia.com/gpu": "1"}},
        }
        components.append(
            {
                "name": component,
                "type": "worker",
                "replicas": 1,
                "podTemplate": {"spec": {"containers": [container]}},
            }
        )
    status: dict[str, Any] = {
        "observedGeneration": 1,
        "state": "successful" if ready else "pending",
        "conditions": [
            {
                "type": "Ready",
                "status": "True" if ready else "False",
                "reason": "all_resources_are_ready" if ready else "some_resources_are_not_ready",
                "message": "All resources are ready" if ready else "Resources not ready",
                "lastTransitionTime": "2026-01-01T00:00:00Z",
            }
        ],
        "components": {
            c["name"]: {
                "componentKind": "Deployment",
                "componentNames": [f"{name}-{c['name'].lower()}"],
                "replicas": 1,
                "updatedReplicas": 1,
                "readyReplicas": 1 if ready else 0,
                "availableReplicas": 1 if ready else 0,
            }
            for c in components
        },
    }
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": name,
            "namespace": namespace,
            "labels": dict(labels or {}),
            "annotations": {"nvidia.com/workload-provider": "component"},
        },
        "spec": {"backendFramework": "vllm", "components": components},
        "status": status,
    }


def api_client(server: ApiServer) -> Any:
    """The real kubernetes client configured from the server's kubeconfig."""
    from kubernetes import config

    return config.new_client_from_config(config_file=str(server.kubeconfig))  # type: ignore[no-untyped-call]


@dataclass
class RawResponse:
    code: int
    body: Any
    headers: dict[str, str]


def raw(
    server: ApiServer,
    method: str,
    path: str,
    body: Any = None,
    *,
    content_type: str = "application/json",
    token: str | None = "default",
    accept: str = "application/json",
    timeout: float = 10,
) -> RawResponse:
    """One HTTP request with urllib: status code, decoded JSON body, headers (errors included)."""
    data = None
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Accept", accept)
    if data is not None:
        request.add_header("Content-Type", content_type)
    if token is not None:
        request.add_header(
            "Authorization", f"Bearer {server.token if token == 'default' else token}"
        )
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=server.ssl_context()) as resp:
            payload, code, headers = resp.read(), resp.status, dict(resp.headers)
    except urllib.error.HTTPError as error:
        payload, code, headers = error.read(), error.code, dict(error.headers)
    text = payload.decode()
    try:
        decoded: Any = json.loads(text) if text else None
    except ValueError:
        decoded = text
    return RawResponse(code, decoded, headers)
