""" "Is the operator at least release X?" has one spelling: ``at_least`` (core/profile.py), or
``Profile.at_least`` for a profile's release. A comparison of ``version_key(...)`` anywhere else
(``version_key(v) >= (1, 6)``) is a second way and fails here; ``version_key`` stays for
ordering (a sort key, ``max``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kubectl_dgd.core.profile import Profile, at_least

PACKAGE = Path(__file__).resolve().parents[2] / "kubectl_dgd"


def _compares_version_keys(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                if (
                    isinstance(side, ast.Call)
                    and isinstance(side.func, ast.Name)
                    and side.func.id == "version_key"
                ):
                    lines.append(node.lineno)
    return lines


def test_no_module_compares_release_keys_but_the_one_function() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix() == "core/profile.py":
            continue
        lines = _compares_version_keys(ast.parse(path.read_text(), str(path)))
        found += [f"{path.relative_to(PACKAGE)}:{line}" for line in lines]
    assert found == [], "ask at_least(version, 'X.Y') instead: " + ", ".join(found)


def test_the_check_sees_an_inline_comparison() -> None:
    assert _compares_version_keys(ast.parse("ok = version_key(v) >= (1, 6)")) == [1]


@pytest.mark.parametrize(
    ("version", "release", "expected"),
    [("1.6", "1.5", True), ("1.5", "1.5", True), ("1.4", "1.5", False), ("1.10", "1.9", True)],
)
def test_at_least_orders_releases_numerically(version: str, release: str, expected: bool) -> None:
    assert at_least(version, release) is expected
    assert Profile(operator_version=version).at_least(release) is expected
