"""Edits of a saved graph that walk every rule of the health verdict.

Shared by the Lua-versus-core agreement test and by the generator of the upstream-layout test
data (make_lua_testdata.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def variants() -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
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
