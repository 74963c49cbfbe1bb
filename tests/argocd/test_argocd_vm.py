"""The health check and actions run by gopher-lua in Argo CD's VM configuration (tools/argocd-lua).

Argo CD's own util/lua cannot be built from the module proxy (Argo CD v3.5.1 requires
github.com/argoproj/argo-cd/gitops-engine v0.7.1-0.20250908182407-97ad5b59a627, which the proxy
does not serve), so tools/argocd-lua sets up the same VM on the same gopher-lua and gopher-json
releases Argo CD's go.mod pins; scripts/argocd/build.sh builds it outside the work tree. Every
health_test.yaml and action_test.yaml case runs there, every status fixture crossed with every
edit of health_variants.py is compared with the core's verdict, and the project's own LuaJIT VM
(argocd_lua.py) is held to gopher-lua's library layout.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.core.health import health
from tests.argocd.health_variants import variants
from tests.argocd.test_lua import STATUS_FIXTURES
from tests.argocd.test_upstream_layout import RESTARTED_ID, normalize

ROOT = Path(__file__).resolve().parents[2]
KIND_DIR = (
    ROOT / "argocd-plugin" / "resource_customizations" / "nvidia.com" / "DynamoGraphDeployment"
)
ACTIONS = KIND_DIR / "actions"


@cache
def _runner() -> str | None:
    found = subprocess.run(
        ["bash", str(ROOT / "scripts" / "argocd" / "build.sh"), "--cached"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return str(Path(found.stdout.strip()) / "argocd-lua") if found.returncode == 0 else None


@pytest.fixture(scope="module")
def runner() -> str:
    path = _runner()
    if path is None:
        why = "argocd-lua is not built (run scripts/argocd/build.sh)"
        if os.environ.get("KDGD_REQUIRE_REAL_CLUSTER") == "1":
            pytest.fail(why)
        pytest.skip(why)
    return path


def run(runner: str, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One process for a batch: each answer is {"result": ...} or {"error": "..."}."""
    proc = subprocess.run(
        [runner],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers: list[dict[str, Any]] = json.loads(proc.stdout)
    assert len(answers) == len(requests)
    return answers


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


def _script(name: str) -> str:
    return (KIND_DIR / name).read_text()


def test_the_vm_has_no_global_os_nor_table_time_and_date(runner: str) -> None:
    probe = (
        'local os = require("os"); local keys = {}; for k in pairs(os) do keys[#keys + 1] = k end;'
        " table.sort(keys); return {osGlobal = tostring(rawget(_G, 'os')),"
        " tableTime = tostring(table.time), tableDate = tostring(table.date),"
        " string = tostring(rawget(_G, 'string')), required = keys}"
    )
    (answer,) = run(runner, [{"mode": "action", "script": probe, "obj": {}}])
    assert answer["result"] == {
        "osGlobal": "nil",
        "tableTime": "nil",
        "tableDate": "nil",
        "string": "nil",
        "required": ["date", "time"],
    }


def test_the_projects_luajit_vm_has_gopher_luas_library_layout(runner: str) -> None:
    pytest.importorskip("lupa.luajit21")
    from tests.argocd.argocd_lua import ArgoLua

    probe = (
        "local g, t = {}, {}; for k in pairs(_G) do g[#g + 1] = k end;"
        " for k in pairs(table) do t[#t + 1] = k end; table.sort(g); table.sort(t);"
        " return {globals = g, table = t}"
    )
    (answer,) = run(runner, [{"mode": "action", "script": probe, "obj": {}}])
    ours = ArgoLua(open_libs=False).run(probe, {})
    # obj and actionParams are set by both; LuaJIT's table library has more functions
    # (table.foreach and friends), gopher-lua's some of its own: what matters is no time/date.
    gopher_only = {"_GOPHER_LUA_VERSION", "_printregs"}  # gopher-lua's own base globals
    assert set(ours["globals"]) == set(answer["result"]["globals"]) - gopher_only
    assert not {"time", "date"} & (set(ours["table"]) | set(answer["result"]["table"]))


def _health_cases() -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    tests = _load(KIND_DIR / "health_test.yaml")["tests"]
    return [
        (
            t["inputPath"],
            _load(KIND_DIR / t["inputPath"]),
            {
                "status": t["healthStatus"]["status"],
                "message": t["healthStatus"].get("message", ""),
            },
        )
        for t in tests
    ]


@pytest.mark.parametrize("open_libs", [True, False], ids=["built-in", "argocd-cm"])
def test_every_health_test_case_gives_its_expected_verdict_in_gopher_lua(
    runner: str, open_libs: bool
) -> None:
    cases = _health_cases()
    script = _script("health.lua")
    answers = run(
        runner,
        [
            {"mode": "health", "script": script, "obj": o, "openLibs": open_libs}
            for _, o, _ in cases
        ],
    )
    got = {path: a.get("result", a) for (path, _, _), a in zip(cases, answers, strict=True)}
    assert got == {path: expected for path, _, expected in cases}
    assert all(tuple(exp.values()) == health(obj) for _, obj, exp in cases)


def test_every_status_fixture_and_variant_gets_the_cores_verdict_in_gopher_lua(
    runner: str,
) -> None:
    cases = []
    for path in STATUS_FIXTURES:
        for name, edit in variants():
            obj = _load(path)
            edit(obj)
            cases.append((f"{path.stem}-{name}", obj))
    answers = run(
        runner,
        [{"mode": "health", "script": _script("health.lua"), "obj": o} for _, o in cases],
    )
    assert len(cases) >= 100
    for (case, obj), answer in zip(cases, answers, strict=True):
        core = health(copy.deepcopy(obj))
        if (obj.get("metadata") or {}).get("deletionTimestamp"):
            continue  # Argo CD answers "Pending deletion" before any script runs
        assert (answer["result"]["status"], answer["result"]["message"]) == core, case


@pytest.mark.parametrize("open_libs", [True, False], ids=["built-in", "argocd-cm"])
def test_discovery_offers_exactly_the_expected_actions_in_gopher_lua(
    runner: str, open_libs: bool
) -> None:
    tests = _load(ACTIONS / "action_test.yaml")["discoveryTests"]
    script = (ACTIONS / "discovery.lua").read_text()
    answers = run(
        runner,
        [
            {
                "mode": "discovery",
                "script": script,
                "obj": _load(ACTIONS / t["inputPath"]),
                "openLibs": open_libs,
            }
            for t in tests
        ],
    )
    for test, answer in zip(tests, answers, strict=True):
        assert answer["result"] == sorted(test["result"], key=lambda a: a["name"]), test


def test_every_action_test_gives_its_object_or_error_in_gopher_lua(runner: str) -> None:
    tests = _load(ACTIONS / "action_test.yaml")["actionTests"]
    answers = run(
        runner,
        [
            {
                "mode": "action",
                "script": (ACTIONS / t["action"] / "action.lua").read_text(),
                "obj": _load(ACTIONS / t["inputPath"]),
                "params": t.get("parameters") or {},
            }
            for t in tests
        ],
    )
    for test, answer in zip(tests, answers, strict=True):
        if test.get("expectedErrorMessage"):
            assert answer == {"error": test["expectedErrorMessage"]}, test
            continue
        result = answer["result"]
        assert normalize(result) == normalize(_load(ACTIONS / test["expectedOutputPath"])), test
        assert result["spec"]["restart"]["id"] != RESTARTED_ID  # from gopher-lua's clock


def test_an_action_using_table_date_fails_in_argocd(runner: str) -> None:
    # What the project's VM used to accept: table.date exists nowhere in Argo CD's sandbox.
    (answer,) = run(
        runner, [{"mode": "action", "script": 'return {id = table.date("!%Y")}', "obj": {}}]
    )
    assert "attempt to call a non-function object" in answer["error"]
