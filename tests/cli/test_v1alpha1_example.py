"""The v1alpha1 example (manifests/examples/v1alpha1/): every release that serves v1alpha1
admits it, `convert` rewrites it, the result is a v1beta1 graph those releases admit with no
finding at all, and the README's v1alpha1 section shows the real output."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, run_cli

EXAMPLE = "manifests/examples/v1alpha1/vllm-disagg-alpha.yaml"
RELEASES = ["1.3", "1.4", "1.5", "1.6"]  # every supported release serves v1alpha1 (deprecated)
DEPRECATED = (
    f"{EXAMPLE}:5: apiVersion: nvidia.com/v1alpha1 DynamoGraphDeployment is deprecated; use "
    "nvidia.com/v1beta1 DynamoGraphDeployment (warning, schema/deprecated-version)"
)
ONE_VALID = "1 document, 1 graph: 1 valid, 0 invalid, 0 skipped"


@pytest.mark.parametrize("release", RELEASES)
def test_every_release_admits_the_v1alpha1_example(release: str) -> None:
    result = run_cli("validate", "--operator-version", release, EXAMPLE, cwd=ROOT)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [DEPRECATED, ONE_VALID]  # nothing but the deprecation


@pytest.mark.parametrize("release", RELEASES)
def test_the_converted_example_is_a_v1beta1_graph_every_release_admits(
    tmp_path: Path, release: str
) -> None:
    converted = run_cli("convert", "-f", EXAMPLE, cwd=ROOT)
    assert (converted.returncode, converted.stderr) == (0, "")
    (graph,) = yaml.safe_load_all(converted.stdout)
    assert graph["apiVersion"] == "nvidia.com/v1beta1"
    assert [(c["name"], c["type"]) for c in graph["spec"]["components"]] == [
        ("Frontend", "frontend"),
        ("VllmDecodeWorker", "decode"),
        ("VllmPrefillWorker", "prefill"),
    ]
    target = tmp_path / "graph.yaml"
    target.write_text(converted.stdout)
    result = run_cli("validate", "--operator-version", release, str(target))
    assert (result.returncode, result.stdout) == (0, ONE_VALID + "\n")


def test_both_forms_render_the_same_children() -> None:
    alpha = run_cli("render", "-f", EXAMPLE, cwd=ROOT)
    beta = run_cli("render", "-", stdin=run_cli("convert", "-f", EXAMPLE, cwd=ROOT).stdout)
    assert alpha.returncode == beta.returncode == 0, alpha.stderr + beta.stderr
    assert alpha.stdout == beta.stdout


def test_the_readme_shows_the_real_output() -> None:
    readme = (ROOT / "README.md").read_text()
    validate_prompt = "$ kubectl dgd validate manifests/examples/v1alpha1/\n"
    convert_prompt = f"$ kubectl dgd convert -f {EXAMPLE} | head -n 47\n"
    again_prompt = f"$ kubectl dgd convert -f {EXAMPLE} | kubectl dgd validate -\n"
    start = readme.index(validate_prompt)
    block = readme[start : readme.index("```", start)]
    shown_validate = block[len(validate_prompt) : block.index(convert_prompt)]
    shown_convert = block[
        block.index(convert_prompt) + len(convert_prompt) : block.index(again_prompt)
    ]
    shown_again = block[block.index(again_prompt) + len(again_prompt) :]
    assert run_cli("validate", "manifests/examples/v1alpha1/", cwd=ROOT).stdout == shown_validate
    converted = run_cli("convert", "-f", EXAMPLE, cwd=ROOT).stdout
    assert "".join(converted.splitlines(keepends=True)[:47]) == shown_convert
    assert run_cli("validate", "-", stdin=converted).stdout == shown_again
