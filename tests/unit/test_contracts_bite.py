"""The architecture contracts fail when broken: each test copies the package and the project's
configuration to a temporary directory, injects one violation, and runs ``lint-imports`` or
``ruff`` there as ``make test`` does. A contract that stays green on its violation is a bug."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The checkout's package and pyproject.toml, in a directory of their own."""
    shutil.copytree(
        ROOT / "kubectl_dgd",
        tmp_path / "kubectl_dgd",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def inject(root: Path, module: str, line: str) -> None:
    """Add ``line`` at the top of ``module`` (a dotted name below kubectl_dgd), or create it."""
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    old = path.read_text() if path.exists() else ""
    path.write_text(f"{line}\n{old}")


def lint_imports(root: Path, contract: str | None = None) -> subprocess.CompletedProcess[str]:
    # lint-imports puts its working directory first on sys.path, so the copy is what it reads.
    args = [str(BIN / "lint-imports"), "--no-cache"]
    if contract:
        args += ["--contract", contract]
    return subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120, check=False)


def test_the_untouched_copy_keeps_every_contract(copy: Path) -> None:
    result = lint_imports(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


# (where, the violating line, the contract that must break)
VIOLATIONS = [
    pytest.param("kubectl_dgd.errors", "import click", "leaves", id="errors-imports-click"),
    pytest.param(
        "kubectl_dgd.exitcodes", "import pydantic", "leaves", id="exitcodes-imports-pydantic"
    ),
    # Indirect: core imports errors, so errors importing click makes core impure too.
    pytest.param(
        "kubectl_dgd.errors", "import click", "core-pure", id="core-reaches-click-through-errors"
    ),
    pytest.param(
        "kubectl_dgd.errors", "import kubectl_dgd.core.naming", "layers", id="errors-imports-core"
    ),
    pytest.param(
        "kubectl_dgd.usecases.render",
        "import kubectl_dgd.adapters.cluster",
        "usecases-port",
        id="usecase-imports-the-cluster-adapter",
    ),
    pytest.param(
        "kubectl_dgd.core.render.dcd",
        "import kubectl_dgd.core.validate.defaults",
        "render-validate-independent",
        id="render-imports-validate",
    ),
    pytest.param(
        "kubectl_dgd.core.validate.lint",
        "import kubectl_dgd.core.render.services",
        "render-validate-independent",
        id="validate-imports-render",
    ),
    pytest.param(
        "kubectl_dgd.core.timefmt",
        "from kubectl_dgd.exitcodes import Exit",
        "exit-codes-entry-points",
        id="core-picks-an-exit-code",
    ),
    pytest.param(
        "kubectl_dgd.output.table",
        "import kubectl_dgd.exitcodes",
        "exit-codes-entry-points",
        id="output-picks-an-exit-code",
    ),
    pytest.param(
        "kubectl_dgd.cli.render",
        "import kubernetes",
        "kubernetes-boundary",
        id="cli-imports-kubernetes",
    ),
    pytest.param(
        "kubectl_dgd.output.findings",
        "import deepdiff",
        "deepdiff-diff-only",
        id="output-imports-deepdiff",
    ),
    pytest.param(
        "kubectl_dgd.argocd.settings",
        "import pydantic",
        "design-card-dev-only",
        id="argocd-settings-imports-pydantic",
    ),
    pytest.param(
        "kubectl_dgd.core.runtime_version",
        "import semver",
        "design-card-dev-only",
        id="runtime-version-imports-semver",
    ),
    pytest.param(
        "kubectl_dgd.argocd.preview",
        "import kubectl_dgd.adapters.cluster",
        "argocd-no-cluster",
        id="argocd-imports-the-cluster-adapter",
    ),
    pytest.param(
        "kubectl_dgd.core.paths",
        "import kubectl_dgd.usecases.render",
        "layers",
        id="core-imports-usecases",
    ),
    pytest.param(
        "kubectl_dgd.core.validate.cel_env",
        "from kubectl_dgd.startup.deferred import defer",
        "startup-fenced",
        id="core-uses-the-start-up-machinery",
    ),
    pytest.param(
        "kubectl_dgd.usecases.render",
        "import kubectl_dgd.startup.gcpolicy",
        "startup-fenced",
        id="usecase-uses-the-start-up-machinery",
    ),
    pytest.param(
        "kubectl_dgd.startup.deferred",
        "import kubectl_dgd.core.naming",
        "startup-below-all",
        id="start-up-machinery-imports-core",
    ),
]


@pytest.mark.parametrize(("module", "line", "contract"), VIOLATIONS)
def test_lint_imports_fails_on_the_violation(
    copy: Path, module: str, line: str, contract: str
) -> None:
    inject(copy, module, line)
    result = lint_imports(copy, contract)
    assert result.returncode == 1, result.stdout + result.stderr
    # The exit code alone would also be 1 for a contract id that does not exist.
    assert "Contracts: 0 kept, 1 broken." in result.stdout


def test_indirect_imports_are_checked(copy: Path) -> None:
    """A harmless-looking core module between render and validate still breaks independence, and
    a helper module that imports the cluster adapter still breaks the use cases' port rule."""
    inject(copy, "kubectl_dgd.core.zz_bridge", "import kubectl_dgd.core.validate.pipeline")
    inject(copy, "kubectl_dgd.core.render.dcd", "import kubectl_dgd.core.zz_bridge")
    result = lint_imports(copy, "render-validate-independent")
    assert "Contracts: 0 kept, 1 broken." in result.stdout
    assert "kubectl_dgd.core.zz_bridge" in result.stdout

    inject(copy, "kubectl_dgd.adapters.zz_helper", "import kubectl_dgd.adapters.cluster")
    inject(copy, "kubectl_dgd.usecases.render", "import kubectl_dgd.adapters.zz_helper")
    result = lint_imports(copy, "usecases-port")
    assert "Contracts: 0 kept, 1 broken." in result.stdout
    assert "kubectl_dgd.adapters.zz_helper" in result.stdout


def ruff_codes(root: Path, module: str) -> set[str]:
    """The rule codes ruff (with the project's configuration) reports for one module."""
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--output-format", "json", str(path)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return {item["code"] for item in json.loads(result.stdout)}


# Code that reads the clock, the environment or the terminal, or exits; each must be refused in
# core/ and model/ and nowhere else.
IMPURE = [
    pytest.param(
        "import time\n\n\ndef now() -> float:\n    return time.time()\n", "TID251", id="time.time"
    ),
    pytest.param(
        "import time\n\n\ndef now() -> float:\n    return time.monotonic()\n",
        "TID251",
        id="time.monotonic",
    ),
    pytest.param(
        "from datetime import UTC, datetime\n\n\ndef now() -> datetime:\n    return datetime.now(UTC)\n",
        "TID251",
        id="datetime.now",
    ),
    pytest.param(
        "from datetime import datetime\n\n\ndef day() -> datetime:\n    return datetime(2026, 1, 1)\n",
        "DTZ001",
        id="naive-datetime",
    ),
    pytest.param(
        "import os\n\n\ndef home() -> str | None:\n    return os.environ.get('HOME')\n",
        "TID251",
        id="os.environ",
    ),
    pytest.param(
        "from os import getenv\n\n\ndef home() -> str | None:\n    return getenv('HOME')\n",
        "TID251",
        id="os.getenv",
    ),
    pytest.param(
        "import sys\n\n\ndef out() -> None:\n    sys.stdout.write('x')\n", "TID251", id="sys.stdout"
    ),
    pytest.param("import sys\n\n\ndef stop() -> None:\n    sys.exit(1)\n", "TID251", id="sys.exit"),
    pytest.param("def out() -> None:\n    print('x')\n", "T201", id="print"),
]


@pytest.mark.parametrize(("code", "rule"), IMPURE)
@pytest.mark.parametrize("module", ["kubectl_dgd.core.zz_impure", "kubectl_dgd.model.zz_impure"])
def test_ruff_keeps_the_outside_world_out_of_core_and_model(
    copy: Path, module: str, code: str, rule: str
) -> None:
    inject(copy, module, code)
    assert rule in ruff_codes(copy, module)


@pytest.mark.parametrize(("code", "rule"), [p for p in IMPURE if p.values[1] != "T201"])
def test_front_ends_may_read_the_clock_and_environment(copy: Path, code: str, rule: str) -> None:
    """The ban is scoped: the same code in cli/ is not reported (the entry points need it)."""
    inject(copy, "kubectl_dgd.cli.zz_impure", code)
    assert rule not in ruff_codes(copy, "kubectl_dgd.cli.zz_impure")


def test_the_checked_in_core_and_model_are_clean(copy: Path) -> None:
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--select", "TID251,DTZ,T20", "kubectl_dgd"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout
