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
    if path.name == "lpx.yaml":  # an operator without lpx.enabled rejects it (exit 1)
        args.append("--lpx")
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


WRONG_SHAPES = [
    BETA_HEAD + "spec:\n  components: oops\n",
    BETA_HEAD + "spec:\n  components: {a: 1}\n",
    BETA_HEAD + "spec:\n  components: [x]\n",
    BETA_HEAD + "spec: 7\n",
    ALPHA_HEAD + "spec:\n  services: oops\n",
    ALPHA_HEAD + "spec:\n  services:\n    Frontend: 3\n",
]
REJECTED = (
    "error: not rendered: admission would reject 1 graph (g), and the operator creates no "
    "children for a graph it never admitted\n"
)


def validate_errors(tmp_path: Path, name: str) -> list[str]:
    """The error lines `validate` prints for the file (what render must print)."""
    result = run_cli("validate", "-f", name, cwd=tmp_path)
    assert result.returncode == 1
    return [
        line for line in result.stdout.splitlines() if line.endswith(")") and "(error, " in line
    ]


@pytest.mark.parametrize(
    "body",
    WRONG_SHAPES,
    ids=["string", "map", "scalar-item", "scalar-spec", "alpha-string", "alpha-scalar-service"],
)
def test_a_graph_of_the_wrong_shape_is_refused_with_validates_findings_and_no_output(
    tmp_path: Path, body: str
) -> None:
    """render used to print an empty PodCliqueSet for these, then exit 2 pointing at validate;
    it now shows validate's error findings itself (exit 1, as admission rejects the graph)."""
    (tmp_path / "g.yaml").write_text(body)
    result = run_cli("render", "-f", "g.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    errors = validate_errors(tmp_path, "g.yaml")
    assert errors and all(line.startswith("g.yaml:") for line in errors)
    assert result.stderr == "".join(line + "\n" for line in errors) + REJECTED


def test_a_wrong_shape_graph_fails_through_the_console_script(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(BETA_HEAD + "spec:\n  components: oops\n")
    result = run_cli("render", "-f", "g.yaml", cwd=tmp_path, subprocess=True)
    assert (result.returncode, result.stdout) == (1, "")
    assert "g.yaml:6: spec.components: Invalid value: " in result.stderr
    assert result.stderr.endswith(REJECTED)


def test_an_admission_rejected_graph_is_not_rendered_and_says_why(tmp_path: Path) -> None:
    """The operator never creates children for a graph its webhook rejects: render prints the
    findings as validate does (FILE:LINE), nothing on stdout, exit 1; the other graphs of the
    inputs are still checked, and their findings shown too."""
    good = (EXAMPLES / "vllm-agg.yaml").read_text()
    (tmp_path / "a.yaml").write_text(good)
    (tmp_path / "b.yaml").write_text((EXAMPLES / "invalid" / "common-mistakes.yaml").read_text())
    (tmp_path / "c.yaml").write_text((EXAMPLES / "lpx.yaml").read_text())  # needs --lpx
    result = run_cli("render", "a.yaml", "b.yaml", "-f", "c.yaml", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    expected = [  # spec.restart is not a rejection here (the next test)
        line
        for line in validate_errors(tmp_path, "b.yaml") + validate_errors(tmp_path, "c.yaml")
        if "spec.restart must be unset on create" not in line
    ]
    assert len(expected) == 4
    assert result.stderr == "".join(line + "\n" for line in expected) + (
        "error: not rendered: admission would reject 2 graphs (common-mistakes, lpx-graph), and "
        "the operator creates no children for a graph it never admitted\n"
    )
    assert "(warning, " not in result.stderr  # only what rejects the graph
    alone = run_cli("render", "-f", "c.yaml", "--lpx", cwd=tmp_path)  # the operator's settings
    assert alone.returncode == 0, alone.stderr


def test_spec_restart_in_the_file_does_not_stop_render(tmp_path: Path) -> None:
    """restart -f writes spec.restart into the Git file of a graph that exists; the create-only
    rule on it is not a rejection here (as in the Argo CD plugin), and render renders."""
    (tmp_path / "g.yaml").write_text((EXAMPLES / "vllm-agg.yaml").read_text())
    assert run_cli("restart", "-f", "g.yaml", "--id", "r1", cwd=tmp_path).returncode == 0
    assert (
        "spec.restart must be unset on create" in run_cli("validate", "g.yaml", cwd=tmp_path).stdout
    )
    result = run_cli("render", "-f", "g.yaml", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert "# Source: vllm-agg" in result.stdout


def test_the_argocd_plugin_fails_closed_on_the_graph_render_refuses(tmp_path: Path) -> None:
    """The same webhook-rejected graph (no image) through the Argo CD plugin's generate: nothing
    on stdout, exit 1, the same FILE:LINE: PATH: MESSAGE (without validate's tag)."""
    from tests.argocd.harness import run_plugin

    app = tmp_path / "repo" / "app"
    app.mkdir(parents=True)
    (app / "g.yaml").write_text(
        BETA_HEAD + "spec:\n  components:\n    - name: fe\n      type: frontend\n"
    )
    rendered = run_cli("render", "-f", "g.yaml", cwd=app)
    assert (rendered.returncode, rendered.stdout) == (1, "")
    first = rendered.stderr.splitlines()[0]
    assert first == (
        "g.yaml:7: spec.components[0].podTemplate.spec.containers: Required value: is required "
        "(error, webhook/main-image-required)"
    )
    run = run_plugin(tmp_path / "repo", "app")
    assert (run.returncode, run.stdout) == (1, "")
    assert first.rsplit(" (error", 1)[0] in run.stderr_lines
