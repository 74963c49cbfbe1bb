"""Odd values in manifest files, through the console script: each was a traceback in an
adversarial run, and is now an answer or one line (no traceback, a documented exit code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, run_cli

GRAPH = (EXAMPLES / "vllm-agg.yaml").read_text()
GPU = 'nvidia.com/gpu: "1"'


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_5000_digit_quantity_is_hashed_not_a_traceback(tmp_path: Path) -> None:
    """Python refuses str() of an int past 4,300 digits; the worker hash wrote one."""
    huge = "9" * 5000
    path = _write(
        tmp_path, "g.yaml", GRAPH.replace(GPU, f'{GPU}\n                  memory: "{huge}"')
    )
    result = run_cli("render", path)
    assert result.returncode == 0, result.stderr[-500:]
    assert f'memory: "{huge}"' in result.stdout


def test_a_gpu_count_past_the_decimal_exponent_limit_is_unknown_not_a_traceback(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, "g.yaml", GRAPH.replace(GPU, 'nvidia.com/gpu: "1e1000000"'))
    result = run_cli("status", "-f", path)
    assert result.returncode == 0, result.stderr[-500:]
    assert "'1e1000000' is not a whole number of GPUs" in " ".join(result.stdout.split())


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ("metadata: [1, 2]", "metadata must be a mapping with the graph's name; not diffed"),
        ("metadata:\n  name: [1]", "metadata.name must be a non-empty string; not diffed"),
    ],
    ids=["metadata-a-list", "name-a-list"],
)
def test_diff_of_a_graph_without_a_usable_name_is_one_line(
    tmp_path: Path, metadata: str, message: str
) -> None:
    text = GRAPH.replace("metadata:\n  name: vllm-agg\n  namespace: dynamo", metadata)
    path = _write(tmp_path, "g.yaml", text)
    result = run_cli("diff", "-f", path, env={"KUBECONFIG": str(tmp_path / "none")})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"error: {path}:2: {message}"]


def _surrogate_graph() -> str:
    graph = json.loads(json.dumps(_graph_data()))
    graph["metadata"]["annotations"] = {"note": "PLACEHOLDER"}
    graph["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "nvcr.io/x:1.4.0-IMAGE"
    )
    # That tag is no version the operator parses: give it one, so admission (and render) accept it.
    graph["spec"]["components"][1]["runtimeVersionOverride"] = "1.4.0"
    text = json.dumps(graph)
    return text.replace("PLACEHOLDER", "a\\ud800b").replace("-IMAGE", "\\udc80")


def _graph_data() -> dict[str, object]:
    from tests.argocd.harness import split_like_argocd

    return split_like_argocd(GRAPH)[0]


@pytest.mark.parametrize("command", [["render"], ["status", "-f"], ["validate"]])
def test_a_lone_surrogate_in_a_json_file_reads_as_u_fffd(
    tmp_path: Path, command: list[str]
) -> None:
    """Go's JSON decoder (kubectl's) reads an unpaired \\ud800 as U+FFFD."""
    path = _write(tmp_path, "g.json", _surrogate_graph())
    result = run_cli(*command, path)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr[-500:]
    if command == ["render"]:
        assert "nvcr.io/x:1.4.0\ufffd" in result.stdout  # the image, into the pod template


def test_render_writes_the_control_characters_of_names_escaped(tmp_path: Path) -> None:
    """A name written escaped in the file ("\\e", "\\a", "\\x9b") was written raw in the
    ``# Source:`` comments: a terminal obeyed it. A YAML emitter must escape it."""
    text = GRAPH.replace("name: vllm-agg\n", 'name: "vllm\\e[31m-agg\\a\\x9b"\n', 1)
    result = run_cli("render", _write(tmp_path, "g.yaml", text))
    assert result.returncode == 0, result.stderr
    raw = [ch for ch in result.stdout if ch != "\n" and not ch.isprintable()]
    assert raw == []
    sources = [line for line in result.stdout.splitlines() if line.startswith("# Source:")]
    assert sources[0] == "# Source: vllm\\x1b[31m-agg\\x07\\x9b"


@pytest.mark.parametrize("command", [["render"], ["convert", "-f"], ["validate"]])
def test_a_v1alpha1_env_whose_name_is_a_list_is_no_traceback(
    tmp_path: Path, command: list[str]
) -> None:
    """The conversion merged env entries by name, with a list as a dict key (found by the
    property test of v1alpha1 graphs)."""
    text = (
        "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\n"
        "metadata: {name: g, namespace: ns}\nspec:\n  services:\n    a:\n"
        "      envs:\n        - name: []\n"
    )
    result = run_cli(*command, _write(tmp_path, "g.yaml", text))
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr[-500:]
