"""The pre-commit hook (``.pre-commit-hooks.yaml``), run as users run it: ``pre-commit try-repo``
against a git repository built from this checkout, which pre-commit installs into its own
virtualenv (``language: python``). try-repo builds that environment afresh in a store of its own
on every run (about 20 s each), so there are just the two runs the hook promises: it passes on
the examples and fails on the invalid one."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BIN, EXAMPLES, ROOT, cli_env

HOOK_ID = "kubectl-dgd-validate"
# What `pip install .` of the hook repository needs: the package, its metadata, the hook.
HOOK_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "kubectl_dgd")

pytestmark = pytest.mark.slow


def git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def repo_of(path: Path, files: dict[str, str]) -> Path:
    path.mkdir()
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "init", "-q")
    git(path, "add", "-A")
    return path


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's working tree (what is on disk, committed or not) as a git repository."""
    repo = tmp_path_factory.mktemp("hook") / "kubectl-dgd"
    repo.mkdir()
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "--", *HOOK_FILES],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for name in listed:
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hook")
    return repo


def pre_commit(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pre-commit in ``cwd``, its home (logs, caches) beside it rather than in ~/.cache."""
    home = cwd.parent / "pre-commit-home"
    # PIP_COMPILE=0: pip installs the hook's environment without byte-compiling every module of
    # its ~45 packages (half of the install's CPU time); the hook runs the same.
    env = cli_env(
        {"PRE_COMMIT_HOME": str(home), "GIT_CONFIG_GLOBAL": os.devnull, "PIP_COMPILE": "0"}
    )
    return subprocess.run(
        [str(BIN / "pre-commit"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def examples(*skip: str) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(EXAMPLES.glob("*.yaml")) if p.name not in skip}


def test_hook_passes_on_the_examples(tmp_path: Path, hook_repo: Path) -> None:
    # lpx.yaml needs an operator with lpx.enabled (`args: [--lpx]` in a config); try-repo runs
    # the hook as declared, without args, and the default operator refuses it, as it should.
    target = repo_of(tmp_path / "target", {**examples("lpx.yaml"), "other.yaml": "a: 1\n"})
    run = pre_commit(target, "try-repo", str(hook_repo), HOOK_ID, "--all-files")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "kubectl-dgd validate" in run.stdout and "Passed" in run.stdout


def test_hook_fails_on_the_invalid_examples(tmp_path: Path, hook_repo: Path) -> None:
    invalid = {p.name: p.read_text() for p in (EXAMPLES / "invalid").glob("*.yaml")}
    target = repo_of(tmp_path / "target", {**invalid, "README.md": "not a manifest\n"})
    run = pre_commit(target, "try-repo", str(hook_repo), HOOK_ID, "--all-files")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Failed" in run.stdout
    assert "common-mistakes.yaml:15: spec.components:" in run.stdout  # the finding, as text
    assert "webhook/main-image-required" in run.stdout
