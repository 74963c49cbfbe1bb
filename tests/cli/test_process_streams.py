"""The console scripts as a process whose streams are not a terminal's: stdout on /dev/full or
closed, an encoding that cannot write the text, a Ctrl-C while the modules load. Each is one
line on stderr and a documented exit code, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import BIN, EXAMPLES, assert_installed_checkout, cli_env

VALID = str(EXAMPLES / "sglang-disagg.yaml")
FAILED, INTERRUPTED = 1, 130


def _run(
    *args: str, stdout: object = subprocess.PIPE, **env: str
) -> subprocess.CompletedProcess[str]:
    assert_installed_checkout()
    return subprocess.run(  # noqa: PLW1510 - the callers assert on it
        [str(BIN / "kubectl-dgd"), *args],
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(env),
        timeout=60,
    )


def test_stdout_on_a_full_device_is_one_line_and_exit_1() -> None:
    with open("/dev/full", "w") as full:
        result = _run("validate", VALID, stdout=full)
    assert result.returncode == FAILED
    assert result.stderr == "error: cannot write the output: No space left on device\n"


def test_a_closed_stdout_is_one_line_and_exit_1() -> None:
    assert_installed_checkout()
    result = subprocess.run(  # noqa: PLW1510
        f'exec "{BIN / "kubectl-dgd"}" validate "{VALID}" >&-',
        shell=True,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        timeout=60,
    )
    assert result.returncode == FAILED
    assert result.stderr == "error: cannot write the output: stdout is closed\n"


def test_an_ascii_only_stdout_gets_non_ascii_text_escaped(tmp_path: Path) -> None:
    path = tmp_path / "grafo-ñ.yaml"  # its findings name it
    path.write_text((EXAMPLES / "lpx.yaml").read_text())  # LPX without lpx.enabled: an error
    result = _run("validate", str(path), PYTHONIOENCODING="ascii")
    assert "Traceback" not in result.stderr
    assert result.returncode == FAILED, result.stderr
    assert "grafo-\\xf1.yaml:" in result.stdout


# The module a Ctrl-C lands in: the package's own first module, the entry point's first
# import, a third-party one, the command's module (loaded by the lazy group).
@pytest.mark.parametrize(
    ("script", "module"),
    [
        ("kubectl-dgd", "kubectl_dgd.startup.dataclass_code"),
        ("kubectl-dgd", "kubectl_dgd.startup.gcpolicy"),
        ("kubectl-dgd", "click"),
        ("kubectl-dgd", "kubectl_dgd.cli.validate"),
        ("dgd-argocd", "kubectl_dgd.startup.deferred"),
    ],
)
def test_ctrl_c_while_a_module_loads_exits_130_without_a_traceback(
    script: str, module: str
) -> None:
    """The interrupt is raised by an import hook when ``module`` is imported, at the moment a
    real Ctrl-C would most likely land (loading is most of a short command's time)."""
    assert_installed_checkout()
    driver = f"""
import runpy, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
sys.argv = [{str(BIN / script)!r}, "validate", {VALID!r}]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
    result = subprocess.run(  # noqa: PLW1510
        [sys.executable, "-c", driver],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=60,
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == INTERRUPTED
