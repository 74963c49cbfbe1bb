"""The Lua health check and restart actions, run in a sandbox shaped like Argo CD's.

Argo CD runs resource customizations in gopher-lua (Lua 5.1) with only the base, table and
package libraries and an ``os`` reduced to ``time`` and ``date``; the object is the global
``obj``. We use LuaJIT (Lua 5.1 semantics) through lupa and remove everything else, including
the string metatable, so a script that calls ``string.*`` or ``s:find`` fails here as it would
there. The health verdicts are compared with the core's over the status view's fixtures.
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

lupa = pytest.importorskip("lupa.luajit21")

ROOT = Path(__file__).resolve().parents[2]
CUSTOM = ROOT / "argocd-plugin" / "resource-customizations"
KIND_DIR = CUSTOM / "nvidia.com" / "DynamoGraphDeployment"
STATUS_FIXTURES = sorted((ROOT / "manifests" / "examples" / "status").glob("*.yaml"))

_SANDBOX = """
local keep = {assert=1, error=1, ipairs=1, next=1, pairs=1, pcall=1, rawequal=1, rawget=1,
  rawset=1, select=1, tonumber=1, tostring=1, type=1, unpack=1, xpcall=1, setmetatable=1,
  getmetatable=1, table=1, require=1, package=1, _G=1, _VERSION=1}
local safe_os = {time = os.time, date = os.date}
debug.setmetatable("", nil)
for name in pairs(_G) do if not keep[name] then _G[name] = nil end end
for name in pairs(package.loaded) do
  if name ~= "_G" and name ~= "table" and name ~= "package" then package.loaded[name] = nil end
end
package.loaded.os = safe_os
os = safe_os
"""


class Sandbox:
    def __init__(self) -> None:
        self.lua = lupa.LuaRuntime(unpack_returned_tuples=False)
        self.lua.execute(_SANDBOX)

    def to_lua(self, value: Any) -> Any:
        if isinstance(value, dict):
            table = self.lua.table()
            for key, item in value.items():
                if item is not None:  # Argo CD's decodeValue turns null into nil: the key is absent
                    table[key] = self.to_lua(item)
            return table
        if isinstance(value, list):
            table = self.lua.table()
            for i, item in enumerate(value, start=1):
                table[i] = self.to_lua(item)
            return table
        return value

    def run(self, script: str, obj: Any) -> Any:
        self.lua.globals().obj = self.to_lua(obj)
        chunk = self.lua.eval(f"function() {script}\nend")
        return from_lua(chunk())


def from_lua(value: Any) -> Any:
    if lupa.lua_type(value) != "table":
        return value
    keys = list(value.keys())
    if (
        keys
        and all(isinstance(k, int) for k in keys)
        and sorted(keys) == list(range(1, len(keys) + 1))
    ):
        return [from_lua(value[k]) for k in sorted(keys)]
    return {k: from_lua(value[k]) for k in keys}


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


def _variants() -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
    """Edits that walk every rule of the verdict, applied to each fixture."""

    def ready(obj: dict[str, Any]) -> dict[str, Any]:
        for c in obj.setdefault("status", {}).setdefault("conditions", []):
            if c.get("type") == "Ready":
                return c
        c = {"type": "Ready"}
        obj["status"]["conditions"].append(c)
        return c

    def set_(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
        def edit(obj: dict[str, Any]) -> None:
            node = obj
            parts = path.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = value

        return edit

    def drop(key: str) -> Callable[[dict[str, Any]], None]:
        return lambda obj: obj.pop(key, None)  # type: ignore[func-returns-value]

    return [
        ("as-saved", lambda obj: None),
        ("deleting", set_("metadata.deletionTimestamp", "2026-12-01T00:00:00Z")),
        ("no-status", drop("status")),
        ("state-failed", set_("status.state", "failed")),
        (
            "failed-without-reason",
            lambda o: (set_("status.state", "failed")(o), ready(o).pop("reason", None)),
        ),
        (
            "ready-false-failure",
            lambda o: ready(o).update(status="False", reason="rolling_update_failed", message="x"),
        ),
        (
            "ready-false-capacity",
            lambda o: ready(o).update(status="False", reason="insufficient_capacity", message=""),
        ),
        (
            "ready-unknown",
            lambda o: ready(o).update(status="Unknown", reason="", message="checking"),
        ),
        ("ready-true-no-message", lambda o: ready(o).update(status="True", message="")),
        (
            "no-conditions-successful",
            lambda o: (set_("status.conditions", [])(o), set_("status.state", "successful")(o)),
        ),
        (
            "no-conditions-pending",
            lambda o: (set_("status.conditions", [])(o), set_("status.state", "pending")(o)),
        ),
        (
            "no-conditions-no-state",
            lambda o: (set_("status.conditions", [])(o), o["status"].pop("state", None)),
        ),
        ("rolling-failed", set_("status.rollingUpdate", {"phase": "Failed"})),
        ("rolling-pending", set_("status.rollingUpdate", {"phase": "Pending"})),
        (
            "rolling-in-progress",
            set_("status.rollingUpdate", {"phase": "InProgress", "updatedComponents": ["a"]}),
        ),
        (
            "old-generation",
            lambda o: (set_("metadata.generation", 7)(o), set_("status.observedGeneration", 6)(o)),
        ),
        ("restart-requested", set_("spec.restart", {"id": "r-new"})),
        (
            "restart-failed",
            lambda o: (
                set_("spec.restart", {"id": "r1"})(o),
                set_("status.restart", {"observedID": "r1", "phase": "Failed"})(o),
            ),
        ),
        (
            "restart-running",
            lambda o: (
                set_("spec.restart", {"id": "r1"})(o),
                set_(
                    "status.restart",
                    {"observedID": "r1", "phase": "Restarting", "inProgress": ["B", "A"]},
                )(o),
            ),
        ),
        ("restart-pending-no-id", set_("status.restart", {"phase": "Pending"})),
        (
            "restart-superseded",
            lambda o: (
                set_("spec.restart", {"id": "r1"})(o),
                set_("status.restart", {"observedID": "r1", "phase": "Superseded"})(o),
            ),
        ),
        (
            "scaled-to-zero",
            lambda o: [c.__setitem__("replicas", 0) for c in o["spec"]["components"]],
        ),
        ("one-scaled-to-zero", lambda o: o["spec"]["components"][0].__setitem__("replicas", 0)),
    ]


CASES = [
    pytest.param(path, name, edit, id=f"{path.stem}-{name}")
    for path in STATUS_FIXTURES
    for name, edit in _variants()
]


def test_status_fixtures_exist() -> None:
    assert len(STATUS_FIXTURES) >= 5


@pytest.mark.parametrize(("path", "name", "edit"), CASES)
def test_lua_health_agrees_with_the_core(
    path: Path, name: str, edit: Callable[[dict[str, Any]], None]
) -> None:
    obj = saved(path)
    edit(obj)
    assert lua_health(copy.deepcopy(obj)) == health(obj)


def test_lua_health_for_a_missing_object() -> None:
    assert lua_health({}) == health({}) == ("Missing", "DynamoGraphDeployment not found")


def test_every_argocd_health_status_is_reachable_from_the_fixtures() -> None:
    seen = {lua_health(_edited(p, e))[0] for p, _, e in (c.values for c in CASES)}
    assert seen >= {"Healthy", "Progressing", "Degraded", "Suspended"}


def _edited(path: Path, edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    obj = saved(path)
    edit(obj)
    return obj


def test_sandbox_refuses_the_string_library_as_argocd_does() -> None:
    with pytest.raises(lupa.LuaError):
        Sandbox().run('return ("x"):upper()', {})
    with pytest.raises(lupa.LuaError):
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
        lupa.LuaError, match="must be Parallel when the graph contains LPX components"
    ):
        Sandbox().run(RESTART, obj)
    assert Sandbox().run(RESTART_PARALLEL, obj)["spec"]["restart"]["strategy"] == {
        "type": "Parallel"
    }


def test_restart_is_refused_during_a_rolling_update() -> None:
    with pytest.raises(lupa.LuaError, match="rolling update is in progress"):
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
