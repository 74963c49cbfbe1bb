"""The graph's lists whose items have identity by name: ``spec.components[]`` (a map-list keyed
by ``name`` in the CRD, and the operator allows reordering it) and a component's multinode
``roles[]``. ``diff`` compares them by name, so a reorder is no change, and reports a path by
the item's position in the file (or in the live object, for an item only it has).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.paths import child, index

Key = str | int


def _by_name(items: Any) -> dict[str, tuple[int, Any]] | None:
    """``{name: (position, item)}``, or None when the list cannot be keyed (not a list, an item
    without a string name, a repeated name): then it is compared by position."""
    if not isinstance(items, list):
        return None
    out: dict[str, tuple[int, Any]] = {}
    for i, item in enumerate(items):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or name in out:
            return None
        out[name] = (i, item)
    return out


@dataclass
class Positions:
    """Where each named item sits: in the file first, else in the live object."""

    components: dict[str, int] | None = None
    roles: dict[str, dict[str, int]] = field(default_factory=dict)


def _merged_positions(
    new: dict[str, tuple[int, Any]], live: dict[str, tuple[int, Any]]
) -> dict[str, int]:
    return {**{n: i for n, (i, _) in live.items()}, **{n: i for n, (i, _) in new.items()}}


def key_by_name(
    live: dict[str, Any], new: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], Positions]:
    """Copies of both graphs with the named lists turned into name-keyed mappings (when both
    sides can be keyed), and the positions to print paths with. The inputs are not changed."""
    positions = Positions()
    live_spec, new_spec = live.get("spec"), new.get("spec")
    if not (isinstance(live_spec, dict) and isinstance(new_spec, dict)):
        return live, new, positions
    live_items, new_items = (
        _by_name(live_spec.get("components")),
        _by_name(new_spec.get("components")),
    )
    if live_items is None or new_items is None:
        return live, new, positions
    positions.components = _merged_positions(new_items, live_items)
    live_keyed: dict[str, Any] = {n: c for n, (_, c) in live_items.items()}
    new_keyed: dict[str, Any] = {n: c for n, (_, c) in new_items.items()}
    for name in live_keyed.keys() & new_keyed.keys():
        old_c, new_c = live_keyed[name], new_keyed[name]
        old_roles, new_roles = _by_name(old_c.get("roles")), _by_name(new_c.get("roles"))
        if old_roles is not None and new_roles is not None:
            positions.roles[name] = _merged_positions(new_roles, old_roles)
            live_keyed[name] = {**old_c, "roles": {n: r for n, (_, r) in old_roles.items()}}
            new_keyed[name] = {**new_c, "roles": {n: r for n, (_, r) in new_roles.items()}}
    return (
        {**live, "spec": {**live_spec, "components": live_keyed}},
        {**new, "spec": {**new_spec, "components": new_keyed}},
        positions,
    )


def file_path(keys: list[Key], positions: Positions) -> str:
    """The operator-notation path of ``keys`` (from the keyed copies), named items by position:
    ``["spec", "components", "decode", "replicas"]`` -> ``spec.components[1].replicas``."""
    path = ""
    for depth, key in enumerate(keys):
        where = _named_list_at(keys[:depth], positions)
        if where is not None and isinstance(key, str) and key in where:
            path = index(path, where[key])
        elif isinstance(key, int):
            path = index(path, key)
        else:
            path = child(path, str(key))
    return path


def _named_list_at(prefix: list[Key], positions: Positions) -> dict[str, int] | None:
    if positions.components is None or prefix[:2] != ["spec", "components"]:
        return None
    if len(prefix) == 2:
        return positions.components
    if len(prefix) == 4 and prefix[3] == "roles":
        return positions.roles.get(str(prefix[2]))
    return None
