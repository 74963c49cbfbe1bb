"""``kubectl dgd version`` where the real control plane cannot go: no kubeconfig at all with
``--client``, a server that is not there (a closed port), and the test API server refusing the
operator's Deployments with a 500 (the release is then unknown, with why; the command still
answers)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tests.apiserver.faults import matching
from tests.apiserver.fixtures import kubectl_env, raw
from tests.apiserver.server import ApiServer
from tests.conftest import run_cli

API_ERROR = 4


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_client_flag_needs_no_kubeconfig_at_all(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path)}  # no KUBECONFIG (run_cli drops it), no ~/.kube/config
    done = run_cli("version", "--client", env=env, subprocess=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "Client Version: 0.1.0\n", "")
    as_json = json.loads(run_cli("version", "--client", "-o", "json", env=env).stdout)
    assert list(as_json) == ["clientVersion"]
    assert as_json["clientVersion"]["version"] == "0.1.0"


def test_client_flag_contacts_no_server(apiserver: ApiServer) -> None:
    done = run_cli("version", "--client", env=kubectl_env(apiserver))
    assert done.returncode == 0 and done.stdout == "Client Version: 0.1.0\n"
    assert apiserver.requests() == []


def test_unreachable_server_prints_the_client_part_then_one_error_line(tmp_path: Path) -> None:
    server = f"https://127.0.0.1:{_closed_port()}"
    args = ("version", "--server", server, "--insecure-skip-tls-verify")
    env = {"HOME": str(tmp_path)}
    done = run_cli(*args, env=env, subprocess=True)
    assert done.returncode == API_ERROR
    assert done.stdout == "Client Version: 0.1.0\n"
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"error: cannot reach the API server at {server}")
    as_json = run_cli(*args, "-o", "json", env=env)
    assert as_json.returncode == API_ERROR
    assert list(json.loads(as_json.stdout)) == ["clientVersion"]


def test_unreadable_operator_deployments_make_the_release_unknown_with_why(
    apiserver: ApiServer,
) -> None:
    apiserver.faults.fail_next(1, code=500, match=matching(verb="list", resource="deployments"))
    done = run_cli("version", env=kubectl_env(apiserver))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "Server Version: " + raw(apiserver, "GET", "/version").body["gitVersion"]
    assert lines[2].startswith(
        "Dynamo Operator: unknown (the operator Deployments could not be read: API server error "
        "(500"
    )
    assert lines[3] == "DGD API Versions: nvidia.com/v1beta1"  # all the test server serves


def _operator(image: str, namespace: str = "dynamo-system") -> dict[str, object]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "dynamo-operator", "namespace": namespace},
        "spec": {"template": {"spec": {"containers": [{"name": "manager", "image": image}]}}},
    }


def test_an_operator_image_without_a_release_tag_is_unknown_and_named(
    apiserver: ApiServer,
) -> None:
    image = "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:latest"
    apiserver.seed(_operator(image))
    done = run_cli("version", env=kubectl_env(apiserver))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == (
        f"Dynamo Operator: unknown (the operator image has no release tag: {image})"
    )


def test_the_first_operator_deployment_with_a_release_tag_gives_the_release(
    apiserver: ApiServer,
) -> None:
    untagged = "registry.local/kubernetes-operator@sha256:" + "0" * 64
    tagged = "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.0"
    apiserver.seed(_operator(untagged, "a-first"), _operator(tagged, "b-second"))
    done = run_cli("version", "-o", "json", env=kubectl_env(apiserver))
    operator = json.loads(done.stdout)["dynamoOperator"]
    assert operator["release"] == "1.6.0"
    assert operator["detectedFrom"] == f"the image {tagged} of Deployment b-second/dynamo-operator"
    assert [d["release"] for d in operator["deployments"]] == [None, "1.6.0"]
