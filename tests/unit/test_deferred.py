"""kubectl_dgd/deferred.py: a deferred module runs its code at the first name asked of it, once, as
the same module object; its submodules import without running it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from kubectl_dgd.deferred import defer, is_deferred
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
        "from kubectl_dgd.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "from kubectl_dgd.deferred import is_deferred\n"
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
