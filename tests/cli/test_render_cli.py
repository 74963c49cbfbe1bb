"""`kubectl dgd render`: golden output for every example and render fixture, through the console script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, assert_golden, run_cli

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "render"


def graph_files(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.glob("*.yaml") if "kind: DynamoGraphDeployment" in p.read_text()
    )


def transcript(result: object) -> str:
    """stdout when render succeeds; otherwise the exit code and stderr (what a user sees)."""
    code, out, err = result.returncode, result.stdout, result.stderr  # type: ignore[attr-defined]
    return out if code == 0 else f"exit {code}\n{err}"


@pytest.mark.parametrize("provider", ["default", "component"])
@pytest.mark.parametrize("path", graph_files(EXAMPLES), ids=lambda p: p.stem)
def test_every_example_renders_as_recorded(path: Path, provider: str) -> None:
    args = ["render", "-f", f"manifests/examples/{path.name}"]
    if provider != "default":
        args += ["--provider", provider]
    result = run_cli(*args, cwd=EXAMPLES.parent.parent)
    assert "Traceback" not in result.stderr
    assert_golden(f"render/examples/{path.stem}.{provider}.yaml", transcript(result))


@pytest.mark.parametrize("path", graph_files(FIXTURES), ids=lambda p: p.stem)
def test_every_render_fixture_renders_as_recorded(path: Path) -> None:
    result = run_cli("render", "-f", str(path))
    assert "Traceback" not in result.stderr
    assert_golden(f"render/fixtures/{path.stem}.yaml", transcript(result))


def test_every_object_is_preceded_by_its_source_comment() -> None:
    result = run_cli("render", "-f", str(EXAMPLES / "vllm-agg.yaml"), "--provider", "component")
    documents = result.stdout.split("---\n")[1:]
    assert documents
    for document in documents:
        assert document.startswith("# Source: vllm-agg/")


def test_json_output_is_a_list_of_the_same_objects() -> None:
    path = str(EXAMPLES / "vllm-agg.yaml")
    as_json = json.loads(
        run_cli("render", "-f", path, "-o", "json", "--provider", "component").stdout
    )
    assert as_json["kind"] == "List"
    names = [(i["kind"], i["metadata"]["name"]) for i in as_json["items"]]
    as_yaml = run_cli("render", "-f", path, "--provider", "component").stdout
    assert names and all(
        f"kind: {kind}\n" in as_yaml and f"name: {name}\n" in as_yaml for kind, name in names
    )


def test_kubernetes_discovery_adds_a_service_for_every_component() -> None:
    path = str(EXAMPLES / "vllm-agg.yaml")
    plain = run_cli("render", "-f", path, "--provider", "component", "-o", "json").stdout
    k8s = run_cli(
        "render", "-f", path, "--provider", "component", "--discovery", "kubernetes", "-o", "json"
    ).stdout
    services = [
        [i["metadata"]["name"] for i in json.loads(out)["items"] if i["kind"] == "Service"]
        for out in (plain, k8s)
    ]
    assert services[0] == ["vllm-agg-frontend"]
    assert len(services[1]) == 2 and services[1][1].startswith("vllm-agg-vllmdecodeworker-")


def test_multinode_without_leaderworkerset_fails_like_the_operator() -> None:
    result = run_cli(
        "render",
        "-f",
        str(EXAMPLES / "trtllm-multinode.yaml"),
        "--provider",
        "component",
        "--no-lws",
    )
    assert result.returncode == 1
    assert "no multinode orchestrator available" in result.stderr


def test_a_file_without_graphs_is_not_found(tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    result = run_cli("render", "-f", "cm.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        3,
        "",
        "error: no DynamoGraphDeployment in cm.yaml (1 file read, 1 other object)\n",
    )


def test_malformed_input_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("kind: [\n")
    result = run_cli("render", "-f", "bad.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: bad.yaml")


def test_standard_input_is_read_with_dash() -> None:
    text = (EXAMPLES / "vllm-agg.yaml").read_text()
    result = run_cli("render", "-", "--provider", "component", stdin=text)
    assert result.returncode == 0
    assert "name: vllm-agg-frontend" in result.stdout


def test_help_lists_the_examples() -> None:
    result = run_cli("render", "--help")
    assert result.returncode == 0
    assert (
        "kubectl dgd render -f graph.yaml --provider component --discovery kubernetes"
        in result.stdout
    )


BETA_HEAD = "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\n"
ALPHA_HEAD = BETA_HEAD.replace("v1beta1", "v1alpha1")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (BETA_HEAD + "spec:\n  components: oops\n", "spec.components: expected a list"),
        (BETA_HEAD + "spec:\n  components: {a: 1}\n", "spec.components: expected a list"),
        (BETA_HEAD + "spec:\n  components: [x]\n", "spec.components[0]: expected an object"),
        (BETA_HEAD + "spec: 7\n", "spec: expected an object"),
        (ALPHA_HEAD + "spec:\n  services: oops\n", "spec.services: expected an object"),
        (
            ALPHA_HEAD + "spec:\n  services:\n    Frontend: 3\n",
            "spec.services.Frontend: expected an object",
        ),
    ],
    ids=["string", "map", "scalar-item", "scalar-spec", "alpha-string", "alpha-scalar-service"],
)
def test_a_graph_of_the_wrong_shape_is_refused_with_exit_2_and_no_output(
    tmp_path: Path, body: str, message: str
) -> None:
    """validate calls these graphs invalid; render used to print an empty PodCliqueSet for them."""
    (tmp_path / "g.yaml").write_text(body)
    result = run_cli("render", "-f", "g.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: {message}; run `kubectl dgd validate` for the details\n"
    assert run_cli("validate", "-f", "g.yaml", cwd=tmp_path).returncode == 1


def test_a_wrong_shape_graph_fails_through_the_console_script(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(BETA_HEAD + "spec:\n  components: oops\n")
    result = run_cli("render", "-f", "g.yaml", cwd=tmp_path, subprocess=True)
    assert (result.returncode, result.stdout) == (2, "")
    assert "spec.components: expected a list" in result.stderr
