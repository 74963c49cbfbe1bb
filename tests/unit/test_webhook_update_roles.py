"""The 1.6 roles[] update rules on their own (validateComponentRolesUpdate, search index 70561057532).

Through the pipeline the stateless role rules usually answer first (a multinode component must
name exactly leader and worker), so the rule is also checked directly here.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.validate import webhook_update_roles

BASE = "spec.components[1]"


def multinode(*roles: dict[str, Any] | None, nodes: int = 3) -> dict[str, Any]:
    component: dict[str, Any] = {"name": "w", "type": "worker", "multinode": {"nodeCount": nodes}}
    if roles != (None,):
        component["roles"] = list(roles)
    return component


def messages(new: dict[str, Any], old: dict[str, Any]) -> list[str]:
    return [f"{f.path}: {f.message}" for f in webhook_update_roles.check(new, old, BASE)]


def test_changed_role_names_are_refused_with_the_new_list() -> None:
    old = multinode({"name": "leader"}, {"name": "worker", "replicas": 2})
    new = multinode({"name": "leader"}, {"name": "helper", "replicas": 2})
    assert messages(new, old) == [
        'spec.components[1].roles: Invalid value: [{"name":"leader"},{"name":"helper","replicas":2}]: '
        "role names are immutable after creation"
    ]


def test_reordered_roles_keep_their_names() -> None:
    old = multinode({"name": "leader"}, {"name": "worker"})
    assert messages(multinode({"name": "worker"}, {"name": "leader"}), old) == []


def test_an_explicit_pair_with_other_replicas_is_not_the_implicit_layout() -> None:
    new = multinode({"name": "leader"}, {"name": "worker", "replicas": 1})
    assert messages(new, multinode(None)) == [
        "spec.components[1].roles: Forbidden: cannot switch between implicit and explicit roles "
        "while changing the resolved role model; make the equivalent role structure explicit first"
    ]


def test_lpx_and_node_topology_changes_are_left_to_their_own_rules() -> None:
    lpx = {"name": "w", "type": "lpx", "roles": [{"name": "agent"}]}
    assert messages(lpx, multinode(None)) == []
    assert messages(multinode({"name": "leader"}, {"name": "worker"}), {"name": "w"}) == []
