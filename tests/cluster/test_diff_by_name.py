"""``diff`` as kubectl users expect it, through the console script against the test API server:
components and roles matched by name, what the server and the operator write left out unless
``--all``, files, directories and standard input, and kubectl diff's exit codes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph
from tests.cluster.test_diff_validate_live import manifest

NO_DIFFERENCES = "dynamographdeployment dynamo/my-graph\nno differences\n"


def _file_form(obj: dict[str, Any]) -> dict[str, Any]:
    """What a user's file holds: no status, no server metadata."""
    data = copy.deepcopy(obj)
    data.pop("status", None)
    for key in ("creationTimestamp", "resourceVersion", "uid", "generation", "managedFields"):
        data["metadata"].pop(key, None)
    return data


def _json_diff(result_stdout: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(result_stdout)
    return data


def test_a_reordered_component_list_is_no_change(apiserver: ApiServer, tmp_path: Path) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["components"].reverse()
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, new))
    assert (result.returncode, result.stdout) == (0, NO_DIFFERENCES), result.stderr
    data = _json_diff(dgd(apiserver, "diff", "-f", manifest(tmp_path, new), "-o", "json").stdout)
    assert data[0]["changes"] == []
    assert {c["impact"] for c in data[0]["impact"]["components"]} == {"none"}


def test_a_change_after_a_reorder_names_the_position_in_the_file(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["components"].reverse()  # prefill, decode, Frontend
    new["spec"]["components"][2]["replicas"] = 3  # Frontend
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, new), "-o", "json")
    assert result.returncode == 1, result.stderr
    [data] = _json_diff(result.stdout)
    assert data["changes"] == [
        {"change": "~", "path": "spec.components[2].replicas", "old": 1, "new": 3}
    ]
    impact = {c["name"]: c["impact"] for c in data["impact"]["components"]}
    assert impact == {"prefill": "none", "decode": "none", "Frontend": "scale"}
    text = dgd(apiserver, "diff", "-f", manifest(tmp_path, new)).stdout
    assert "~ spec.components[2].replicas: 1 -> 3" in text
    assert text.count("\n  ~ ") == 1


def _multinode(roles: list[dict[str, Any]]) -> dict[str, Any]:
    worker = component("worker", "worker", gpus=8)
    worker["multinode"] = {"nodeCount": 4}
    worker["roles"] = roles
    return graph(components=[component("Frontend", "frontend"), worker])


def test_reordered_multinode_roles_are_no_change_and_a_role_change_is_found_by_name(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(
        _multinode([{"name": "leader", "replicas": 1}, {"name": "worker", "replicas": 3}])
    )[0]
    new = copy.deepcopy(live)
    new["spec"]["components"][1]["roles"].reverse()
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, new))
    assert (result.returncode, result.stdout) == (0, NO_DIFFERENCES), result.stderr
    new["spec"]["components"][1]["roles"][0]["labels"] = {"tier": "w"}  # the worker role
    [data] = _json_diff(dgd(apiserver, "diff", "-f", manifest(tmp_path, new), "-o", "json").stdout)
    assert [(c["change"], c["path"]) for c in data["changes"]] == [
        ("+", "spec.components[1].roles[0].labels")
    ]


def _stamped_live() -> dict[str, Any]:
    """A graph as the API server and the operator store it: defaults filled in, their
    annotations, managed fields, a status."""
    obj = graph()
    obj["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["ports"] = [
        {"name": "http", "containerPort": 8000, "protocol": "TCP"}
    ]
    obj["metadata"]["annotations"].update(
        {
            "nvidia.com/dynamo-operator-origin-version": "1.5.0",
            "nvidia.com/current-worker-hash-v2": "0badf00d",
            "kubectl.kubernetes.io/last-applied-configuration": (
                '{"kind":"DynamoGraphDeployment","spec":{"env":[{"name":"T","value":"hf_secret"}]}}'
            ),
            "example.com/owner": "team-a",
        }
    )
    obj["metadata"]["managedFields"] = [{"manager": "kubectl", "operation": "Update"}]
    return obj


def _users_file(live: dict[str, Any]) -> dict[str, Any]:
    """The file the user applied: no operator annotations, defaulted fields left out."""
    new = _file_form(live)
    new["metadata"]["annotations"] = {"example.com/owner": "team-a"}
    frontend = new["spec"]["components"][0]
    del frontend["podTemplate"]["spec"]["containers"][0]["ports"][0]["protocol"]  # TCP: the default
    del frontend["replicas"]  # the webhook defaults it to 1
    return new


def test_operator_annotations_server_metadata_and_defaults_are_ignored(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(_stamped_live())[0]
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, _users_file(live)))
    assert (result.returncode, result.stdout) == (0, NO_DIFFERENCES), result.stderr
    # the impact agrees: the stored origin version the file omits is kept by the apply, so the
    # workers' rollout inputs (which carry it) do not change
    path = manifest(tmp_path, _users_file(live))
    [data] = _json_diff(dgd(apiserver, "diff", "-f", path, "-o", "json").stdout)
    assert {c["impact"] for c in data["impact"]["components"]} == {"none"}


def test_a_stale_worker_hash_in_an_exported_file_is_ignored(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(_stamped_live())[0]
    exported = _file_form(live)
    exported["metadata"]["annotations"]["nvidia.com/current-worker-hash-v2"] = "12345678"
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, exported))
    assert (result.returncode, result.stdout) == (0, NO_DIFFERENCES), result.stderr


def test_all_shows_what_the_server_and_the_operator_wrote(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(_stamped_live())[0]
    result = dgd(apiserver, "diff", "--all", "-f", manifest(tmp_path, _users_file(live)))
    assert result.returncode == 1, result.stderr
    [data] = _json_diff(
        dgd(
            apiserver, "diff", "--all", "-f", manifest(tmp_path, _users_file(live)), "-o", "json"
        ).stdout
    )
    paths = {c["path"]: c["change"] for c in data["changes"]}
    for path in (
        "metadata.annotations[nvidia.com/dynamo-operator-origin-version]",
        "metadata.annotations[nvidia.com/current-worker-hash-v2]",
        "metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]",
        "metadata.annotations[nvidia.com/workload-provider]",
        "metadata.managedFields",
        "metadata.uid",
        "metadata.resourceVersion",
        "metadata.creationTimestamp",
        "spec.components[0].podTemplate.spec.containers[0].ports[0].protocol",
        "spec.components[0].replicas",
        "status",
    ):
        assert paths.get(path) == "-", (path, sorted(paths))
    assert "- status: " in result.stdout
    assert "hf_secret" not in result.stdout + json.dumps(data)  # the last-applied value
    # the impact is the same prediction with or without --all: applying changes nothing
    assert {c["impact"] for c in data["impact"]["components"]} == {"none"}


def test_a_graph_not_in_the_cluster_is_a_difference_shown_as_added(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, graph("brand-new")))
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith(
        "dynamographdeployment dynamo/brand-new (not in the cluster: would be created)\n"
    )
    assert all(
        line.startswith("  + ")
        for line in result.stdout.split("Changes:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    )
    assert "created" in result.stdout.split("Impact:", 1)[1]


def _write(path: Path, *objects: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all([_file_form(o) for o in objects], sort_keys=False))


def test_a_directory_reads_its_files_and_with_r_its_subdirectories(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    first, second = apiserver.seed(graph("first"), graph("second"))
    changed = copy.deepcopy(second)
    changed["spec"]["components"][1]["replicas"] = 5
    _write(tmp_path / "apps" / "a.yaml", first)
    _write(tmp_path / "apps" / "b.yml", changed)
    (tmp_path / "apps" / "notes.txt").write_text("not a manifest")
    (tmp_path / "apps" / "config.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
    )
    _write(tmp_path / "apps" / "nested" / "c.yaml", graph("third"))
    flat = dgd(apiserver, "diff", "-f", str(tmp_path / "apps"), "-o", "json")
    assert flat.returncode == 1, flat.stderr
    assert [(d["name"], d["exists"], len(d["changes"])) for d in _json_diff(flat.stdout)] == [
        ("first", True, 0),
        ("second", True, 1),
    ]
    deep = dgd(apiserver, "diff", "-R", "-f", str(tmp_path / "apps"), "-o", "json")
    assert [d["name"] for d in _json_diff(deep.stdout)] == ["first", "second", "third"]
    assert _json_diff(deep.stdout)[2]["exists"] is False
    same = dgd(apiserver, "diff", "-f", str(tmp_path / "apps" / "a.yaml"))
    assert same.returncode == 0, same.stdout


def test_standard_input_and_several_files(apiserver: ApiServer, tmp_path: Path) -> None:
    first, second = apiserver.seed(graph("first"), graph("second"))
    stream = yaml.safe_dump_all([_file_form(first), _file_form(second)], sort_keys=False)
    piped = dgd(apiserver, "diff", "-f", "-", stdin=stream)
    assert piped.returncode == 0, piped.stdout + piped.stderr
    assert piped.stdout == (
        "dynamographdeployment dynamo/first\nno differences\n\n"
        "dynamographdeployment dynamo/second\nno differences\n"
    )
    changed = copy.deepcopy(second)
    changed["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = "x:2"
    _write(tmp_path / "one.yaml", first)
    _write(tmp_path / "two.yaml", changed)
    both = dgd(
        apiserver, "diff", "-f", str(tmp_path / "one.yaml"), "-f", str(tmp_path / "two.yaml")
    )
    assert both.returncode == 1
    assert both.stdout.count("dynamographdeployment dynamo/") == 2
    assert (
        '~ spec.components[0].podTemplate.spec.containers[0].image: "nvcr.io/dynamo:1.5.0" -> "x:2"'
        in both.stdout
    )


def test_input_and_cluster_errors_exit_above_1_in_one_line(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
    named = dgd(apiserver, "diff", "-f", str(config))
    assert (named.returncode, named.stderr) == (
        3,
        f"error: no DynamoGraphDeployment in {config} (1 file read, 1 other object)\n",
    )
    (tmp_path / "empty").mkdir()
    empty = dgd(apiserver, "diff", "-f", str(tmp_path / "empty"))
    assert (empty.returncode, empty.stderr) == (
        3,
        f"error: no DynamoGraphDeployment in {tmp_path / 'empty'} (0 files read, 0 other objects)\n",
    )
    usage = dgd(apiserver, "diff")
    assert usage.returncode == 2
    apiserver.uninstall_crd()
    missing_crd = dgd(apiserver, "diff", "-f", manifest(tmp_path, graph()))
    assert missing_crd.returncode == 3, missing_crd.stdout + missing_crd.stderr
    assert "is not installed in this cluster" in missing_crd.stderr
    assert "Traceback" not in missing_crd.stderr
