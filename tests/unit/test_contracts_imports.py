"""The offline paths never load the heavy packages: ``kubernetes`` (~300 ms to import),
``deepdiff`` (~200 ms), ``pydantic`` and ``semver`` (dev tools only: README "Dependencies"), or
``urllib3`` (the client's transport, ~50 ms). Each command runs to completion in a fresh
interpreter over this checkout, and the modules loaded by then are read from ``sys.modules``;
lazy imports inside functions count, which ``--help`` alone would never reach. What a live command loads of ``kubernetes``: tests/cluster/test_kubeclient.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "manifests" / "examples"
HEAVY = ("kubernetes", "deepdiff", "pydantic", "semver", "urllib3")

# Runs one entry point's main() with argv, then writes what it loaded and where from.
PROBE = """
import json, sys
entry, report, *argv = sys.argv[1:]
sys.argv = [entry, *argv]
code = 0
try:
    if entry == "kubectl-dgd":
        from kubectl_dgd.cli.entry import main  # the console scripts' functions
    else:
        from kubectl_dgd.argocd.entry import main
    main()
except SystemExit as exc:
    code = exc.code
import kubectl_dgd
with open(report, "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules), "package": kubectl_dgd.__file__}, fh)
"""


def run_probe(
    tmp_path: Path, entry: str, *argv: str, env: dict[str, str] | None = None
) -> dict[str, object]:
    report = tmp_path / "report.json"
    full_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ARGOCD_", "PARAM_", "DGD_", "KUBECONFIG", "PYTHON"))
    }
    # The checkout under test comes first, whatever the venv has installed.
    full_env.update({"PYTHONPATH": str(ROOT), "NO_COLOR": "1", **(env or {})})
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, entry, str(report), *argv],
        cwd=tmp_path,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert report.exists(), proc.stderr
    result: dict[str, object] = json.loads(report.read_text())
    result["stdout"] = proc.stdout
    result["stderr"] = proc.stderr
    return result


def heavy_loaded(result: dict[str, object]) -> list[str]:
    modules = result["modules"]
    assert isinstance(modules, list)
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY))


def assert_light(result: dict[str, object], code: int = 0) -> None:
    assert result["code"] == code, result["stderr"]
    assert str(result["package"]).startswith(str(ROOT / "kubectl_dgd")), result["package"]
    assert heavy_loaded(result) == []


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """An Argo CD application directory with three valid graphs (both pathways, multinode)."""
    path = tmp_path / "app"
    path.mkdir()
    for name in ("vllm-agg.yaml", "sglang-disagg.yaml", "trtllm-multinode.yaml"):
        shutil.copy(EXAMPLES / name, path / name)
    return path


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--help"], id="help"),
        pytest.param(["validate", str(EXAMPLES / "vllm-agg.yaml")], id="validate"),
        pytest.param(
            ["validate", "-o", "json", str(EXAMPLES / "vllm-agg.yaml")], id="validate-json"
        ),
        *(
            pytest.param(
                ["validate", "-o", fmt, str(EXAMPLES / "vllm-agg.yaml")], id=f"validate-{fmt}"
            )
            for fmt in ("junit", "tap", "sarif", "github")
        ),
        pytest.param(["render", str(EXAMPLES / "trtllm-multinode.yaml")], id="render"),
        pytest.param(
            ["render", "-o", "json", "--provider", "component", str(EXAMPLES / "vllm-agg.yaml")],
            id="render-json-component-path",
        ),
    ],
)
def test_offline_kubectl_commands_stay_light(tmp_path: Path, argv: list[str]) -> None:
    result = run_probe(tmp_path, "kubectl-dgd", *argv)
    assert_light(result)
    assert result["stdout"]


def test_validate_with_error_findings_stays_light(tmp_path: Path) -> None:
    result = run_probe(tmp_path, "kubectl-dgd", "validate", str(EXAMPLES / "invalid"))
    assert_light(result, code=1)


# What validate loads on demand only (start-up, issue 13): the v1alpha1 conversion and rules
# for alpha objects, the update rules when there is an old object.
ON_DEMAND = (
    "kubectl_dgd.core.convert.alpha",
    "kubectl_dgd.core.validate.webhook_alpha",
    "kubectl_dgd.core.validate.webhook_update",
)


def test_validate_of_v1beta1_graphs_to_create_leaves_alpha_and_update_rules_unloaded(
    tmp_path: Path,
) -> None:
    graphs = tmp_path / "graphs"
    graphs.mkdir()
    for example in [*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("invalid/*.yaml")]:
        shutil.copy(example, graphs / example.name)  # not status/: saved objects are updates
    result = run_probe(tmp_path, "kubectl-dgd", "validate", str(graphs))
    assert result["code"] == 1, result["stderr"]  # invalid/common-mistakes.yaml is among them
    assert not set(ON_DEMAND) & set(result["modules"])  # type: ignore[call-overload]


def test_validate_loads_them_for_an_alpha_graph(tmp_path: Path) -> None:
    alpha = ROOT / "tests" / "fixtures" / "alpha" / "vllm-disagg.yaml"
    result = run_probe(tmp_path, "kubectl-dgd", "validate", str(alpha))
    assert_light(result)
    assert {"kubectl_dgd.core.convert.alpha", "kubectl_dgd.core.validate.webhook_alpha"} <= set(
        result["modules"]  # type: ignore[call-overload]
    )


def test_restart_file_stays_light(tmp_path: Path) -> None:
    graph = tmp_path / "graph.yaml"
    shutil.copy(EXAMPLES / "vllm-agg.yaml", graph)
    result = run_probe(tmp_path, "kubectl-dgd", "restart", "-f", str(graph))
    assert_light(result)
    assert "restart:" in graph.read_text()  # the command really ran: the file was edited


@pytest.mark.parametrize(
    "env",
    [
        pytest.param({}, id="plain"),
        pytest.param({"DGD_CHILDREN": "preview"}, id="children-preview"),
        pytest.param({"DGD_RESTART_ID": "r1"}, id="restart-id"),
    ],
)
def test_argocd_generate_stays_light(tmp_path: Path, app: Path, env: dict[str, str]) -> None:
    result = run_probe(tmp_path, "dgd-argocd", "generate", str(app), env=env)
    assert_light(result)
    assert "kind: DynamoGraphDeployment" in str(result["stdout"])


def test_the_probe_sees_a_heavy_import(tmp_path: Path) -> None:
    """The probe can fail: a live command that tries a (closed) port has loaded kubernetes."""
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: x\n"
        "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:9'}}]\n"
        "users: [{name: u, user: {token: t}}]\n"
        "contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]\n"
    )
    result = run_probe(
        tmp_path,
        "kubectl-dgd",
        "diff",
        "-f",
        str(EXAMPLES / "vllm-agg.yaml"),
        env={"KUBECONFIG": str(kubeconfig)},
    )
    assert result["code"] == 4, result["stderr"]
    assert "kubernetes" in heavy_loaded(result)


@pytest.mark.parametrize("module", ["errors", "exitcodes"])
def test_errors_and_exitcodes_import_only_the_standard_library(module: str) -> None:
    """The leaves contract lists known third-party packages; this catches any new one."""
    import ast

    tree = ast.parse((ROOT / "kubectl_dgd" / f"{module}.py").read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    allowed = {"kubectl_dgd.errors", "kubectl_dgd.exitcodes"}
    outside = {
        m for m in imported if m not in allowed and m.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()
