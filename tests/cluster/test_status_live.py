"""``status NAME`` and ``list`` against the test API server, through the console script."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NOW, component, dgd, graph, three_graphs
from tests.conftest import assert_golden, run_cli


def test_status_name_is_one_get_then_exactly_the_offline_view(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    stored = apiserver.seed(graph())[0]
    apiserver.clear_log()
    live = dgd(apiserver, "status", "my-graph")
    assert live.returncode == 0, live.stderr
    assert [(r.method, r.verb) for r in apiserver.request_log] == [("GET", "get")]
    saved = tmp_path / "saved.yaml"
    saved.write_text(yaml.safe_dump(stored))
    offline = run_cli("status", "-f", str(saved), env={"DGD_NOW": NOW})
    assert live.stdout == offline.stdout
    assert "my-graph" in live.stdout


def test_status_name_json_output_is_the_offline_json(apiserver: ApiServer, tmp_path: Path) -> None:
    stored = apiserver.seed(graph())[0]
    saved = tmp_path / "saved.yaml"
    saved.write_text(yaml.safe_dump(stored))
    live = dgd(apiserver, "status", "my-graph", "-o", "json")
    assert json.loads(live.stdout) == json.loads(
        run_cli("status", "-f", str(saved), "-o", "json", env={"DGD_NOW": NOW}).stdout
    )


def test_status_uses_namespace_flag_over_context_namespace(apiserver: ApiServer) -> None:
    apiserver.seed(graph(namespace="elsewhere"))
    assert dgd(apiserver, "status", "my-graph").returncode == 3
    result = dgd(apiserver, "status", "my-graph", "-n", "elsewhere")
    assert result.returncode == 0, result.stderr
    assert "elsewhere" in result.stdout


def test_status_events_lists_the_graphs_recent_events(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    apiserver.seed(
        {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": "my-graph.1", "namespace": "dynamo"},
            "involvedObject": {
                "kind": "DynamoGraphDeployment",
                "name": "my-graph",
                "namespace": "dynamo",
            },
            "type": "Normal",
            "reason": "RollingUpdateStarted",
            "message": "Rolling update started",
            "lastTimestamp": "2026-11-01T11:58:00Z",
            "count": 1,
        },
        {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": "other.1", "namespace": "dynamo"},
            "involvedObject": {
                "kind": "DynamoGraphDeployment",
                "name": "other",
                "namespace": "dynamo",
            },
            "type": "Normal",
            "reason": "NotAboutUs",
            "message": "x",
            "lastTimestamp": "2026-11-01T11:58:00Z",
        },
    )
    result = dgd(apiserver, "status", "my-graph", "--events")
    assert result.returncode == 0, result.stderr
    events = result.stdout.split("Events:", 1)[1]
    assert "RollingUpdateStarted" in events and "2m" in events
    assert "NotAboutUs" not in events
    for output in ("json", "yaml"):
        structured = dgd(apiserver, "status", "my-graph", "--events", "-o", output)
        assert structured.returncode == 0, structured.stderr
        data = (json.loads if output == "json" else yaml.safe_load)(structured.stdout)
        assert data["events"] == [
            {
                "type": "Normal",
                "reason": "RollingUpdateStarted",
                "message": "Rolling update started",
                "count": 1,
                "firstTimestamp": None,
                "lastTimestamp": "2026-11-01T11:58:00Z",
            }
        ], output
        assert data["name"] == "my-graph"


def _three_graphs(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())


def test_list_is_one_request_with_a_row_per_graph(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    apiserver.clear_log()
    result = dgd(apiserver, "list")
    assert result.returncode == 0, result.stderr
    assert [r.verb for r in apiserver.request_log] == ["list"]
    assert_golden("cluster/list.txt", result.stdout)


def test_status_without_name_is_the_list(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    assert dgd(apiserver, "status").stdout == dgd(apiserver, "list").stdout


def test_list_all_namespaces_adds_the_namespace_column(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    result = dgd(apiserver, "list", "-A")
    assert_golden("cluster/list-all-namespaces.txt", result.stdout)


def test_list_wide_and_no_headers(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    wide = dgd(apiserver, "list", "-o", "wide", "--no-headers")
    assert_golden("cluster/list-wide-no-headers.txt", wide.stdout)


def test_list_label_selector_is_sent_to_the_server(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    apiserver.clear_log()
    result = dgd(apiserver, "list", "-l", "team=a", "-o", "name")
    assert result.stdout == "dynamographdeployment.nvidia.com/rolling\n"
    assert apiserver.request_log[0].query.get("labelSelector") == ["team=a"]


def test_list_json_is_a_list_of_the_objects(apiserver: ApiServer) -> None:
    _three_graphs(apiserver)
    data = json.loads(dgd(apiserver, "list", "-o", "json").stdout)
    assert data["kind"] == "List"
    assert [i["metadata"]["name"] for i in data["items"]] == ["my-graph", "restarted", "rolling"]
    assert yaml.safe_load(dgd(apiserver, "list", "-o", "yaml").stdout) == data


def test_list_counts_gpus_from_the_spec_when_status_has_none(apiserver: ApiServer) -> None:
    apiserver.seed(graph(components=[component("w", "worker", replicas=3, gpus=4)]))
    result = dgd(apiserver, "list", "--no-headers")
    assert result.stdout.split()[4] == "12"


def test_list_of_an_empty_namespace_says_so_on_stderr(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "list")
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr == "No resources found in dynamo namespace.\n"


def test_exec_credential_plugin_and_a_second_kubeconfig_file(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    """Credentials from an exec plugin, and KUBECONFIG=a:b where a only sets current-context."""
    import os
    import sys

    apiserver.seed(graph())
    assert apiserver.kubeconfig is not None
    config = yaml.safe_load(apiserver.kubeconfig.read_text())
    plugin = tmp_path / "cred.py"
    plugin.write_text(
        "import json\n"
        'print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1", '
        f'"kind": "ExecCredential", "status": {{"token": "{apiserver.token}"}}}}))\n'
    )
    config["users"][0]["user"] = {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1",
            "command": sys.executable,
            "args": [str(plugin)],
            "interactiveMode": "Never",
        }
    }
    current = config.pop("current-context")
    main = tmp_path / "main-config"
    main.write_text(yaml.safe_dump(config))
    selector = tmp_path / "selector-config"
    selector.write_text(
        yaml.safe_dump({"apiVersion": "v1", "kind": "Config", "current-context": current})
    )
    result = dgd(
        apiserver,
        "status",
        "my-graph",
        env={"KUBECONFIG": os.pathsep.join([str(selector), str(main)])},
    )
    assert result.returncode == 0, result.stderr
    assert "Namespace:    dynamo" in result.stdout
