"""``validate/render/diff DIR`` walking odd trees, through the console script's entry point.

Each test reproduces a failure an adversarial run found: a symbolic link loop inside the
directory and a tree 1,500 directories deep were tracebacks; links that fan out made the walk
visit 2^depth paths; a link to a shared directory elsewhere in the repository, which the Argo CD
plugin reads, refused validate (adapters/manifest_tree.py holds the one walk both use).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.argocd.harness import run_plugin
from tests.conftest import BIN, EXAMPLES, assert_installed_checkout, cli_env, run_cli

GRAPH = (EXAMPLES / "vllm-agg.yaml").read_text()
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n"


@pytest.mark.parametrize("command", [["validate"], ["render"], ["diff", "-f"]])
def test_a_symlink_loop_inside_a_directory_is_reported_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "graph.yaml").write_text(GRAPH)
    (tree / "sub" / "loop").symlink_to("loop")  # a directory, perhaps: it cannot be told
    (tree / "self.yaml").symlink_to("self.yaml")
    result = run_cli(*command, str(tree), env={"KUBECONFIG": str(tmp_path / "none")})
    assert "Traceback" not in result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    named = [line for line in result.stderr.splitlines() if "self.yaml" in line]
    assert named == [f"error: {tree / 'self.yaml'}: Too many levels of symbolic links"]


def test_a_tree_1500_directories_deep_is_read(tmp_path: Path) -> None:
    levels = [tmp_path / "tree"]
    for _ in range(1500):  # one by one: mkdir(parents=True) recurses once per level
        levels.append(levels[-1] / "d")
    for level in levels:
        level.mkdir()
    (levels[-1] / "graph.yaml").write_text(GRAPH)
    try:
        result = run_cli("validate", "-o", "json", str(levels[0]))
    finally:  # bottom up: pytest's clean-up (shutil.rmtree) recurses once per level too
        (levels[-1] / "graph.yaml").unlink()
        for level in reversed(levels):
            level.rmdir()
    assert result.returncode == 0, result.stderr[-500:]
    assert json.loads(result.stdout)["summary"]["graphs"] == 1


def _fan_out(root: Path, depth: int) -> Path:
    """levels/l0 .. l<depth-1>, each holding two links to the next: 2^depth paths, depth dirs."""
    levels = root / "levels"
    for i in range(depth):
        (levels / f"l{i}").mkdir(parents=True)
    for i in range(depth - 1):
        for name in ("a", "b"):
            (levels / f"l{i}" / name).symlink_to(f"../l{i + 1}")
    (levels / f"l{depth - 1}" / "shared.yaml").write_text(CONFIGMAP)
    return levels / "l0"


def test_links_that_fan_out_are_read_once_per_directory(tmp_path: Path) -> None:
    top = _fan_out(tmp_path, 12)
    # Only a ConfigMap at the bottom: --allow-no-graph, so the count is printed (exit 0, not 3).
    result = run_cli("validate", "--allow-no-graph", "-o", "json", str(top.parent), timeout=120)
    assert result.returncode == 0, result.stderr[-500:]
    assert json.loads(result.stdout)["summary"]["documents"] == 1  # was 2,048


def _repository(root: Path) -> Path:
    """A Git work tree: apps/web links to a directory shared by several applications."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "common").mkdir()
    (root / "common" / "shared.yaml").write_text(CONFIGMAP)
    (root / "apps" / "web").mkdir(parents=True)
    (root / "apps" / "web" / "graph.yaml").write_text(GRAPH)
    (root / "apps" / "web" / "common").symlink_to("../../common", target_is_directory=True)
    return root


def test_validate_reads_a_linked_directory_of_the_repository_as_the_plugin_does(
    tmp_path: Path,
) -> None:
    repo = _repository(tmp_path / "repo")
    result = run_cli("validate", "-o", "json", "apps/web", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["documents"] == 2
    plugin = run_plugin(repo, "apps/web")
    assert plugin.returncode == 0, plugin.stderr
    assert [o["metadata"]["name"] for o in plugin.objects] == ["shared", "vllm-agg"]


def test_outside_a_repository_the_directory_given_is_the_boundary(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "shared.yaml").write_text(CONFIGMAP)
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "common").symlink_to("../common")
    result = run_cli("validate", str(tmp_path / "web"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'web' / 'common'}: symbolic link leads outside the directory "
        "given; not read (give its target as an argument of its own)"
    ]


def test_a_file_link_leaving_the_repository_is_refused_as_the_plugin_refuses_it(
    tmp_path: Path,
) -> None:
    repo = _repository(tmp_path / "repo")
    (tmp_path / "elsewhere.yaml").write_text(CONFIGMAP)
    (repo / "apps" / "web" / "away.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    result = run_cli("validate", "apps/web", cwd=repo)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: apps/web/away.yaml: symbolic link leads outside the repository; not read "
        "(give its target as an argument of its own)"
    ]
    plugin = run_plugin(repo, "apps/web")
    assert plugin.returncode == 1
    assert "away.yaml: symbolic link leads outside the repository; not read" in plugin.stderr


def test_a_directory_listed_but_not_searchable_is_one_line(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "graph.yaml").write_text(GRAPH)
    locked.chmod(0o644)  # readable (names can be listed), not searchable (nothing can be opened)
    try:
        proc = run_unprivileged([str(BIN / "kubectl-dgd"), "validate", str(tmp_path)], cli_env())
    finally:
        locked.chmod(0o755)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"error: {locked}: cannot read directory: permission denied"
    ]


def run_unprivileged(
    argv: list[str], env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The command as a process file permissions bind: root's processes read anything, so as
    root it runs without the capabilities that bypass them (setpriv)."""
    if os.geteuid() == 0:
        if not Path("/usr/bin/setpriv").exists():
            pytest.skip("running as root without setpriv: permissions cannot bind")
        argv = ["/usr/bin/setpriv", "--inh-caps=-all", "--bounding-set=-all", *argv]
    assert_installed_checkout()
    return subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
