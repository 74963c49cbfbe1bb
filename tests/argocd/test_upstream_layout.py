"""The customization's upstream-layout test files, run as Argo CD's own Go tests run them.

Argo CD's util/lua/health_test.go walks resource_customizations/ for every health.lua, reads the
health_test.yaml beside it and expects each input's verdict; custom_actions_test.go reads
actions/action_test.yaml: discovery tests (each offered action must be among the expected ones)
and action tests (the output must equal the expected object after the test normaliser, or the
error must be the expected message). Health and discovery run there with the standard libraries
open, actions without; a customization configured in argocd-cm runs without them at all, so
everything here also runs without. Every health input's expected verdict is also the core's.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.core.health import health

pytest.importorskip("lupa.luajit21")

from tests.argocd.argocd_lua import ArgoLua, LuaScriptError, resource_action

ROOT = Path(__file__).resolve().parents[2]
CUSTOMIZATIONS = ROOT / "argocd-plugin" / "resource_customizations"
KIND_DIR = CUSTOMIZATIONS / "nvidia.com" / "DynamoGraphDeployment"
RESTARTED_ID = "0001-01-01T00:00:00Z"


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


def _health_cases() -> list[Any]:
    cases = []
    for script in sorted(CUSTOMIZATIONS.rglob("health.lua")):
        tests = _load(script.parent / "health_test.yaml")["tests"]
        for test in tests:
            cases.append(pytest.param(script, test, id=test["inputPath"]))
    return cases


def _action_file() -> dict[str, Any]:
    data: dict[str, Any] = _load(KIND_DIR / "actions" / "action_test.yaml")
    return data


def normalize(obj: Any) -> Any:
    """The test normaliser (what upstream's testNormalizer would do for this kind) and the JSON
    round trip that makes 2 and 2.0 equal: the clock-made restart id becomes a fixed value."""
    obj = json.loads(json.dumps(obj), parse_int=float)
    if isinstance(obj, dict) and obj.get("kind") == "DynamoGraphDeployment":
        restart = (obj.get("spec") or {}).get("restart")
        if isinstance(restart, dict) and "id" in restart:
            restart["id"] = RESTARTED_ID
    return obj


def test_every_health_script_has_its_test_file_and_testdata() -> None:
    scripts = sorted(CUSTOMIZATIONS.rglob("health.lua"))
    assert scripts
    for script in scripts:
        tests = _load(script.parent / "health_test.yaml")["tests"]
        assert len(tests) >= 20
        assert {t["healthStatus"]["status"] for t in tests} == {
            "Healthy",
            "Progressing",
            "Degraded",
        }
        for test in tests:
            assert (script.parent / test["inputPath"]).is_file()
    discovery = sorted(CUSTOMIZATIONS.rglob("discovery.lua"))
    assert discovery
    for script in discovery:
        assert (script.parent / "action_test.yaml").is_file()


@pytest.mark.parametrize("open_libs", [True, False], ids=["built-in", "argocd-cm"])
@pytest.mark.parametrize(("script", "test"), _health_cases())
def test_health_script_gives_the_expected_verdict(
    script: Path, test: dict[str, Any], open_libs: bool
) -> None:
    obj = _load(script.parent / test["inputPath"])
    expected = {
        "status": test["healthStatus"]["status"],
        "message": test["healthStatus"].get("message", ""),
    }
    assert ArgoLua(open_libs).health(script.read_text(), obj) == expected


@pytest.mark.parametrize(("script", "test"), _health_cases())
def test_expected_verdict_is_the_cores(script: Path, test: dict[str, Any]) -> None:
    obj = _load(script.parent / test["inputPath"])
    assert health(obj) == (test["healthStatus"]["status"], test["healthStatus"].get("message", ""))


@pytest.mark.parametrize("open_libs", [True, False], ids=["built-in", "argocd-cm"])
@pytest.mark.parametrize("test", _action_file()["discoveryTests"], ids=lambda t: t["inputPath"])
def test_discovery_offers_only_expected_actions(test: dict[str, Any], open_libs: bool) -> None:
    actions_dir = KIND_DIR / "actions"
    obj = _load(actions_dir / test["inputPath"])
    result = ArgoLua(open_libs).discovery((actions_dir / "discovery.lua").read_text(), obj)
    expected = [resource_action(r) for r in test["result"]]
    assert result
    for action in result:
        assert action in expected


@pytest.mark.parametrize(
    "test",
    _action_file()["actionTests"],
    ids=lambda t: f"{t['action']}/{t['inputPath']}",
)
def test_action_gives_the_expected_object_or_error(test: dict[str, Any]) -> None:
    actions_dir = KIND_DIR / "actions"
    obj = _load(actions_dir / test["inputPath"])
    script = (actions_dir / test["action"] / "action.lua").read_text()
    vm = ArgoLua(open_libs=False)
    if test.get("expectedErrorMessage"):
        with pytest.raises(LuaScriptError) as err:
            vm.run(script, copy.deepcopy(obj), test.get("parameters"))
        assert str(err.value) == test["expectedErrorMessage"]
        return
    result = vm.run(script, copy.deepcopy(obj), test.get("parameters"))
    assert normalize(result) == normalize(_load(actions_dir / test["expectedOutputPath"]))
    assert result["spec"]["restart"]["id"] != RESTARTED_ID  # the real id came from the clock
