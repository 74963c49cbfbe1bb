"""What a plain ``generate`` (v1beta1 graphs, no parameters, few files) loads: only what it
uses. The command line parser, the view and printer modules of the kubectl plugin's formats,
the v1alpha1 conversion and the update rules, the worker pool's modules and inspect's own
imports (dataclasses imports inspect for a docstring ours never need) load only where they are
used, which a 20-file application never does; each is milliseconds of its start-up. The probe
runs the entry point in a fresh interpreter (tests/unit/test_contracts_imports.py)."""

from __future__ import annotations

from pathlib import Path

from tests.argocd.harness import FIXTURE_REPO, write_large_repo
from tests.unit.test_contracts_imports import run_probe

NOT_ON_THE_PLAIN_PATH = (
    "argparse",
    "kubectl_dgd.argocd.arguments",
    "kubectl_dgd.core.views",
    "kubectl_dgd.output.printer",
    "kubectl_dgd.core.convert",
    "kubectl_dgd.core.validate.webhook_alpha",
    "kubectl_dgd.core.validate.webhook_update",
    "multiprocessing",
    "concurrent.futures",
    # inspect is entered deferred (argocd/main.py): what it would load never is
    "ast",
    "dis",
    "tokenize",
)


def test_a_plain_generate_loads_none_of_what_it_does_not_use(tmp_path: Path) -> None:
    result = run_probe(tmp_path, "dgd-argocd", "generate", str(FIXTURE_REPO / "apps" / "plain"))
    assert result["code"] == 0, result["stderr"]
    assert "kind: DynamoGraphDeployment" in str(result["stdout"])
    modules = result["modules"]
    assert isinstance(modules, list)
    assert sorted(set(NOT_ON_THE_PLAIN_PATH) & set(modules)) == []


def test_a_v1alpha1_graph_still_loads_its_conversion(tmp_path: Path) -> None:
    """The other side: the lazily loaded modules are there when a graph needs them."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "graph.yaml").write_text(
        "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
        "spec:\n  backendFramework: vllm\n  services:\n    Frontend:\n      componentType: frontend\n"
        "      replicas: 1\n      extraPodSpec:\n        mainContainer:\n"
        "          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n"
    )
    result = run_probe(tmp_path, "dgd-argocd", "generate", str(app))
    assert result["code"] == 0, result["stderr"]
    modules = result["modules"]
    assert isinstance(modules, list)
    assert {"kubectl_dgd.core.convert", "kubectl_dgd.core.validate.webhook_alpha"} <= set(modules)


def test_workers_are_forked_without_a_process_pool_library(tmp_path: Path) -> None:
    """usecases/forked.py forks and pipes; multiprocessing and concurrent.futures (13 ms of
    imports before the first worker starts) stay unloaded, and the output is the same."""
    repo = write_large_repo(tmp_path / "repo", 60)
    app = str(repo / "apps" / "large")
    alone = run_probe(tmp_path, "dgd-argocd", "generate", app, env={"DGD_WORKERS": "1"})
    forked = run_probe(tmp_path, "dgd-argocd", "generate", app, env={"DGD_WORKERS": "3"})
    assert forked["code"] == alone["code"] == 0, forked["stderr"]
    assert forked["stdout"] == alone["stdout"]
    modules = forked["modules"]
    assert isinstance(modules, list)
    assert "kubectl_dgd.usecases.forked" in modules
    assert sorted({"multiprocessing", "concurrent.futures"} & set(modules)) == []
