"""kubectl_dgd/startup/deferred.py: a deferred module runs its code at the first name asked of it, once, as
the same module object; its submodules import without running it."""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.startup.deferred import defer, is_deferred

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from kubectl_dgd.startup.deferred import defer, is_deferred
email = defer("email")
assert is_deferred(email) and "email.errors" not in sys.modules
import email.errors  # a submodule: the package's __init__ does not run for it
assert is_deferred(sys.modules["email"]) and "email.errors" in sys.modules
assert defer("email") is email  # entered once
parser = email.message_from_string  # a name of the __init__: it runs now, in place
assert not is_deferred(email) and sys.modules["email"] is email
assert parser("Subject: x\\n\\nbody")["Subject"] == "x"
import json  # a module already loaded is returned as it is
assert defer("json") is json and not is_deferred(json)
import _json  # an extension module is imported, never deferred
assert not is_deferred(defer("_json"))
print("ok")
"""


def test_a_deferred_module_runs_in_place_at_first_use() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )
    assert proc.stdout.strip() == "ok", proc.stderr


def test_validate_leaves_the_cel_extensions_logging_unloaded(tmp_path: Path) -> None:
    """Checking a graph never logs: logging stays deferred (its import is start-up time)."""
    code = (
        "import sys\n"
        "sys.argv = ['kubectl-dgd', 'validate', sys.argv[1]]\n"
        "from kubectl_dgd.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "from kubectl_dgd.startup.deferred import is_deferred\n"
        "print(code, is_deferred(sys.modules['logging']))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "manifests" / "examples" / "invalid")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert proc.stdout.strip().splitlines()[-1] == "1 True", proc.stderr


# A module whose code stops half way until the test lets it go: `started` is set once its first
# name exists, and the rest runs when `proceed` is set.
GATED = """
import threading
FIRST = 1
started, proceed = threading.Event(), threading.Event()
import {gate}
{gate}.events.append((started, proceed))
started.set()
proceed.wait(60)
LAST = 2
"""


@pytest.fixture
def probe_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on sys.path for this test's modules, removed from sys.modules after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_thread_asking_while_another_runs_the_module_waits_for_it(probe_path: Path) -> None:
    """Two threads: the first runs the deferred module's code (held half way); the second asks
    for a name the code has not defined yet and gets it once the code has run, not an
    AttributeError of a module half run."""
    (probe_path / "dgate.py").write_text("events = []\n")
    (probe_path / "dgated.py").write_text(GATED.format(gate="dgate"))
    import dgate  # type: ignore[import-not-found]

    module = defer("dgated")
    got: dict[str, Any] = {}

    def ask(who: str) -> None:
        try:
            got[who] = module.LAST
        except Exception as err:  # the failure this test is about
            got[who] = err

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    while not dgate.events:  # the module's code runs in the first thread
        first.join(0.01)
    started, proceed = dgate.events[0]
    assert started.wait(60)
    asking = threading.Event()
    second = threading.Thread(target=lambda: (asking.set(), ask("second")))
    second.start()
    assert asking.wait(60)
    second.join(0.5)  # long enough for it to ask (and, before the fix, to fail)
    proceed.set()
    first.join(60)
    second.join(60)
    assert got == {"first": 2, "second": 2}
    assert not is_deferred(module) and sys.modules["dgated"] is module


def test_a_module_whose_code_fails_leaves_sys_modules_as_a_failed_import(
    probe_path: Path,
) -> None:
    """The error reaches the one who asked; the module is gone from sys.modules and from its
    package, and the next import runs the (now fixed) code afresh."""
    package = probe_path / "dbroken"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text("HALF = 1\nraise RuntimeError('broken at load')\n")
    import dbroken  # type: ignore[import-not-found]

    module = defer("dbroken.mod")
    assert dbroken.mod is module
    with pytest.raises(RuntimeError, match="broken at load"):
        module.NAME  # noqa: B018 - asking for a name runs the code
    assert "dbroken.mod" not in sys.modules and not hasattr(dbroken, "mod")
    assert not is_deferred(module)
    (package / "mod.py").write_text("NAME = 'fixed'\n")
    importlib.invalidate_caches()
    sys.modules.pop("dbroken.mod", None)
    fresh = importlib.import_module("dbroken.mod")
    assert fresh is not module and fresh.NAME == "fixed"


def test_the_module_asking_itself_while_it_runs_gets_a_partial_module_error(
    probe_path: Path,
) -> None:
    """Its own code (through a cycle) asking for a name it has not defined yet: the error an
    import gives for a partially initialised module, not a second run of the code."""
    (probe_path / "dcycle.py").write_text("import dcycle2\nLATE = 1\n")
    (probe_path / "dcycle2.py").write_text(
        "import sys\ntry:\n    sys.modules['dcycle'].LATE\nexcept AttributeError as e:\n"
        "    SEEN = str(e)\n"
    )
    module = defer("dcycle")
    assert module.LATE == 1
    assert "partially initialized module 'dcycle'" in sys.modules["dcycle2"].SEEN
