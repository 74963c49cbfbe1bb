"""Shared test helpers: run a command (in-process, or its console script), compare golden files.

``run_cli`` runs the function a console script calls (``[project.scripts]`` in pyproject.toml)
inside the test process, through click's ``CliRunner`` isolation: the environment, argv, cwd,
stdin, stdout and stderr a real run has, and the exit code as the console script's wrapper
computes it. ``run_cli(..., subprocess=True)`` (or ``run_script``) starts the real console script
instead; only tests that need a real process (signals, a TTY, kubectl finding the plugin on PATH,
the entry points themselves) opt in, and ``assert_installed_checkout`` makes sure the venv's
console scripts import this checkout.
"""

from __future__ import annotations

import gc
import importlib
import os
import signal
import subprocess as _subprocess
import sys
import threading
import time
import tomllib
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "manifests" / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
BIN = Path(sys.executable).parent
# script name -> "module:function", as pip writes the console scripts
ENTRY_POINTS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
    "scripts"
]

# Derandomized in CI (the same examples every run, no example database); randomized locally so
# a developer's runs keep exploring. No deadline: the machine is shared and timing says nothing
# about correctness. Tests that ask for more examples say so in their own @settings.
settings.register_profile("ci", derandomize=True, deadline=None, database=None, max_examples=100)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "dev")
)


# -- the environment every test starts from ------------------------------------------------

# What the suite pins, whatever the shell that started it exported (a wide terminal's COLUMNS,
# another time zone or locale, a proxy, a kubeconfig, colours forced or refused): each test
# starts from these, and a test that needs another value sets it itself.
PINNED_ENV: dict[str, str] = {
    "COLUMNS": "80",  # shutil.get_terminal_size reads it before the terminal: the default width
    "LINES": "24",
    "TZ": "UTC",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
}
# Removed: colour switches, the user's cluster, proxies (the tests dial loopback only), our
# own knobs (DGD_PLAIN_STARTUP excepted: the suite's second CI pass sets it for every test).
UNSET_ENV = (
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "KUBECONFIG",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
)
UNSET_PREFIXES = ("ARGOCD_", "PARAM_", "DGD_")
KEPT = ("DGD_PLAIN_STARTUP",)


def pin_environment(environ: Any = os.environ) -> None:
    """``environ`` as the suite runs with it (os.environ: and the time zone applied)."""
    for name in [
        k for k in environ if (k in UNSET_ENV or k.startswith(UNSET_PREFIXES)) and k not in KEPT
    ]:
        del environ[name]
    environ.update(PINNED_ENV)
    if environ is os.environ:
        time.tzset()


@pytest.fixture(autouse=True)
def _pinned_environment() -> Iterator[None]:
    """Each test starts from the pinned environment, whatever the one before it left."""
    pin_environment()
    yield


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def cli_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a command runs with: ours without kubeconfig and Argo CD variables, a
    fixed width, no colour, UTC, then ``env``."""
    full_env = {
        k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_", "PARAM_", "KUBECONFIG"))
    }
    full_env.update({"NO_COLOR": "1", "COLUMNS": "120", "TZ": "UTC"})
    if env:
        full_env.update(env)
    return full_env


def run_cli(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | str | None = None,
    script: str = "kubectl-dgd",
    timeout: float = 120,
    subprocess: bool = False,
) -> Result:
    """Run ``script`` as a user would (fixed width, no colour): in-process by default, as the
    real console script with ``subprocess=True``."""
    full_env = cli_env(env)
    if subprocess:
        return run_script(
            *args, stdin=stdin, full_env=full_env, cwd=cwd, script=script, timeout=timeout
        )
    return run_in_process(
        script, list(args), stdin=stdin, full_env=full_env, cwd=cwd, timeout=timeout
    )


def run_script(
    *args: str,
    stdin: str | None = None,
    full_env: dict[str, str] | None = None,
    cwd: Path | str | None = None,
    script: str = "kubectl-dgd",
    timeout: float = 120,
) -> Result:
    """The installed console script in a child process (checked to run this checkout)."""
    assert_installed_checkout()
    proc = _subprocess.run(  # noqa: PLW1510 - callers assert on the return code
        [str(BIN / script), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=cli_env() if full_env is None else full_env,
        cwd=cwd,
        timeout=timeout,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


# -- in-process runs ---------------------------------------------------------------------------


class _TimedOut(BaseException):
    """Raised by the alarm in the command's frame (BaseException: no command catches it)."""


def _entry_point(script: str) -> Callable[[], Any]:
    module, _, attr = ENTRY_POINTS[script].partition(":")
    entry: Callable[[], Any] = getattr(importlib.import_module(module), attr)
    return entry


def _exit_status(code: Any) -> int:
    """What the OS reports for ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code % 256
    print(code, file=sys.stderr)  # as the interpreter does for sys.exit("message")
    return 1


def _call(entry: Callable[[], Any]) -> int:
    """Call ``entry`` as the console-script wrapper does (``sys.exit(main())``) and report the
    exit status a process would have; an uncaught exception prints its traceback, as Python."""
    try:
        sys.exit(entry())
    except SystemExit as exit_:
        return _exit_status(exit_.code)
    except KeyboardInterrupt:
        traceback.print_exc()
        return -int(signal.SIGINT)  # Python re-raises SIGINT at exit: killed by the signal
    except Exception:
        traceback.print_exc()
        return 1


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """subprocess.run's timeout for a call in this (main) thread: SIGALRM interrupts it."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only: no timeout here
        return

    def expire(signum: int, frame: Any) -> None:
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# The entry points tune the collector for a short-lived process (kubectl_dgd/startup/gcpolicy.py:
# disabled while loading, objects frozen at exit); the test process lives on, so it gets
# Python's thresholds back. What a command froze stays frozen: unfreezing would also thaw what
# collection froze (pytest_collection_finish), and every later full collection would walk the
# whole session again (the suite took about 10 % more CPU that way; peak memory is the same).
_GC_THRESHOLD = (700, 10, 10)


def _restore_gc() -> None:
    gc.set_threshold(*_GC_THRESHOLD)
    gc.enable()


# A command may install handlers (Ctrl-C, a closed pipe); the next test gets pytest's back.
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGHUP)


def _decode(data: bytes, universal_newlines: bool) -> str:
    """Decode as ``subprocess.run`` with ``text=True`` (universal newlines) or ``.decode()``."""
    text = data.decode()
    return text.replace("\r\n", "\n").replace("\r", "\n") if universal_newlines else text


def run_in_process(
    script: str,
    args: list[str],
    *,
    stdin: str | None,
    full_env: dict[str, str],
    cwd: Path | str | None,
    timeout: float,
    universal_newlines: bool = True,
) -> Result:
    """``script``'s entry point in this process: os.environ is exactly ``full_env`` (and TZ is
    applied), argv is ``[script, *args]``, cwd is ``cwd``, stdin/stdout/stderr are buffers."""
    from click import formatting
    from click.testing import CliRunner

    entry = _entry_point(script)
    overrides: dict[str, str | None] = {k: None for k in os.environ if k not in full_env}
    overrides.update(full_env)
    saved_argv, saved_cwd = sys.argv, os.getcwd()
    saved_signals = {s: signal.getsignal(s) for s in _SIGNALS}
    with CliRunner().isolation(input=stdin, env=overrides) as (out, err, _):
        # The isolation pins help to 80 columns; a real run wraps at COLUMNS, as set above.
        formatting.FORCED_WIDTH = None
        time.tzset()
        sys.argv = [script, *args]
        try:
            if cwd is not None:
                os.chdir(cwd)
            with _deadline(timeout):
                code = _call(entry)
        except _TimedOut:
            raise _subprocess.TimeoutExpired([script, *args], timeout) from None
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            sys.argv = saved_argv
            os.chdir(saved_cwd)
            for sig, handler in saved_signals.items():
                if handler is not None:
                    signal.signal(sig, handler)
            _restore_gc()
    time.tzset()
    return Result(
        code,
        _decode(out.getvalue(), universal_newlines),
        _decode(err.getvalue(), universal_newlines),
    )


# -- the console scripts run this checkout -----------------------------------------------------

_CHECKED: list[bool] = []


def assert_installed_checkout() -> None:
    """The console scripts in the venv import kubectl_dgd from this checkout (an editable install
    of another worktree, or a wheel, would test other code). Checked once per session."""
    if _CHECKED:
        return
    probe = (
        "import sys, importlib.metadata as m, kubectl_dgd;"
        "print(kubectl_dgd.__file__);"
        "print(*sorted(f'{e.name}={e.value}' for e in m.entry_points(group='console_scripts')"
        " if e.dist is not None and e.dist.name == 'kubectl-dgd'), sep='\\n')"
    )
    # -P and cwd=/: sys.path as a console script has it (no working directory in front)
    proc = _subprocess.run(
        [str(BIN / "python"), "-P", "-c", probe],
        capture_output=True,
        text=True,
        cwd="/",
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    where, *scripts = proc.stdout.splitlines()
    assert Path(where).resolve().is_relative_to(ROOT / "kubectl_dgd"), (
        f"the venv's kubectl_dgd is {where}, not this checkout ({ROOT}): "
        "run `pip install -e .` here (make .venv/.installed-dev)"
    )
    assert scripts == sorted(f"{k}={v}" for k, v in ENTRY_POINTS.items()), scripts
    _CHECKED.append(True)


def checkout_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """An environment for ``python -m kubectl_dgd``: this checkout first on the path."""
    full = cli_env(env)
    full["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), full.get("PYTHONPATH")) if p)
    return full


def assert_golden(name: str, actual: str) -> None:
    """Compare with tests/golden/NAME; UPDATE_GOLDEN=1 re-records (`make golden`)."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        return
    assert path.exists(), f"golden file {path} missing: run `make golden`"
    assert actual == path.read_text(), (
        f"output differs from {path}; re-record with `make golden` and read the diff"
    )


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


from tests.apiserver.fixtures import apiserver, operator_sim  # noqa: E402, F401  (live-cluster tests)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything collection built out of the collector's way: each later full collection
    would walk it again, and the API server's setup allocates enough to trigger many."""
    gc.collect()
    gc.freeze()


def pytest_configure(config: pytest.Config) -> None:
    """The controller names the run's real-control-plane state directory before the workers
    start (they inherit the environment); the first test that needs the control plane starts it
    there (tests/realcluster/conftest.py). An exported KDGD_REAL_STATE attaches to a running
    one, which the run then leaves running.

    First, the pinned environment: before collection and every session fixture (the test API
    server, the control plane), in the controller and in each worker."""
    pin_environment()
    if hasattr(config, "workerinput") or os.environ.get("KDGD_REAL_STATE"):
        return
    import tempfile

    folder = tempfile.mkdtemp(prefix="kdgd-real-")
    os.environ["KDGD_REAL_STATE"] = folder
    config.stash[_REAL_STATE] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_REAL_STATE, None)
    if folder is None:
        return
    import shutil

    from tests.realcluster.controlplane import down

    down(Path(folder))
    shutil.rmtree(folder, ignore_errors=True)
    os.environ.pop("KDGD_REAL_STATE", None)


_REAL_STATE = pytest.StashKey[str]()
