"""Valid manifests kubectl reads, read by every file command and by the Argo CD plugin.

Issue 21: a ``:`` inside a flow collection (``args: [--host, 0.0.0.0:8000]``), a graph whose
components share one anchored pod template, UTF-16 files with a byte-order mark and JSON files
for ``restart -f`` were refused (exit 2) while kubectl reads them. Each case runs through
validate, render, status -f, restart -f, convert and ``dgd-argocd generate``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.argocd.harness import run_plugin
from tests.bad_input.corpus import FLOW_COLON_GRAPH, shared_template_graph
from tests.conftest import run_cli

Case = Callable[[], bytes]
CASES: dict[str, Case] = {
    "colons-in-flow-collections": FLOW_COLON_GRAPH.encode,
    "components-sharing-an-anchored-pod-template": lambda: shared_template_graph().encode(),
    "utf-16-le-with-bom": lambda: ("\ufeff" + FLOW_COLON_GRAPH).encode("utf-16-le"),
    "utf-16-be-with-bom": lambda: ("\ufeff" + FLOW_COLON_GRAPH).encode("utf-16-be"),
}


def _write(tmp_path: Path, case: str) -> Path:
    path = tmp_path / "graph.yaml"
    path.write_bytes(CASES[case]())
    return path


def _no_refusal(result: object) -> str:
    out = getattr(result, "stdout", "") + getattr(result, "stderr", "")
    assert "malformed" not in out and "alias" not in out and "binary" not in out, out
    return out


@pytest.mark.parametrize("case", CASES)
def test_validate_reads_it(tmp_path: Path, case: str) -> None:
    result = run_cli("validate", "-o", "json", str(_write(tmp_path, case)))
    _no_refusal(result)
    assert result.returncode == 0, result.stdout + result.stderr
    (item,) = json.loads(result.stdout)["items"]
    assert item["valid"] is True, item


@pytest.mark.parametrize("case", CASES)
def test_render_reads_it_and_keeps_the_values(tmp_path: Path, case: str) -> None:
    result = run_cli("render", "-f", str(_write(tmp_path, case)), "-o", "json")
    _no_refusal(result)
    assert result.returncode == 0, result.stderr
    if "sharing" not in case:
        for value in ("0.0.0.0:8000", "http://etcd:2379", "127.0.0.1:50051", "nats:4222"):
            assert json.dumps(value) in result.stdout


@pytest.mark.parametrize("case", CASES)
def test_status_from_a_file_reads_it(tmp_path: Path, case: str) -> None:
    result = run_cli("status", "-f", str(_write(tmp_path, case)))
    _no_refusal(result)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("case", CASES)
def test_convert_reads_it(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, case)
    result = run_cli("convert", "-f", str(path))
    _no_refusal(result)
    assert result.returncode == 0, result.stderr
    assert "nothing to convert" in result.stderr


@pytest.mark.parametrize("case", CASES)
def test_restart_from_a_file_edits_it_and_keeps_its_encoding(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, case)
    before = path.read_bytes()
    result = run_cli("restart", "-f", str(path), "--id", "after-21")
    _no_refusal(result)
    assert result.returncode == 0, result.stderr
    after = path.read_bytes()
    assert after[:2] == before[:2]  # a UTF-16 file stays UTF-16, with its BOM
    check = run_cli("validate", "-o", "json", str(path))
    assert check.returncode == 1, check.stdout  # spec.restart on create: a finding, readable
    text = after.decode("utf-16") if before[:2] in (b"\xff\xfe", b"\xfe\xff") else after.decode()
    assert "id: after-21" in text
    original = CASES[case]()
    original_text = (
        original.decode("utf-16")
        if original[:2] in (b"\xff\xfe", b"\xfe\xff")
        else original.decode()
    )
    assert text.startswith(original_text.removeprefix("\ufeff"))  # appended, the rest kept


def test_restart_from_a_file_edits_a_json_manifest_and_it_stays_json(tmp_path: Path) -> None:
    path = tmp_path / "graph.json"
    graph = {
        "apiVersion": "nvidia.com/v1beta1",
        "kind": "DynamoGraphDeployment",
        "metadata": {"name": "from-json"},
        "spec": {"components": [{"name": "Frontend", "type": "frontend"}]},
    }
    path.write_text(json.dumps(graph, indent=2) + "\n")
    result = run_cli("restart", "-f", str(path), "--id", "json-1")
    assert result.returncode == 0, result.stdout + result.stderr
    edited = json.loads(path.read_text())
    assert edited["spec"]["restart"]["id"] == "json-1"
    assert {**edited, "spec": {"components": edited["spec"]["components"]}} == graph
    again = run_cli("restart", "-f", str(path), "--id", "json-2")
    assert again.returncode == 0, again.stderr
    assert json.loads(path.read_text())["spec"]["restart"]["id"] == "json-2"


@pytest.mark.parametrize("case", CASES)
def test_the_argocd_plugin_generates_it(tmp_path: Path, case: str) -> None:
    repo = tmp_path / "repo"
    app = repo / "apps" / "graph"
    app.mkdir(parents=True)
    (app / "graph.yaml").write_bytes(CASES[case]())
    run = run_plugin(repo, "apps/graph")
    assert run.returncode == 0, run.stderr
    (graph,) = [o for o in run.objects if o.get("kind") == "DynamoGraphDeployment"]
    if "sharing" in case:
        components = graph["spec"]["components"]
        assert len(components) == 25
        assert all(c["podTemplate"] == components[0]["podTemplate"] for c in components)
    else:
        container = graph["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]
        assert container["args"][1] == "0.0.0.0:8000"
        assert container["env"] == [{"name": "ADDR", "value": "nats:4222"}]
        assert graph["metadata"]["annotations"] == {
            "docs": "https://example.com/x",
            "window": "02:00-04:00",
        }
