"""``upgrade-check`` against the test API server: the running release from the operator image,
the live object as the old one, and the faults (a missing graph, a refused read)."""

from __future__ import annotations

import json
from typing import Any

import yaml  # type: ignore[import-untyped]

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import dgd, graph


def _operator(tag: str) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "dynamo-operator-controller-manager", "namespace": "dynamo-system"},
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "manager",
                            "image": f"nvcr.io/nvidia/ai-dynamo/kubernetes-operator:{tag}",
                        }
                    ]
                }
            }
        },
    }


def test_the_running_release_comes_from_the_operator_image(apiserver: ApiServer) -> None:
    apiserver.seed(_operator("1.4.2"), graph())
    done = dgd(apiserver, "upgrade-check", "--to", "1.6", "my-graph", "-o", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["from"] == "1.4" and report["to"] == "1.6"
    assert "kubernetes-operator:1.4.2" in report["fromDetectedBy"]


def test_every_graph_of_the_namespace_without_a_name(apiserver: ApiServer) -> None:
    apiserver.seed(_operator("1.5.0"), graph("a"), graph("b"), graph("c", namespace="other"))
    done = dgd(apiserver, "upgrade-check", "--to", "1.6", "-o", "json")
    assert [g["name"] for g in json.loads(done.stdout)["graphs"]] == ["a", "b"]
    every = dgd(apiserver, "upgrade-check", "--to", "1.6", "-A", "-o", "json")
    assert len(json.loads(every.stdout)["graphs"]) == 3


def test_a_file_is_checked_as_an_update_of_its_live_object(
    apiserver: ApiServer, tmp_path: Any
) -> None:
    live = graph()
    live["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    apiserver.seed(_operator("1.5.0"), live)
    changed = json.loads(json.dumps(live))
    changed.pop("status")
    changed["spec"]["components"][1]["multinode"]["nodeCount"] = 4
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(changed))
    done = dgd(apiserver, "upgrade-check", "--to", "1.6", "-f", str(path), env={"COLUMNS": "200"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "refused" in done.stdout
    assert "field is immutable (new in 1.6)" in done.stdout


def test_a_missing_graph_is_exit_3(apiserver: ApiServer) -> None:
    done = dgd(apiserver, "upgrade-check", "--to", "1.6", "nope")
    assert done.returncode == 3
    assert "nope" in done.stderr and "Traceback" not in done.stderr


def test_a_refused_read_of_the_graph_is_exit_4(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.faults.forbid("get")
    done = dgd(apiserver, "upgrade-check", "--from", "1.5", "--to", "1.6", "my-graph")
    assert done.returncode == 4
    assert "forbidden" in done.stderr.lower()


def test_a_refused_read_of_a_files_live_object_warns_and_checks_a_create(
    apiserver: ApiServer, tmp_path: Any
) -> None:
    obj = graph()
    obj.pop("status")
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(obj))
    apiserver.faults.forbid("get")
    done = dgd(apiserver, "upgrade-check", "--from", "1.5", "--to", "1.6", "-f", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: my-graph: live object not read" in done.stderr
