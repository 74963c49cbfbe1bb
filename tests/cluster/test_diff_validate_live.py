"""``diff -f`` and ``validate --live`` against the test API server, through the console script."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import component, dgd, graph
from tests.conftest import assert_golden


def manifest(tmp_path: Path, obj: dict[str, Any], name: str = "graph.yaml") -> str:
    data = copy.deepcopy(obj)
    data.pop("status", None)
    for key in ("creationTimestamp", "resourceVersion", "uid", "generation"):
        data["metadata"].pop(key, None)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def test_diff_without_difference_exits_0(apiserver: ApiServer, tmp_path: Path) -> None:
    live = apiserver.seed(graph())[0]
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, live))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "dynamographdeployment dynamo/my-graph\nno differences\n"


def test_diff_of_a_worker_image_predicts_a_rolling_update_of_all_workers(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["components"][2]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "nvcr.io/dynamo:1.5.2"
    )
    new["spec"]["components"][0]["replicas"] = 2
    path = manifest(tmp_path, new)
    result = dgd(apiserver, "diff", "-f", path, "-o", "wide")  # wide: one line per row
    assert result.returncode == 1, result.stderr
    assert_golden("cluster/diff-worker-image.txt", result.stdout)
    for columns in ("80", "200"):
        fitted = dgd(apiserver, "diff", "-f", path, env={"COLUMNS": columns})
        assert fitted.returncode == 1, fitted.stderr
        assert max(len(line) for line in fitted.stdout.splitlines()) <= int(columns)
        assert_golden(f"cluster/diff-worker-image_{columns}.txt", fitted.stdout)


def test_diff_shows_an_admission_rejection(apiserver: ApiServer, tmp_path: Path) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["components"] = new["spec"]["components"][:2]
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, new))
    assert result.returncode == 1
    assert "Rejected by admission (nothing would change):" in result.stdout
    assert "components removed: [prefill]" in " ".join(result.stdout.split())  # wrapped


def test_diff_json_output(apiserver: ApiServer, tmp_path: Path) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["components"][1]["replicas"] = 7
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, new), "-o", "json")
    data = json.loads(result.stdout)[0]
    assert data["changes"] == [
        {"change": "~", "path": "spec.components[1].replicas", "old": 2, "new": 7}
    ]
    assert {c["name"]: c["impact"] for c in data["impact"]["components"]}["decode"] == "scale"


def test_diff_of_a_graph_not_in_the_cluster(apiserver: ApiServer, tmp_path: Path) -> None:
    result = dgd(
        apiserver, "diff", "-f", manifest(tmp_path, graph("brand-new", labels={"team": "a"}))
    )
    assert result.returncode == 1
    assert "(not in the cluster: would be created)" in result.stdout
    changes = result.stdout.split("Changes:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.split(":", 1)[0].strip() for line in changes] == [
        "+ apiVersion",
        "+ kind",
        "+ metadata.annotations",
        "+ metadata.labels",
        "+ spec",
    ]


def test_diff_refuses_a_namespace_flag_the_file_contradicts(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    """As kubectl diff: -n other with a file saying dynamo is an error, not a silent choice."""
    live = apiserver.seed(graph())[0]
    apiserver.clear_log()
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, live), "-n", "other")
    assert result.returncode == 2
    assert result.stderr == (
        "error: the namespace of 'my-graph' in the file (\"dynamo\") does not match the "
        'namespace "other": pass -n dynamo or remove it from the file\n'
    )
    assert apiserver.requests() == []
    assert dgd(apiserver, "diff", "-f", manifest(tmp_path, live), "-n", "dynamo").returncode == 0


def test_diff_ignores_labels_the_file_does_not_set(apiserver: ApiServer, tmp_path: Path) -> None:
    live = apiserver.seed(graph(labels={"added-by": "someone-else"}))[0]
    new = copy.deepcopy(live)
    new["metadata"]["labels"] = {}
    assert dgd(apiserver, "diff", "-f", manifest(tmp_path, new)).returncode == 0


def test_diff_error_exits_above_1(apiserver: ApiServer, tmp_path: Path) -> None:
    apiserver.faults.fail_next(1, 500)
    result = dgd(apiserver, "diff", "-f", manifest(tmp_path, graph()))
    assert result.returncode > 1
    missing = dgd(apiserver, "diff", "-f", str(tmp_path / "nope.yaml"))
    assert missing.returncode > 1


def test_validate_live_applies_update_rules_against_the_live_object(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(graph())[0]
    new = copy.deepcopy(live)
    new["spec"]["backendFramework"] = "sglang"
    offline = dgd(apiserver, "validate", manifest(tmp_path, new))
    assert offline.returncode == 0, offline.stdout  # a create: no immutability rules
    result = dgd(apiserver, "validate", "--live", manifest(tmp_path, new))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "spec.backendFramework" in result.stdout and "immutable" in result.stdout


def test_validate_server_dry_run_reports_the_webhooks_answer(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    apiserver.seed(graph())

    def webhook(
        operation: str, rt: object, old: object, new: dict[str, Any]
    ) -> list[tuple[str, str, str]] | None:
        if (new.get("metadata") or {}).get("labels", {}).get("deny") == "yes":
            return [
                (
                    "metadata.labels",
                    "FieldValueForbidden",
                    "metadata.labels[deny]: Forbidden: test webhook",
                )
            ]
        return None

    apiserver.store.validators.append(webhook)
    new = graph(labels={"deny": "yes"})
    apiserver.clear_log()
    result = dgd(apiserver, "validate", "--live", "--server-dry-run", manifest(tmp_path, new))
    assert result.returncode == 1
    assert "server dry-run: rejected by the API server (422)" in result.stdout
    assert "test webhook" in result.stdout
    writes = [r for r in apiserver.request_log if r.verb in ("update", "create", "patch")]
    assert [r.query.get("dryRun") for r in writes] == [["All"]]
    assert "deny" not in str(
        apiserver.store.get(
            apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments"),
            "dynamo",
            "my-graph",
        )["metadata"].get("labels")
    )


def test_validate_live_without_the_crd_is_not_found(apiserver: ApiServer, tmp_path: Path) -> None:
    apiserver.uninstall_crd()
    result = dgd(
        apiserver,
        "validate",
        "--live",
        manifest(tmp_path, graph(components=[component("w", "worker")])),
    )
    assert result.returncode == 3
    assert "is not installed in this cluster" in result.stderr


def test_validate_live_refuses_a_namespace_flag_the_file_contradicts(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    live = apiserver.seed(graph())[0]
    result = dgd(apiserver, "validate", "--live", "-f", manifest(tmp_path, live), "-n", "other")
    assert result.returncode == 2
    assert 'does not match the namespace "other": pass -n dynamo' in result.stderr
    assert "Traceback" not in result.stderr
    ok = dgd(apiserver, "validate", "--live", "-f", manifest(tmp_path, live), "-n", "dynamo")
    assert ok.returncode == 0, ok.stdout + ok.stderr


def test_diff_of_a_v1alpha1_file_compares_its_conversion(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    apiserver.seed(graph())
    services = {
        "Frontend": {"componentType": "frontend", "replicas": 1},
        "decode": {"componentType": "worker", "subComponentType": "decode", "replicas": 2},
        "prefill": {"componentType": "worker", "subComponentType": "prefill", "replicas": 1},
    }
    for name, gpus in (("Frontend", 0), ("decode", 1), ("prefill", 2)):
        services[name]["extraPodSpec"] = {"mainContainer": {"image": "nvcr.io/dynamo:1.5.0"}}
        if gpus:
            services[name]["resources"] = {"limits": {"gpu": str(gpus)}}
    alpha = {
        "apiVersion": "nvidia.com/v1alpha1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "my-graph", "namespace": "dynamo"},
        "spec": {"backendFramework": "vllm", "services": services},
    }
    path = tmp_path / "alpha.yaml"
    path.write_text(yaml.safe_dump(alpha, sort_keys=False))
    result = dgd(apiserver, "diff", "-f", str(path))
    assert (result.returncode, result.stdout) == (
        0,
        "dynamographdeployment dynamo/my-graph\nno differences\n",
    ), result.stderr
    services["decode"]["replicas"] = 3
    path.write_text(yaml.safe_dump(alpha, sort_keys=False))
    changed = dgd(apiserver, "diff", "-f", str(path))
    assert changed.returncode == 1
    assert "spec.components[1].replicas" in changed.stdout


def test_validate_live_says_which_operator_version_it_used(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    stamped = graph()
    stamped["metadata"].setdefault("annotations", {})[
        "nvidia.com/dynamo-operator-origin-version"
    ] = "1.4.0"
    live = apiserver.seed(stamped)[0]
    result = dgd(apiserver, "validate", "--live", manifest(tmp_path, live))
    assert (
        "info: checking against operator 1.4: from the nvidia.com/dynamo-operator-origin-version "
        "annotation 1.4 on the graphs" in result.stderr
    ), result.stderr
    explicit = dgd(
        apiserver, "validate", "--live", "--operator-version", "1.6", manifest(tmp_path, live)
    )
    assert "checking against operator" not in explicit.stderr
