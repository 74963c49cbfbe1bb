"""Every shipped example Application syncs Git's changes, under Argo CD's own semantics.

Each example's ignoreDifferences (its own and the kind's in argocd-cm) and sync options are run
through tests/argocd/argo_semantics.py: a change made in Git inside a component (an image bump)
must show as OutOfSync and must be what the sync applies. RespectIgnoreDifferences=true fails
that, because the kind's rules reach into ``spec.components[]`` (checked below, so the test can
fail), and no shipped example may set it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.argocd.argo_semantics import GOJQ, applied_by_sync, out_of_sync
from tests.argocd.harness import repo_copy, run_plugin
from tests.argocd.live_objects import git_graph, live_graph
from tests.argocd.test_ignore_differences import system_rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "manifests" / "argocd").glob("*.yaml"))
OLD, NEW = (
    "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0",
    "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0",
)

pytestmark = pytest.mark.skipif(GOJQ is None, reason="gojq is not installed")


def _applications() -> list[Any]:
    apps = []
    for path in EXAMPLES:
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "Application":
                apps.append(pytest.param(doc, id=f"{path.stem}/{doc['metadata']['name']}"))
    return apps


def _rules(app: dict[str, Any]) -> list[dict[str, Any]]:
    return list(app["spec"].get("ignoreDifferences") or []) + system_rules()


def _options(app: dict[str, Any]) -> list[str]:
    return list((app["spec"].get("syncPolicy") or {}).get("syncOptions") or [])


def _with_image(obj: dict[str, Any], image: str) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    worker = obj["spec"]["components"][1]
    worker["podTemplate"] = {"spec": {"containers": [{"name": "main", "image": image}]}}
    return obj


def _image(obj: dict[str, Any]) -> str:
    return str(obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"])


def test_there_are_example_applications() -> None:
    assert len(_applications()) >= 3


@pytest.mark.parametrize("app", _applications())
def test_an_image_bump_in_git_is_seen_and_applied(app: dict[str, Any]) -> None:
    git, live = _with_image(git_graph(), NEW), _with_image(live_graph(), OLD)
    rules = _rules(app)
    assert out_of_sync(git, live, rules)
    assert _image(applied_by_sync(git, live, rules, _options(app))) == NEW


@pytest.mark.parametrize("app", _applications())
def test_no_example_sets_respect_ignore_differences(app: dict[str, Any]) -> None:
    assert "RespectIgnoreDifferences=true" not in _options(app)


def test_respect_ignore_differences_applied_the_live_component_list_before_the_fix() -> None:
    # Before 3.3.13/3.4.5/3.5.0: the live list replaces Git's, and the bump is lost.
    git, live = _with_image(git_graph(), NEW), _with_image(live_graph(), OLD)
    applied = applied_by_sync(
        git, live, system_rules(), ["RespectIgnoreDifferences=true"], restores_untouched=False
    )
    assert _image(applied) == OLD


def test_respect_ignore_differences_still_loses_git_changes_when_a_rule_touches_gits_list() -> None:
    # Since the fix Git's list comes back only if no rule changed it; Git's replicas beside a
    # scaling adapter (which the kind ignores) are such a change, so the bump is still lost.
    git, live = _with_image(git_graph(), NEW), _with_image(live_graph(), OLD)
    assert "replicas" in git["spec"]["components"][1]
    applied = applied_by_sync(git, live, system_rules(), ["RespectIgnoreDifferences=true"])
    assert _image(applied) == OLD


def test_respect_ignore_differences_keeps_git_changes_since_the_fix_when_no_rule_touches_them() -> (
    None
):
    git, live = _with_image(git_graph(), NEW), _with_image(live_graph(), OLD)
    del git["spec"]["components"][1]["replicas"]  # as the lint advises
    applied = applied_by_sync(git, live, system_rules(), ["RespectIgnoreDifferences=true"])
    assert _image(applied) == NEW
    assert "replicas" not in applied["spec"]["components"][1]  # Git's list, as written


def test_an_imperative_restart_is_no_drift() -> None:
    # kubectl dgd restart wrote spec.restart on the live object; Git never has it. What a sync
    # then sends is kubectl's work: test_apply.py runs the real kubectl for it.
    restart_app = next(a.values[0] for a in _applications() if "imperative" in a.id)
    git = _with_image(git_graph(), OLD)
    del git["spec"]["restart"]
    live = _with_image(live_graph(), OLD)
    live["spec"]["restart"] = {"id": "2026-12-01T10:00:00Z", "strategy": {"type": "Parallel"}}
    assert not out_of_sync(git, live, _rules(restart_app))


def test_an_explicit_null_in_git_leaves_no_lasting_difference(tmp_path: Path) -> None:
    # gojq before 0.12.19 (Argo CD 3.1 to 3.4) turns `del(.spec.providerOverride.target)` on
    # `providerOverride: null` into `providerOverride: {}`, while the API server prunes the null
    # from the live object: the plugin's output must carry no null, or the app never syncs.
    repo = repo_copy(tmp_path)
    graph_file = repo / "apps" / "plain" / "agg.yaml"
    text = graph_file.read_text()
    assert "spec:\n  backendFramework: vllm\n" in text
    graph_file.write_text(
        text.replace(
            "spec:\n  backendFramework: vllm\n",
            "spec:\n  backendFramework: vllm\n  providerOverride: null\n  priorityClassName: ~\n",
        )
    )
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    generated = next(o for o in run.objects if o["metadata"]["name"] == "agg")
    assert "providerOverride" not in generated["spec"]
    assert "priorityClassName" not in generated["spec"]
    live = copy.deepcopy(generated)  # what the API server stores: nulls pruned
    assert not out_of_sync(generated, live, system_rules())
    with_null = copy.deepcopy(generated)
    with_null["spec"]["providerOverride"] = None
    assert out_of_sync(with_null, live, system_rules())  # why the nulls must go
