"""Inputs that hold no DynamoGraphDeployment: every offline command says so in one line and exits
3 (what it works on is not there), instead of validating nothing with exit 0. The Argo CD plugin
is not one of them: an application of other manifests still renders them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.argocd.harness import run_plugin, split_like_argocd
from tests.conftest import EXAMPLES, ROOT, run_cli

CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n"


@pytest.fixture
def manifests(tmp_path: Path) -> Path:
    """manifests/: two files, three objects, none of them a graph (and an empty document)."""
    folder = tmp_path / "manifests"
    folder.mkdir()
    (folder / "a.yaml").write_text(
        CONFIGMAP.format(name="a") + "---\n---\n" + "apiVersion: v1\nkind: Service\n"
        "metadata:\n  name: b\n"
    )
    (folder / "b.yaml").write_text(CONFIGMAP.format(name="c"))
    return folder


NOT_FOUND = "error: no DynamoGraphDeployment in manifests (2 files read, 3 other objects)\n"


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "manifests"],
        ["validate", "-o", "sarif", "manifests"],
        ["validate", "-o", "junit", "-f", "manifests"],
        ["render", "-f", "manifests"],
        ["diff", "-f", "manifests", "-R"],
        ["upgrade-check", "--to", "1.6", "--from", "1.5", "--local", "-f", "manifests"],
    ],
    ids=lambda args: " ".join(args[:3]),
)
def test_a_directory_without_graphs_is_not_found(manifests: Path, args: list[str]) -> None:
    result = run_cli(*args, cwd=manifests.parent)
    assert (result.returncode, result.stdout, result.stderr) == (3, "", NOT_FOUND)


def test_convert_of_a_file_without_graphs_is_not_found(manifests: Path) -> None:
    result = run_cli("convert", "-f", "manifests/a.yaml", cwd=manifests.parent)
    assert (result.returncode, result.stdout, result.stderr) == (
        3,
        "",
        "error: no DynamoGraphDeployment in manifests/a.yaml (1 file read, 2 other objects)\n",
    )


def test_convert_of_v1beta1_graphs_still_has_nothing_to_convert() -> None:
    result = run_cli("convert", "-f", str(EXAMPLES / "vllm-agg.yaml"))
    assert result.returncode == 0
    assert result.stdout == (EXAMPLES / "vllm-agg.yaml").read_text()
    assert "no nvidia.com/v1alpha1 DynamoGraphDeployment; nothing to convert" in result.stderr


def test_standard_input_without_graphs_is_named_as_such() -> None:
    result = run_cli("validate", "-", stdin=CONFIGMAP.format(name="x"))
    assert (result.returncode, result.stderr) == (
        3,
        "error: no DynamoGraphDeployment in standard input (1 file read, 1 other object)\n",
    )


def test_a_graph_anywhere_in_the_inputs_is_enough(manifests: Path) -> None:
    result = run_cli("validate", "manifests", str(EXAMPLES / "vllm-agg.yaml"), cwd=manifests.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == ("4 documents, 1 graph: 1 valid, 0 invalid, 3 skipped")


def test_an_unreadable_file_is_reported_as_such_not_as_no_graph(manifests: Path) -> None:
    (manifests / "broken.yaml").write_text("kind: [\n")
    result = run_cli("validate", "manifests", cwd=manifests.parent)
    assert result.returncode == 2
    assert "no DynamoGraphDeployment" not in result.stderr
    assert result.stderr.startswith("error: manifests/broken.yaml:")


def test_allow_no_graph_exits_zero_with_the_counts(manifests: Path) -> None:
    result = run_cli("validate", "--allow-no-graph", "manifests", cwd=manifests.parent)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "3 documents, 0 graphs: 0 valid, 0 invalid, 3 skipped\n"


def test_the_pre_commit_hook_passes_a_batch_without_graphs(manifests: Path) -> None:
    """pre-commit hands the hook every changed YAML file, in batches: one of ConfigMaps only
    must pass. The hook's declared entry, run as pre-commit runs it (entry + file names)."""
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    program, *args = hook["entry"].split()
    assert program == "kubectl-dgd"
    result = run_cli(*args, "manifests/a.yaml", "manifests/b.yaml", cwd=manifests.parent)
    assert result.returncode == 0, result.stderr


def test_the_argocd_plugin_still_renders_an_application_without_graphs(manifests: Path) -> None:
    run = run_plugin(manifests.parent, "manifests")
    assert run.returncode == 0, run.stderr
    assert [(o["kind"], o["metadata"]["name"]) for o in split_like_argocd(run.stdout)] == [
        ("ConfigMap", "a"),
        ("Service", "b"),
        ("ConfigMap", "c"),
    ]
