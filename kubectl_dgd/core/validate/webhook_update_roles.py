"""1.6 update rules of component ``roles[]`` (``validateComponentRolesUpdate``, search index 70561057532).

Run for a component whose single-/multi-node shape did not change and that is LPX neither before
nor after. Moving between implicit roles (no ``roles``) and explicit ones is allowed only when the
explicit list is exactly the implicit leader/worker pair (same replicas, no role overrides; role
pod templates may be introduced in the same update). Otherwise the set of role names is fixed.
Role-level provider-override identity is checked with the other override sites (webhook_update).
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden, invalid
from kubectl_dgd.core.validate.graphview import as_list, node_count

SWITCH = (
    "cannot switch between implicit and explicit roles while changing the resolved role model; "
    "make the equivalent role structure explicit first"
)
# ComponentRoleSpec's JSON field order (api/v1beta1), for the printed value.
ROLE_FIELDS = ("name", "replicas", "providerOverride", "podTemplate")


def check(new: dict[str, Any], old: dict[str, Any], base: str) -> list[Finding]:
    if (node_count(new) > 1) != (node_count(old) > 1):
        return []  # the node-topology rule speaks for this component
    if new.get("type") == "lpx" or old.get("type") == "lpx":
        return []
    path = f"{base}.roles"
    if (new.get("roles") is None) != (old.get("roles") is None):
        explicit, implicit = (new, old) if new.get("roles") is not None else (old, new)
        if (
            explicit.get("multinode") is not None
            and implicit.get("multinode") is not None
            and _matches_implicit(explicit)
        ):
            return []
        return [forbidden(path, SWITCH, "roles-mode-switch")]
    new_names = {str(r.get("name")) for r in _roles(new)}
    old_names = {str(r.get("name")) for r in _roles(old)}
    if new_names != old_names:
        value = [_ordered(r) for r in as_list(new.get("roles"))]
        return [
            invalid(path, value, "role names are immutable after creation", "role-names-immutable")
        ]
    return []


def _matches_implicit(component: dict[str, Any]) -> bool:
    """``ExplicitMultinodeRolesMatchImplicit`` with role pod templates ignored."""
    roles = as_list(component.get("roles"))
    if len(roles) != 2:
        return False
    seen: set[str] = set()
    for role in roles:
        if not isinstance(role, dict):
            return False
        name = role.get("name")
        if name in seen or role.get("providerOverride") is not None:
            return False
        seen.add(str(name))
        if name == "leader":
            expected = 1
        elif name == "worker":
            expected = node_count(component) - 1
        else:
            return False
        if role.get("replicas") is not None and role.get("replicas") != expected:
            return False
    return True


def _roles(component: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in as_list(component.get("roles")) if isinstance(r, dict)]


def _ordered(role: Any) -> Any:
    if not isinstance(role, dict):
        return role
    first = {k: role[k] for k in ROLE_FIELDS if k in role and role[k] is not None}
    return first | {k: v for k, v in role.items() if k not in ROLE_FIELDS}
