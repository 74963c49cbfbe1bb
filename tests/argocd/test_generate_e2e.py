"""``generate`` end to end, run as Argo CD's repo server runs it (see harness.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.argocd.harness import FIXTURE_REPO, repo_copy, run_plugin, write_large_repo
from tests.conftest import assert_golden

FINDING_LINE = re.compile(r"^[^:\s]+:\d+: \S.*$")


def test_plain_graphs_are_printed_as_objects_argocd_can_read() -> None:
    # the real process, as the cmp-server starts plugin.yaml's command (found on PATH)
    run = run_plugin(FIXTURE_REPO, "apps/plain", subprocess=True)
    assert run.returncode == 0, run.stderr
    assert [(o["kind"], o["metadata"]["name"]) for o in run.objects] == [
        ("DynamoGraphDeployment", "agg"),
        ("DynamoGraphDeployment", "disagg"),
    ]
    assert_golden("argocd/generate-plain.yaml", run.stdout)


def test_yaml_1_1_words_stay_strings_for_go_readers() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/plain")
    agg = run.objects[0]
    worker = agg["spec"]["components"][1]
    assert worker["podTemplate"]["metadata"]["annotations"]["example.com/enabled"] == "on"


def test_graphs_mixed_with_other_manifests_keep_every_object_in_file_order() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/mixed")
    assert run.returncode == 0, run.stderr
    kinds = [(o["kind"], o["metadata"]["name"]) for o in run.objects]
    assert kinds == [
        ("ConfigMap", "model-config"),
        ("Secret", "hf-token"),
        ("DynamoGraphDeployment", "mixed-graph"),
        ("ServiceAccount", "dynamo-reader"),  # a List is unpacked into its items
        ("Service", "frontend-lb"),
    ]
    config = run.objects[0]["data"]
    assert config == {
        "enabled": "yes",
        "mode": "on",
        "octal": "0777",
        "script": "#!/bin/sh\necho ready\n",
    }


def test_secrets_pass_through_unchanged_and_never_reach_stderr() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/mixed")
    assert run.objects[1]["stringData"] == {"token": "hf_SECRET_VALUE_DO_NOT_PRINT"}
    assert "hf_SECRET_VALUE_DO_NOT_PRINT" not in run.stderr


def test_hidden_directories_and_non_manifest_files_are_not_read() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/mixed")
    # .hidden/broken.yaml is malformed: reading it would have failed the run.
    assert run.returncode == 0
    assert run.stderr_lines == ["values.yaml: skipped: no Kubernetes objects (apiVersion and kind)"]


def test_invalid_graph_fails_with_nothing_on_stdout_and_one_line_per_finding() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/invalid")
    assert run.returncode == 1
    assert run.stdout == ""
    lines = run.stderr_lines
    assert lines[-1].startswith("dgd-argocd: ") and lines[-1].endswith("no manifests generated")
    findings = lines[:-1]
    assert findings and all(FINDING_LINE.match(line) for line in findings), lines
    assert any(
        line.startswith("graph.yaml:10: spec.components[0].replicas:") for line in findings
    ), lines
    assert "sk-LIVE-SECRET-IN-INVALID-APP" not in run.stderr


def test_malformed_secret_file_is_reported_without_its_values(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "token.yaml").write_text(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\ndata:\n  token: !!int 'c2VjcmV0LXZhbHVl'\n"
    )
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 1
    assert run.stdout == ""
    assert "c2VjcmV0LXZhbHVl" not in run.stderr
    assert run.stderr_lines[0].startswith("token.yaml:6: ")


@pytest.mark.parametrize(
    "text",
    [
        '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t"},'
        '"data":{"token":!!int "HUNTER2-SECRET"}}\n',
        "apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Secret, metadata: {name: t},"
        ' data: {token: !!int "HUNTER2-SECRET"}}]\n',
        'apiVersion: v1\nkind: Secret  # the token\nmetadata: {name: t}\ndata:\n  token: !!float "HUNTER2-SECRET"\n',
    ],
    ids=["one-line-json", "flow-list-item", "kind-with-comment"],
)
def test_a_secret_written_any_way_never_has_its_value_quoted_by_a_parse_error(
    tmp_path: Path, text: str
) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "token.yaml").write_text(text)
    run = run_plugin(repo, "apps/plain")
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr_lines[0].startswith("token.yaml:"), run.stderr
    assert "HUNTER2" not in run.stderr


_PASSWORD = "s3cr3t-Pa55w0rd-for-prod-" + "x" * 60  # past the 57 characters messages keep


@pytest.mark.parametrize(
    "text",
    [
        f"apiVersion: v1\nkind: Secret\nmetadata: {{name: t}}\ndata:\n  password: !!int {_PASSWORD}\n",
        f'apiVersion: v1\nkind: "\\x53ecret"\nmetadata: {{name: t}}\ndata:\n  password: !!int {_PASSWORD}\n',
        f"apiVersion: v1\nkind: 'Secret'\ndata:\n  password: !!int \"{_PASSWORD}'\\\"x\"\n",
        f"apiVersion: v1\nkind: !!binary U2VjcmV0\ndata:\n  password: !!int {_PASSWORD}\n",
        f"apiVersion: v1\nkind: &k Secret\nalso: *k\ndata:\n  password: !!float {_PASSWORD}\n",
        f"base: &b {{kind: Secret}}\napiVersion: v1\n<<: *b\ndata:\n  password: !!int {_PASSWORD}\n",
        f"apiVersion: v1\ndata:\n  password: !!int {_PASSWORD}\nkind: Secret\n",
        f"apiVersion: v1\ndata:\n  password: !!bool {_PASSWORD}\n",
        f"apiVersion: v1\nkind: SecretList\nitems:\n- data: {{password: !!int {_PASSWORD}}}\n",
        f"apiVersion: v1\nkind: Secret\nstringData:\n  {_PASSWORD}: a\n  {_PASSWORD}: b\n",
        f'{{"apiVersion": "v1", "kind": "\\u0053ecret", "data": {{"password": !!int "{_PASSWORD}"}}}}\n',
    ],
    ids=[
        "long-int",
        "escaped-kind",
        "mixed-quotes",
        "binary-kind",
        "anchored-kind",
        "merged-kind",
        "kind-after-value",
        "no-kind",
        "secret-list",
        "duplicate-key",
        "json-escaped-kind",
    ],
)
def test_no_yaml_spelling_of_a_secret_gets_its_value_into_an_error(
    tmp_path: Path, text: str
) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "token.yaml").write_text(text)
    run = run_plugin(repo, "apps/plain")
    assert (run.returncode, run.stdout) == (1, ""), run.stderr
    assert run.stderr_lines[0].startswith("token.yaml:"), run.stderr
    assert "not shown" in run.stderr_lines[0], run.stderr
    assert "Pa55w0rd" not in run.stderr


def test_a_value_in_a_document_known_not_to_be_a_secret_is_still_quoted(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  n: !!int twelve\n"
    )
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 1
    assert "cm.yaml:5: bad int value 'twelve'" in run.stderr_lines


def test_a_secret_with_a_mapping_for_a_name_is_never_quoted_as_a_duplicate(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {token: HUNTER2-SECRET}\n"
    (repo / "apps" / "plain" / "token.yaml").write_text(f"{secret}---\n{secret}")
    run = run_plugin(repo, "apps/plain")
    assert "HUNTER2" not in run.stderr


def test_hooks_sharing_a_generate_name_are_not_duplicates(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    job = (
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: warm-cache-\n"
        "  annotations:\n    argocd.argoproj.io/hook: HOOK\n"
        "spec:\n  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: c, image: busybox}]\n"
    )
    hooks = job.replace("HOOK", "PreSync") + "---\n" + job.replace("HOOK", "PostSync")
    (repo / "apps" / "plain" / "hooks.yaml").write_text(hooks)
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    assert [o["kind"] for o in run.objects].count("Job") == 2


def test_empty_application_path_is_an_error_not_an_empty_success() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/empty")
    assert run.returncode == 1
    assert run.stdout == ""
    assert "refusing to generate nothing" in run.stderr
    assert "'apps/empty'" in run.stderr


def test_path_with_only_non_kubernetes_yaml_is_an_error(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "empty" / "values.yaml").write_text("replicas: 1\n")
    run = run_plugin(repo, "apps/empty")
    assert run.returncode == 1
    assert run.stdout == ""
    assert "no Kubernetes objects below" in run.stderr


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("objects.json", '[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]'),
        ("objects.yaml", "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"),
    ],
)
def test_a_bare_list_of_objects_fails_instead_of_being_skipped(
    tmp_path: Path, name: str, text: str
) -> None:
    # Argo CD's own directory mode refuses it too; skipping would prune the listed objects.
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / name).write_text(text)
    run = run_plugin(repo, "apps/plain")
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr_lines[0] == (
        f"{name}:1: a bare list of objects is not a Kubernetes object; write one object per "
        "document, or wrap them in kind: List"
    )


def test_symlink_leaving_the_repository_is_refused_and_not_read(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "escape.yaml").symlink_to("../../../../outside.yaml")
    work = tmp_path / "work"
    work.mkdir()
    (work / "outside.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: OUTSIDE-DATA\n"
    )
    run = run_plugin(repo, "apps/plain", workdir=work)
    assert run.returncode == 1
    assert run.stdout == ""
    assert "escape.yaml: symbolic link leads outside the repository; not read" in run.stderr_lines
    assert "OUTSIDE-DATA" not in run.stderr


def test_absolute_symlink_to_a_system_file_is_refused(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "passwd.yaml").symlink_to("/etc/passwd")
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 1
    assert "root:" not in run.stderr
    assert "passwd.yaml: symbolic link leads outside the repository; not read" in run.stderr_lines


def test_symlinked_directory_inside_the_repository_is_read(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "shared").symlink_to("../../common", target_is_directory=True)
    (repo / "apps" / "plain" / "loop").symlink_to(".", target_is_directory=True)
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    assert [o["metadata"]["name"] for o in run.objects] == ["agg", "disagg", "shared"]


def test_sibling_application_is_readable_but_the_path_above_the_root_is_not(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "sibling.yaml").symlink_to("../mixed/config.yaml")
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    assert "model-config" in [o["metadata"]["name"] for o in run.objects]


def test_two_runs_in_different_directories_are_byte_identical(tmp_path: Path) -> None:
    first = run_plugin(FIXTURE_REPO, "apps/mixed", workdir=tmp_path)
    second = run_plugin(FIXTURE_REPO, "apps/mixed")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert str(tmp_path) not in first.stdout + first.stderr


def test_duplicate_objects_are_an_error(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    text = (repo / "apps" / "plain" / "agg.yaml").read_text()
    (repo / "apps" / "plain" / "copy.yaml").write_text(text)
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 1
    assert (
        "copy.yaml:2: DynamoGraphDeployment dynamo/agg is defined twice (first at agg.yaml:2)"
        in run.stderr
    )


def test_error_lines_are_capped_with_a_count_of_the_rest(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "many"
    app.mkdir()
    for i in range(60):
        (app / f"bad-{i:02d}.yaml").write_text("a: [\n")
    run = run_plugin(repo, "apps/many")
    assert run.returncode == 1
    lines = run.stderr_lines
    assert len(lines) == 52
    assert lines[50] == "... and 10 more errors"
    assert lines[51] == "dgd-argocd: 60 errors; no manifests generated"


def test_environment_has_no_home_and_the_plugin_does_not_need_one() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/plain")
    assert "HOME" not in run.env
    assert run.returncode == 0


@pytest.mark.slow
def test_large_repository_of_200_graphs_generates_every_graph(tmp_path: Path) -> None:
    write_large_repo(tmp_path, 200)
    run = run_plugin(tmp_path, "apps/large")
    assert run.returncode == 0, run.stderr[:2000]
    objects = run.objects
    assert len(objects) == 200
    assert {len(o["spec"]["components"]) for o in objects} == {5}
    assert objects[0]["metadata"]["name"] == "graph-000"
    assert objects[-1]["metadata"]["name"] == "graph-199"


def test_local_run_with_a_path_argument_reads_only_below_it(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    result = run_cli(
        "generate", str(FIXTURE_REPO / "apps" / "plain"), script="dgd-argocd", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == run_plugin(FIXTURE_REPO, "apps/plain").stdout


def test_unknown_subcommand_prints_one_line_not_usage() -> None:
    from tests.conftest import run_cli

    result = run_cli("render", script="dgd-argocd", env={"PATH": os.environ.get("PATH", "")})
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_restart_requested_in_git_with_restart_f_syncs_with_a_warning(tmp_path: Path) -> None:
    """`kubectl dgd restart -f` is the GitOps restart: the plugin must let it through."""
    from tests.conftest import run_cli

    repo = repo_copy(tmp_path)
    graph = sorted((repo / "apps" / "plain").glob("*.yaml"))[0]
    edited = run_cli("restart", "-f", str(graph), "--parallel", "--id", "gitops-1")
    assert edited.returncode == 0, edited.stderr
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    restarted = [o for o in run.objects if o.get("spec", {}).get("restart")]
    assert [o["spec"]["restart"] for o in restarted] == [
        {"id": "gitops-1", "strategy": {"type": "Parallel"}}
    ]
    assert "spec.restart must be unset on create" in run.stderr
    assert "fine for a graph that exists" in run.stderr


def test_strings_go_reads_as_booleans_or_numbers_stay_strings(tmp_path: Path) -> None:
    # go-yaml v2 (sigs.k8s.io/yaml) reads a bare y/N as booleans and 0o17 or 017 as 15;
    # the harness reads the output as Go does (harness.GoYamlLoader).
    repo = repo_copy(tmp_path)
    graph_file = repo / "apps" / "plain" / "agg.yaml"
    text = graph_file.read_text()
    anchor = '            example.com/enabled: "on"\n'
    assert anchor in text
    words = {
        "example.com/y": "y",
        "example.com/n": "N",
        "example.com/octal": "0o17",
        "example.com/zero": "017",
    }
    extra = "".join(f'            {k}: "{v}"\n' for k, v in words.items())
    graph_file.write_text(text.replace(anchor, anchor + extra))
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr
    annotations = run.objects[0]["spec"]["components"][1]["podTemplate"]["metadata"]["annotations"]
    assert {k: annotations[k] for k in words} == words


def test_the_harness_reads_yaml_as_go_does() -> None:
    from tests.argocd.harness import split_like_argocd

    (obj,) = split_like_argocd(
        "apiVersion: v1\nkind: ConfigMap\ndata: {a: y, b: 0o17, c: 017, d: 1:30}\n"
    )
    assert obj["data"] == {"a": True, "b": 15, "c": 15, "d": "1:30"}


def test_a_file_past_the_limit_is_refused_without_being_read_whole(tmp_path: Path) -> None:
    """A 500 MB manifest once cost 512 MB of RSS (here 150 MB, sparse): the redaction
    check read it all. The plugin, run by the harness in a fresh process, must stay small."""
    import subprocess
    import sys

    repo = repo_copy(tmp_path)
    with open(repo / "apps" / "plain" / "huge.yaml", "wb") as fh:
        fh.write(b"apiVersion: v1\nkind: Secret\n")
        fh.truncate(150 * 1024 * 1024)
    script = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "from tests.argocd.harness import run_plugin\n"
        "run = run_plugin(Path(sys.argv[1]), 'apps/plain')\n"
        "rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024\n"
        "print(run.returncode, rss_mb)\n"
        "print(run.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(repo)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    head, _, stderr = proc.stdout.partition("\n")
    returncode, rss_mb = map(int, head.split())
    assert returncode == 1
    assert "huge.yaml: file is larger than the 16 MiB limit" in stderr
    assert rss_mb < 120, f"{rss_mb} MB resident"


@pytest.mark.parametrize(
    ("items", "problem"),
    [
        (
            "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- just text\n",
            "list.yaml:5: items[1]: not a Kubernetes object",
        ),
        (
            "- apiVersion: v1\n  kind: List\n  items:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n",
            "list.yaml:4: items[0]: a List inside a List",
        ),
    ],
    ids=["non-object-item", "nested-list"],
)
def test_list_items_argocd_would_drop_or_not_unpack_fail_the_generate(
    tmp_path: Path, items: str, problem: str
) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / "list.yaml").write_text(
        f"apiVersion: v1\nkind: List\nitems:\n{items}"
    )
    run = run_plugin(repo, "apps/plain")
    assert (run.returncode, run.stdout) == (1, "")
    assert any(line.startswith(problem) for line in run.stderr_lines), run.stderr


def test_a_fifo_named_yaml_fails_the_generate_in_one_line_without_waiting(tmp_path: Path) -> None:
    """Git cannot hold a FIFO, so the harness cannot copy one: made in place, then run as the
    repo server runs the plugin (plugin.yaml's command, the cmp-server environment)."""
    import subprocess

    from tests.argocd.harness import argocd_env, plugin_spec

    repo = repo_copy(tmp_path)
    os.mkfifo(repo / "apps" / "plain" / "pipe.yaml")
    step = plugin_spec()["generate"]
    proc = subprocess.run(
        [*step["command"], *step.get("args", [])],
        cwd=repo / "apps" / "plain",
        env=argocd_env("apps/plain"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (1, "")
    assert "pipe.yaml: not a regular file (a FIFO, socket or device); not read" in proc.stderr


@pytest.mark.parametrize("name", ["huge-hex-int.yaml", "huge-int.json", "bool-maybe.yaml"])
def test_numbers_past_64_bits_and_bad_booleans_fail_the_generate_in_one_line(
    tmp_path: Path, name: str
) -> None:
    from tests.bad_input.corpus import unreadable_cases

    case = next(c for c in unreadable_cases() if c.name == name)
    repo = repo_copy(tmp_path)
    (repo / "apps" / "plain" / name).write_bytes(case.content)
    run = run_plugin(repo, "apps/plain")
    assert (run.returncode, run.stdout) == (1, "")
    assert "Traceback" not in run.stderr
    [line] = [line for line in run.stderr_lines if line.startswith(f"{name}:")]
    assert line.startswith(f"{name}:{case.line}: ") and case.message in line, line
    assert len(line) < 300
