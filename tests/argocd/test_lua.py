"""The Lua health check and restart actions, run in Argo CD's Lua VM (tests/argocd/argocd_lua.py).

They are delivered through argocd-cm, so they run as Argo CD runs a configured customization:
the package, base and table libraries only, ``os`` only through ``require("os")``, no string
library. The health verdicts are compared with the core's over the status view's fixtures; the
upstream-layout test files (health_test.yaml, actions/action_test.yaml) run in
test_upstream_layout.py.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.core.health import health

pytest.importorskip("lupa.luajit21")

from tests.argocd.argocd_lua import ArgoLua, LuaScriptError
from tests.argocd.health_variants import variants

ROOT = Path(__file__).resolve().parents[2]
CUSTOM = ROOT / "argocd-plugin" / "resource-customizations"
KIND_DIR = (
    ROOT / "argocd-plugin" / "resource_customizations" / "nvidia.com" / "DynamoGraphDeployment"
)
STATUS_FIXTURES = sorted((ROOT / "manifests" / "examples" / "status").glob("*.yaml"))


class Sandbox:
    """Argo CD's VM for a customization configured in argocd-cm (no open libraries)."""

    def __init__(self) -> None:
        self.vm = ArgoLua(open_libs=False)

    def run(self, script: str, obj: Any) -> Any:
        return self.vm.run(script, obj)


def saved(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


HEALTH = (KIND_DIR / "health.lua").read_text()
DISCOVERY = (KIND_DIR / "actions" / "discovery.lua").read_text()
RESTART = (KIND_DIR / "actions" / "restart" / "action.lua").read_text()
RESTART_PARALLEL = (KIND_DIR / "actions" / "restart-parallel" / "action.lua").read_text()


def lua_health(obj: Any) -> tuple[str, str]:
    result = Sandbox().run(HEALTH, obj)
    return result["status"], result["message"]


def argocd_health(obj: Any) -> tuple[str, str]:
    """What Argo CD shows: gitops-engine answers for an object being deleted before any script
    runs (and a missing object never reaches it); every other verdict is the script's."""
    if (obj.get("metadata") or {}).get("deletionTimestamp"):
        return "Progressing", "Pending deletion"
    return lua_health(obj)


CASES = [
    pytest.param(path, name, edit, id=f"{path.stem}-{name}")
    for path in STATUS_FIXTURES
    for name, edit in variants()
]


def test_status_fixtures_exist() -> None:
    assert len(STATUS_FIXTURES) >= 5


@pytest.mark.parametrize(("path", "name", "edit"), CASES)
def test_lua_health_agrees_with_the_core(
    path: Path, name: str, edit: Callable[[dict[str, Any]], None]
) -> None:
    obj = saved(path)
    edit(obj)
    shown, core = argocd_health(copy.deepcopy(obj)), health(obj)
    if name == "deleting":  # both Progressing; Argo CD words it itself
        assert (shown[0], core) == ("Progressing", ("Progressing", "Deleting"))
    else:
        assert shown == core


def test_the_script_has_no_branch_argocd_never_reaches() -> None:
    # Missing and deleting are answered by Argo CD before the script runs (gitops-engine's
    # GetResourceHealth); dead branches would not be accepted upstream.
    code = "\n".join(line for line in HEALTH.splitlines() if not line.lstrip().startswith("--"))
    assert '"Missing"' not in code
    assert "deletionTimestamp" not in code


def test_every_argocd_health_status_is_reachable_from_the_fixtures() -> None:
    seen = {argocd_health(_edited(p, e))[0] for p, _, e in (c.values for c in CASES)}
    # Never Suspended: a graph scaled to zero is Healthy (a sync waits for Healthy).
    assert seen == {"Healthy", "Progressing", "Degraded"}


def _edited(path: Path, edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    obj = saved(path)
    edit(obj)
    return obj


def test_sandbox_refuses_the_string_library_as_argocd_does() -> None:
    with pytest.raises(LuaScriptError):
        Sandbox().run('return ("x"):upper()', {})
    with pytest.raises(LuaScriptError):
        Sandbox().run("return string.format('%d', 1)", {})


# Actions


def _graph(name: str = "healthy") -> dict[str, Any]:
    return saved(ROOT / "manifests" / "examples" / "status" / f"{name}.yaml")


ID = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ(-\d+)?$")


def test_discovery_offers_both_restarts_for_an_ordinary_graph() -> None:
    actions = Sandbox().run(DISCOVERY, _graph())
    assert actions["restart"]["disabled"] is False
    assert actions["restart-parallel"]["disabled"] is False


def test_discovery_disables_sequential_restart_for_lpx_graphs() -> None:
    obj = _graph()
    obj["spec"]["components"][0]["type"] = "lpx"
    actions = Sandbox().run(DISCOVERY, obj)
    assert (actions["restart"]["disabled"], actions["restart-parallel"]["disabled"]) == (
        True,
        False,
    )


def test_discovery_disables_restarts_during_a_rolling_update() -> None:
    actions = Sandbox().run(DISCOVERY, _graph("rolling-update-in-progress"))
    assert actions["restart"]["disabled"] is True
    assert actions["restart-parallel"]["disabled"] is True


def test_restart_sets_a_time_id_and_sequential_strategy() -> None:
    result = Sandbox().run(RESTART, _graph())
    restart = result["spec"]["restart"]
    assert ID.match(restart["id"]), restart
    assert restart["strategy"] == {"type": "Sequential"}
    assert result["spec"]["components"] == _graph()["spec"]["components"]


def test_restart_keeps_an_existing_order() -> None:
    obj = _graph()
    obj["spec"]["restart"] = {"id": "old", "strategy": {"type": "Sequential", "order": ["B", "A"]}}
    restart = Sandbox().run(RESTART, obj)["spec"]["restart"]
    assert restart["strategy"] == {"type": "Sequential", "order": ["B", "A"]}
    assert restart["id"] != "old"


def test_restart_parallel_drops_the_order() -> None:
    obj = _graph()
    obj["spec"]["restart"] = {"id": "old", "strategy": {"type": "Sequential", "order": ["B", "A"]}}
    restart = Sandbox().run(RESTART_PARALLEL, obj)["spec"]["restart"]
    assert restart["strategy"] == {"type": "Parallel"}
    assert ID.match(restart["id"])


def test_restart_in_the_same_second_still_changes_the_id() -> None:
    sandbox = Sandbox()
    first = sandbox.run(RESTART, _graph())
    second = sandbox.run(RESTART, first)
    assert second["spec"]["restart"]["id"] != first["spec"]["restart"]["id"]


def test_sequential_restart_of_an_lpx_graph_is_refused() -> None:
    obj = _graph()
    obj["spec"]["components"][1]["type"] = "lpx"
    with pytest.raises(
        LuaScriptError, match="must be Parallel when the graph contains LPX components"
    ):
        Sandbox().run(RESTART, obj)
    assert Sandbox().run(RESTART_PARALLEL, obj)["spec"]["restart"]["strategy"] == {
        "type": "Parallel"
    }


def test_restart_is_refused_during_a_rolling_update() -> None:
    with pytest.raises(LuaScriptError, match="rolling update is in progress"):
        Sandbox().run(RESTART_PARALLEL, _graph("rolling-update-in-progress"))


# Installation snippet


def test_argocd_cm_snippet_embeds_the_lua_files_verbatim() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_argocd_cm", CUSTOM / "build_argocd_cm.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (CUSTOM / "argocd-cm.yaml").read_text() == module.build(), "run build_argocd_cm.py"
    data = yaml.safe_load((CUSTOM / "argocd-cm.yaml").read_text())["data"]
    assert data["resource.customizations.health.nvidia.com_DynamoGraphDeployment"] == HEALTH
    actions = yaml.safe_load(
        data["resource.customizations.actions.nvidia.com_DynamoGraphDeployment"]
    )
    assert actions["discovery.lua"] == DISCOVERY
    assert [(d["name"], d["action.lua"]) for d in actions["definitions"]] == [
        ("restart", RESTART),
        ("restart-parallel", RESTART_PARALLEL),
    ]
    ignore = yaml.safe_load(
        data["resource.customizations.ignoreDifferences.nvidia.com_DynamoGraphDeployment"]
    )
    assert "/metadata/annotations/nvidia.com~1workload-provider" in ignore["jsonPointers"]


def test_the_global_os_is_nil_as_in_argocd() -> None:
    # A bare os.date would pass a sandbox with a global os and fail in Argo CD.
    with pytest.raises(LuaScriptError, match="attempt to index"):
        Sandbox().run('return os.date("!%Y")', {})
    assert Sandbox().run('local os = require("os"); return os.date("!%Y")', {}).isdigit()
    assert Sandbox().run('return require("os").execute', {}) is None
