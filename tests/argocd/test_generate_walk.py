"""``dgd-argocd`` reading odd repositories, run as the repo server runs it (harness.py).

Each test reproduces a failure an adversarial run found: links that fan out made generate walk
2^depth paths (2^15: 7.7 s, 214 MB, and every object "defined twice"); a directory that can be
listed but not searched was a traceback; a symbolic link as the application path led out of the
repository and was read; file names went raw to stderr, which Argo CD shows in the
Application's conditions (a line break in a name started a line of its own); a lone surrogate in
a JSON file and a deeply nested ARGOCD_APP_PARAMETERS were tracebacks.
"""

from __future__ import annotations

from pathlib import Path

from tests.argocd.harness import BIN, argocd_env, repo_copy, run_plugin
from tests.cli.test_directory_walk import CONFIGMAP, _fan_out, run_unprivileged


def test_links_that_fan_out_are_read_once_per_directory(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    _fan_out(repo, 15)
    (repo / "apps" / "plain" / "tree").symlink_to("../../levels/l0", target_is_directory=True)
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 0, run.stderr[-500:]
    assert [o["metadata"]["name"] for o in run.objects] == ["agg", "disagg", "shared"]


def test_a_directory_listed_but_not_searchable_is_one_line(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "plain"
    locked = app / "locked"
    locked.mkdir()
    (locked / "more.yaml").write_text(CONFIGMAP)
    locked.chmod(0o644)
    try:
        proc = run_unprivileged(
            [str(BIN / "dgd-argocd"), "generate"], argocd_env("apps/plain"), cwd=app
        )
    finally:
        locked.chmod(0o755)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[0] == "locked: cannot read directory: permission denied"


def test_an_application_path_linked_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path / "in")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "stolen.yaml").write_text(CONFIGMAP.replace("shared", "OUTSIDE-DATA"))
    (repo / "apps" / "escape").symlink_to(outside, target_is_directory=True)
    run = run_plugin(repo, "apps/escape", workdir=tmp_path / "work")
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr_lines == [
        "dgd-argocd: apps/escape: the application path is a symbolic link leading outside the "
        "repository; not read"
    ]


def test_an_application_path_linked_inside_the_repository_is_read(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    (repo / "apps" / "alias").symlink_to("plain", target_is_directory=True)
    (repo / "apps" / "plain" / "up.yaml").symlink_to("../mixed/config.yaml")
    run = run_plugin(repo, "apps/alias")
    assert run.returncode == 0, run.stderr
    assert "model-config" in [o["metadata"]["name"] for o in run.objects]


def test_file_names_on_stderr_are_escaped_not_raw(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "plain"
    (app / "evil\nok: all synced\x1b[2J.yaml").write_text("a: [\n")
    run = run_plugin(repo, "apps/plain")
    assert run.returncode == 1
    assert "\x1b" not in run.stderr
    first = run.stderr_lines[0]
    assert first.startswith("evil\\x0aok: all synced\\x1b[2J.yaml:"), run.stderr
    assert not any(line.startswith("ok: all synced") for line in run.stderr_lines)


def test_a_lone_surrogate_in_a_json_file_is_read_as_go_reads_it(tmp_path: Path) -> None:
    """Go's JSON decoder reads an unpaired \\ud800 as U+FFFD; it was a traceback."""
    repo = repo_copy(tmp_path)
    app = repo / "apps" / "plain"
    text = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "odd"}, '
    (app / "odd.json").write_text(text + '"data": {"k": "a\\ud800b"}}')
    for command in ("generate", "parameters"):
        run = run_plugin(repo, "apps/plain", command=command)
        assert "Traceback" not in run.stderr
        assert run.returncode == 0, run.stderr
    odd = run_plugin(repo, "apps/plain").objects[-1]
    assert odd["data"] == {"k": "a\ufffdb"}


def test_deeply_nested_app_parameters_are_a_usage_error(tmp_path: Path) -> None:
    deep_map = '[{"name": "overrides", "map": ' + '{"a": ' * 6_000 + '"x"' + "}" * 6_000 + "}]"
    for raw in ("[" * 30_000 + "]" * 30_000, deep_map):
        run = run_plugin(
            repo_copy(tmp_path / str(len(raw))),
            "apps/plain",
            env_overrides={"ARGOCD_APP_PARAMETERS": raw},
        )
        assert "Traceback" not in run.stderr
        assert run.returncode == 2, run.stderr[-300:]
        assert run.stderr_lines == [
            "dgd-argocd: ARGOCD_APP_PARAMETERS is nested too deeply to be Argo CD's parameter list"
        ]
