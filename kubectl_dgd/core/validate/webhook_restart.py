"""``spec.restart.strategy.order`` rules, evaluated whenever ``spec.restart`` is present."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, unsupported
from kubectl_dgd.core.validate.graphview import as_list, component_names, dig

ORDER = "spec.restart.strategy.order"


def check(obj: dict[str, Any]) -> list[Finding]:
    strategy = dig(obj, "spec", "restart", "strategy")
    if not isinstance(strategy, dict):
        return []
    order = as_list(strategy.get("order"))
    if not order:
        return []  # the controller's default order (alphabetical) applies
    if strategy.get("type") == "Parallel":
        return [
            forbidden(
                ORDER, "cannot be specified when strategy is parallel", "restart-order-parallel"
            )
        ]
    names = sorted(set(component_names(obj)))
    unique = list(dict.fromkeys(order))
    found: list[Finding] = []
    if len(unique) != len(order):
        found.append(invalid(ORDER, order, "must be unique", "restart-order-unique"))
    if len(unique) != len(names):
        found.append(
            invalid(
                ORDER,
                order,
                "must have the same number of unique components as the deployment",
                "restart-order-incomplete",
            )
        )
    for k, name in enumerate(order):
        if name not in names:  # every position, repeats included, as the operator reports
            found.append(unsupported(f"{ORDER}[{k}]", name, names, "restart-order-unknown"))
    return found
