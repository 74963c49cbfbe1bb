"""``upgrade-check --local``: the three answers for graphs in files, through the console script:
the next update's verdict under the target's rules, the worker hash (which workers roll), and
deprecated or dropped fields; exit 1 only when something would break."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.conftest import run_cli

IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.1"


def _graph(**worker: Any) -> dict[str, Any]:
    return {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {
            "name": "my-graph",
            "namespace": "dynamo",
            "annotations": {"nvidia.com/workload-provider": "grove"},
        },
        "spec": {
            "backendFramework": "vllm",
            "components": [
                {
                    "name": "Frontend",
                    "type": "frontend",
                    "podTemplate": {"spec": {"containers": [{"name": "main", "image": IMAGE}]}},
                },
                {
                    "name": "decode",
                    "type": "worker",
                    "replicas": 2,
                    "podTemplate": {
                        "spec": {
                            "containers": [
                                {
                                    "name": "main",
                                    "image": IMAGE,
                                    "resources": {"limits": {"nvidia.com/gpu": "1"}},
                                }
                            ]
                        }
                    },
                    **worker,
                },
            ],
        },
    }


def _check(tmp_path: Path, obj: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "graph.yaml"
    path.write_text(yaml.safe_dump(obj))
    return run_cli("upgrade-check", "--local", "-f", str(path), *args, env={"COLUMNS": "120"})


def _json(tmp_path: Path, obj: dict[str, Any], current: str, target: str) -> Any:
    done = _check(tmp_path, obj, "--from", current, "--to", target, "-o", "json")
    return done.returncode, json.loads(done.stdout)["graphs"][0]


def test_a_runtime_of_1_5_rolls_the_workers_on_the_upgrade_to_1_4(tmp_path: Path) -> None:
    """1.4 adds the resolved runtime version (>= 1.5.0) to the worker hash."""
    code, graph = _json(tmp_path, _graph(), "1.3", "1.4")
    assert code == 0
    assert graph["verdict"] == "admitted"
    assert graph["workerHash"]["changes"] is True
    assert graph["workerHash"]["rolls"] == ["decode"]
    assert graph["workerHash"]["from"] != graph["workerHash"]["to"]
    text = _check(tmp_path, _graph(), "--from", "1.3", "--to", "1.4")
    assert "yes: decode (" in text.stdout
    assert "the upgrade rolls the workers of my-graph" in text.stdout


def test_no_roll_between_releases_that_hash_the_graph_alike(tmp_path: Path) -> None:
    code, graph = _json(tmp_path, _graph(), "1.4", "1.5")
    assert code == 0 and graph["workerHash"]["changes"] is False


def test_the_deprecated_component_min_available_is_named_for_1_6(tmp_path: Path) -> None:
    code, graph = _json(tmp_path, _graph(minAvailable=1), "1.5", "1.6")
    assert code == 0  # deprecated still works: nothing breaks
    assert graph["deprecated"] == ["spec.components[1].minAvailable"]
    code, graph = _json(tmp_path, _graph(minAvailable=1), "1.4", "1.5")
    assert graph["deprecated"] == []


def test_a_field_the_target_does_not_know_is_dropped_and_breaks(tmp_path: Path) -> None:
    obj = _graph()
    obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["resources"] = {}
    obj["spec"]["components"][1]["experimental"] = {"grove": {"forceScalingGroup": True}}
    code, graph = _json(tmp_path, obj, "1.4", "1.3")  # a rollback: 1.3 has no experimental.grove
    assert code == 1
    assert graph["dropped"] == ["spec.components[1].experimental.grove"]
    assert graph["breaks"] is True


def test_local_needs_files_and_from(tmp_path: Path) -> None:
    done = run_cli("upgrade-check", "--local", "--to", "1.6", "-f", str(tmp_path / "x.yaml"))
    assert done.returncode == 2
    assert "--local needs -f PATH and --from RELEASE" in done.stderr


@pytest.mark.parametrize("bad", ["1.9", "banana"])
def test_an_unknown_target_release_is_a_usage_error(tmp_path: Path, bad: str) -> None:
    done = run_cli("upgrade-check", "--local", "--from", "1.4", "--to", bad, "-f", "x.yaml")
    assert done.returncode == 2
    assert "is not a supported operator version" in done.stderr


def test_an_unreadable_file_is_one_line_exit_2(tmp_path: Path) -> None:
    done = run_cli(
        "upgrade-check", "--local", "--from", "1.4", "--to", "1.6", "-f", str(tmp_path / "no")
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
