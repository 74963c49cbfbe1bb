"""Argo CD's Lua VM for resource customizations, rebuilt on LuaJIT (Lua 5.1, like gopher-lua).

What Argo CD's util/lua/lua.go gives a script, and what this VM gives it:

- ``open_libs=False`` (a customization from argocd-cm, and every action test upstream): only
  the package, base and table libraries. Argo CD registers its safe os library under the table
  library's name, which gopher-lua's RegisterModule ignores once the table library is loaded:
  so there is no ``table.time``/``table.date`` and no global ``os``; ``require("os")`` yields a
  table with only ``time`` and ``date``. No string library, and so no string methods
  (``("x"):upper()`` fails). tests/argocd/test_argocd_vm.py checks all of this against
  gopher-lua itself (tools/argocd-lua).
- ``open_libs=True`` (built-in scripts, and upstream's health and discovery tests): every
  standard library.
- The object is the global ``obj`` (JSON nulls become nil, so their keys are absent); action
  parameters are the global ``actionParams``; the script is run as a chunk and its return value
  is encoded as JSON (a sequence becomes an array, an empty table ``[]``); an error's message is
  the text without a stack trace.

Not emulated: the one-second execution timeout, and gopher-lua's own quirks beyond Lua 5.1.
"""

from __future__ import annotations

from typing import Any

import lupa.luajit21 as lupa

# gopher-lua's base library (OpenBase) and package library (OpenPackage) globals.
_BASE = [
    "assert",
    "collectgarbage",
    "dofile",
    "error",
    "getfenv",
    "getmetatable",
    "load",
    "loadfile",
    "loadstring",
    "next",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawset",
    "select",
    "setfenv",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "unpack",
    "xpcall",
    "module",
    "require",
    "ipairs",
    "pairs",
    "newproxy",
    "_G",
    "_VERSION",
    "package",
    "table",
]

_SETUP = """
local open_libs = ...
local safe_os = {time = os.time, date = os.date}
if not open_libs then
  local keep = {}
  for _, name in ipairs(KEEP) do keep[name] = true end
  debug.setmetatable("", nil)
  for name in pairs(_G) do if not keep[name] then _G[name] = nil end end
  for name in pairs(package.loaded) do
    if name ~= "_G" and name ~= "table" and name ~= "package" then package.loaded[name] = nil end
  end
  package.preload.os = function() return safe_os end
end
KEEP = nil
"""

VALID_HEALTH = {"Unknown", "Progressing", "Suspended", "Healthy", "Degraded", "Missing"}


class LuaScriptError(Exception):
    """The script raised an error; ``str()`` is Argo CD's message (no stack trace)."""


class ArgoLua:
    def __init__(self, open_libs: bool) -> None:
        self.lua = lupa.LuaRuntime(unpack_returned_tuples=False)
        self.lua.globals().KEEP = self.lua.table(*_BASE)
        self.lua.execute(_SETUP, open_libs)

    def _to_lua(self, value: Any) -> Any:
        if isinstance(value, dict):
            table = self.lua.table()
            for key, item in value.items():
                if item is not None:
                    table[key] = self._to_lua(item)
            return table
        if isinstance(value, list):
            table = self.lua.table()
            for i, item in enumerate(value, start=1):
                table[i] = self._to_lua(item)
            return table
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return float(value)  # gopher-lua numbers are float64
        return value

    def run(self, script: str, obj: Any, params: dict[str, str] | None = None) -> Any:
        """The script's return value as JSON data."""
        globals_ = self.lua.globals()
        globals_.obj = self._to_lua(obj)
        globals_.actionParams = self._to_lua(params or {})
        try:
            result = self.lua.execute(script)
        except lupa.LuaError as err:
            raise LuaScriptError(str(err).split("\nstack traceback:")[0]) from None
        return from_lua(result)

    def health(self, script: str, obj: Any) -> dict[str, str]:
        """ExecuteHealthLua: a table with a valid status, else Unknown."""
        result = self.run(script, obj)
        if not isinstance(result, dict):
            raise LuaScriptError(f"expect table output from Lua script, not {type(result)}")
        status = {
            "status": str(result.get("status", "")),
            "message": str(result.get("message", "")),
        }
        if status["status"] not in VALID_HEALTH:
            return {"status": "Unknown", "message": "Lua returned an invalid health status"}
        return status

    def discovery(self, script: str, obj: Any) -> list[dict[str, Any]]:
        """ExecuteResourceActionDiscovery: one ResourceAction per key of the returned table."""
        result = self.run(script, obj)
        if result == []:
            return []
        assert isinstance(result, dict), result
        actions = []
        for name, value in result.items():
            action = resource_action({"name": name})
            if isinstance(value, dict):
                action.update(resource_action({**value, "name": name}))
            actions.append(action)
        return actions


def resource_action(data: dict[str, Any]) -> dict[str, Any]:
    """A ResourceAction with Go's zero values for what is absent."""
    return {
        "name": str(data.get("name", "")),
        "disabled": bool(data.get("disabled", False)),
        "iconClass": str(data.get("iconClass", "")),
        "displayName": str(data.get("displayName", "")),
        "params": data.get("params") or None,
    }


def from_lua(value: Any) -> Any:
    """luajson.Encode then json.Unmarshal: sequences are arrays, an empty table is ``[]``."""
    if lupa.lua_type(value) != "table":
        return int(value) if isinstance(value, float) and value.is_integer() else value
    keys = list(value.keys())
    if not keys:
        return []
    if all(isinstance(k, (int, float)) for k in keys) and sorted(keys) == list(
        range(1, len(keys) + 1)
    ):
        return [from_lua(value[k]) for k in sorted(keys)]
    return {str(k): from_lua(value[k]) for k in keys}
