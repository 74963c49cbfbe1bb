"""`kubectl dgd convert`, and every v1alpha1 example and fixture judged and rendered the same as
its conversion."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.adapters.yamlload import load_file, load_text
from kubectl_dgd.core.convert import is_alpha
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import render_graph
from kubectl_dgd.core.validate.pipeline import validate_object
from kubectl_dgd.usecases.convert import comparable_findings
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
ALPHA = ROOT / "tests" / "fixtures" / "alpha"
PROFILES = [Profile(), Profile(provider="component")]


def alpha_files() -> list[Path]:
    """Every manifest of the repository's examples and fixtures that holds a v1alpha1 graph."""
    found = []
    for base in (ROOT / "manifests", ROOT / "tests" / "fixtures"):
        for path in sorted(base.rglob("*.y*ml")):
            try:
                documents = load_file(str(path))
            except Exception:  # deliberately broken fixtures are not graphs
                continue
            if any(is_alpha(d.data) for d in documents):
                found.append(path)
    return found


def test_the_fixture_set_covers_the_upstream_shapes() -> None:
    names = {p.stem for p in alpha_files()}
    assert {"vllm-agg", "vllm-disagg", "sglang-agg", "trtllm-disagg-multinode"} <= names
    assert {"vllm-disagg-planner", "kubebuilder-sample", "image-tags-rejected"} <= names
    assert "no-main-image" in names


CONVERTIBLE = [p for p in alpha_files() if p.stem != "pvcs-not-convertible"]


@pytest.mark.parametrize("path", CONVERTIBLE, ids=lambda p: p.stem)
def test_conversion_gets_the_same_verdict_messages_and_render(path: Path) -> None:
    result = run_cli("convert", "-f", str(path))
    assert result.returncode == 0, result.stderr
    before = [d.data for d in load_file(str(path)) if d.data is not None]
    after = [d.data for d in load_text(result.stdout, "converted") if d.data is not None]
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        if not is_alpha(old):
            assert new == old  # other documents unchanged
            continue
        assert new["apiVersion"] == "nvidia.com/v1beta1"
        for profile in PROFILES:
            old_findings = validate_object(old, bundled_schemas(), profile)
            new_findings = validate_object(new, bundled_schemas(), profile)
            assert comparable_findings(old_findings) == comparable_findings(new_findings)
            assert [f.severity == "error" for f in old_findings].count(True) == [
                f.severity == "error" for f in new_findings
            ].count(True)
            assert render_graph(old, profile) == render_graph(new, profile)


def test_render_of_a_v1alpha1_graph_has_its_cliques() -> None:
    result = run_cli("render", "-f", str(ALPHA / "vllm-disagg.yaml"))
    assert result.returncode == 0
    assert "cliques: []" not in result.stdout
    for clique in ("frontend", "vllmdecodeworker", "vllmprefillworker"):
        assert f"- name: {clique}\n" in result.stdout


def test_convert_keeps_other_documents_byte_for_byte_and_comments(tmp_path: Path) -> None:
    source = (ALPHA / "trtllm-disagg-multinode.yaml").read_text()
    result = run_cli("convert", "-f", str(ALPHA / "trtllm-disagg-multinode.yaml"))
    assert result.returncode == 0
    head = source.split("\n---\n")[0]
    assert result.stdout.startswith(head + "\n---\n")  # the ConfigMap, untouched
    converted = (ALPHA / "vllm-agg.yaml").read_text()
    out = run_cli("convert", "-f", str(ALPHA / "vllm-agg.yaml")).stdout
    assert out.startswith(converted.splitlines()[0] + "\n")  # the heading comment
    assert re.search(r"- Qwen/Qwen3-0.6B +# any HF model id\n", out)  # a comment stays with it
    assert "dynamoNamespace" not in out


def test_in_place_rewrites_atomically_and_notes_what_it_dropped(tmp_path: Path) -> None:
    target = tmp_path / "graph.yaml"
    target.write_text((ALPHA / "vllm-agg.yaml").read_text())
    result = run_cli("convert", "-f", str(target), "--in-place")
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "note: vllm-agg: spec.services[Frontend].dynamoNamespace: deprecated and ignored by the "
        "operator",
        f"converted vllm-agg: updated {target}",
    ]
    assert "apiVersion: nvidia.com/v1beta1" in target.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["graph.yaml"]  # no temporary file left
    again = run_cli("convert", "-f", str(target), "--in-place")
    assert again.returncode == 0
    assert "nothing to convert" in again.stderr


def test_lossy_graph_is_refused_with_every_blocker_at_its_line_and_the_file_unchanged(
    tmp_path: Path,
) -> None:
    """Every field v1beta1 has no place for, each on its own line at its own line of the file
    (it said "... (and 1 more)", hiding the second), then the refusal; exit 1."""
    target = tmp_path / "graph.yaml"
    original = (ALPHA / "pvcs-not-convertible.yaml").read_text()
    target.write_text(original)
    result = run_cli("convert", "-f", str(target), "--in-place")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{target}:7: spec.pvcs: v1beta1 has no PVC list (the operator creates these PVCs only "
        "from its v1alpha1 record); create the PVCs as their own objects and remove spec.pvcs",
        f"{target}:16: spec.services[Frontend].ingress: v1beta1 has no ingress; create the "
        "Ingress (or VirtualService) yourself",
        f"error: {target}:2: with-pvcs: not converted, the file is unchanged: 2 blockers above",
    ]
    assert target.read_text() == original


def test_every_refused_graph_of_a_file_is_listed(tmp_path: Path) -> None:
    """A second graph's blockers are not hidden behind the first's; the good graph of the file
    is not converted either (the file is unchanged)."""
    target = tmp_path / "graphs.yaml"
    original = (
        (ALPHA / "vllm-agg.yaml").read_text()
        + "---\n"
        + (ALPHA / "pvcs-not-convertible.yaml").read_text()
        + "---\n"
        + "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
        "spec:\n  services:\n"
        "    worker:\n      extraPodSpec:\n        mainContainer:\n          image: i:1.0.0\n"
        "    Worker:\n      extraPodSpec:\n        mainContainer:\n          image: i:1.0.0\n"
    )
    target.write_text(original)
    result = run_cli("convert", "-f", "graphs.yaml", "--in-place", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    lines = result.stderr.splitlines()
    start = original.count("\n", 0, original.index("name: with-pvcs")) + 1  # its metadata.name
    g_services = original.count("\n", 0, original.index("  services:\n    worker:")) + 1
    assert [line.split(": ", 2)[:2] for line in lines[:-1]] == [
        [f"graphs.yaml:{start + 2}", "spec.pvcs"],
        [f"graphs.yaml:{start + 11}", "spec.services[Frontend].ingress"],
        [f"graphs.yaml:{g_services}", "spec.components"],
    ]
    assert lines[2].endswith(
        "as v1beta1 it would be judged differently: Invalid value: component names must be "
        "unique case-insensitively (error, cel/cel-rule)"
    )
    assert lines[-1] == (
        "error: graphs.yaml: 2 graphs: not converted, the file is unchanged: 3 blockers above"
    )
    assert target.read_text() == original


def test_a_graph_the_v1beta1_rules_would_judge_differently_is_refused(tmp_path: Path) -> None:
    # Names equal but for case pass as v1alpha1; the v1beta1 CEL rule rejects them.
    target = tmp_path / "g.yaml"
    target.write_text(
        "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
        "spec:\n  services:\n"
        "    worker:\n      extraPodSpec:\n        mainContainer:\n          image: i:1.0.0\n"
        "    Worker:\n      extraPodSpec:\n        mainContainer:\n          image: i:1.0.0\n"
    )
    result = run_cli("convert", "-f", str(target))
    assert result.returncode == 1
    assert "as v1beta1 it would be judged differently: " in result.stderr
    assert "component names must be unique case-insensitively" in result.stderr


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_plain_output_formats(fmt: str) -> None:
    result = run_cli("convert", "-f", str(ALPHA / "vllm-disagg.yaml"), "-o", fmt)
    assert result.returncode == 0
    data = json.loads(result.stdout) if fmt == "json" else load_text(result.stdout, "out")[0].data
    assert [c["name"] for c in data["spec"]["components"]] == [
        "Frontend",
        "VllmDecodeWorker",
        "VllmPrefillWorker",
    ]
    assert [c.get("type") for c in data["spec"]["components"]] == ["frontend", "decode", "prefill"]


def test_usage_errors_are_one_line() -> None:
    result = run_cli("convert", "-f", str(ALPHA / "vllm-agg.yaml"), "--in-place", "-o", "json")
    assert (result.returncode, result.stderr) == (
        2,
        "error: --in-place rewrites the file in its own format; drop -o\n",
    )
    missing = run_cli("convert")
    assert missing.returncode == 2
    assert len(missing.stderr.splitlines()) == 1


def test_an_unserved_version_is_an_error_in_convert_render_and_validate(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text(
        "apiVersion: nvidia.com/v1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
    )
    message = (
        'no matches for kind "DynamoGraphDeployment" in version "nvidia.com/v1": the served '
        "versions are nvidia.com/v1beta1, nvidia.com/v1alpha1"
    )
    for command in ("convert", "render"):
        result = run_cli(command, "-f", str(target))
        assert (result.returncode, result.stderr) == (2, f"error: {target}:1: {message}\n")
    result = run_cli("validate", str(target))
    assert result.returncode == 1
    assert f"{target}:1: apiVersion: {message} (error, schema/unknown-version)" in result.stdout


def test_notes_wrap_at_80_columns_between_words(tmp_path: Path) -> None:
    target = tmp_path / "graph.yaml"
    target.write_text((ALPHA / "vllm-agg.yaml").read_text())
    narrow = run_cli("convert", "-f", str(target), env={"COLUMNS": "80"})
    wide = run_cli("convert", "-f", str(target), env={"COLUMNS": "200"})
    assert narrow.stderr.splitlines() == [
        "note: vllm-agg: spec.services[Frontend].dynamoNamespace: deprecated and ignored",
        "  by the operator",
    ]
    assert narrow.stderr.split() == wide.stderr.split()
    assert narrow.stdout == wide.stdout  # the YAML itself is never wrapped
