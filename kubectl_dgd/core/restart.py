"""The restart plan: which ``spec.restart`` to write, or why admission would refuse it (docs/operator-semantics.md#restart).

Pure: the graph comes in as a plain mapping and the time as an argument. Shared by
``restart -f`` (edit a file), the live ``restart NAME`` and the Argo CD plugin.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from kubectl_dgd.core.graph import components_by_name, items, mapping

Strategy = Literal["Sequential", "Parallel"]

ORDER_PATH = "spec.restart.strategy.order"
LPX_PARALLEL_MESSAGE = (
    "spec.restart.strategy.type must be Parallel when the graph contains LPX components"
)
CREATE_MESSAGE = (
    "spec.restart must be unset on create; set spec.restart.id after creation to request a restart"
)


@dataclass(frozen=True)
class RestartRequest:
    """What the user asked for. Neither ``parallel`` nor ``order``: keep the current strategy."""

    parallel: bool = False
    order: tuple[str, ...] | None = None
    restart_id: str | None = None

    @classmethod
    def from_flags(
        cls, parallel: bool, order: str | None, restart_id: str | None
    ) -> RestartRequest:
        """From the command line: ``--order a,b,c`` is a comma-separated list of names."""
        names = tuple(n.strip() for n in order.split(",")) if order is not None else None
        return cls(parallel=parallel, order=names, restart_id=restart_id)


@dataclass(frozen=True)
class RestartPlan:
    """The spec.restart a restart writes, and what it replaces."""

    old_id: str | None
    new_id: str
    strategy: Strategy
    order: tuple[str, ...] = ()
    restart: dict[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()

    def describe(self) -> str:
        """``Sequential (default order: a, b)``, ``Sequential (order: b, a)`` or ``Parallel``."""
        if self.strategy == "Parallel":
            return "Parallel (all components at once)"
        if self.order:
            return f"Sequential (order: {', '.join(self.order)})"
        return f"Sequential (default order: {', '.join(default_order(list(self.names)))})"


class RestartRefused(Exception):
    """Admission would reject this restart; ``reasons`` are the operator's messages."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = reasons
        super().__init__("; ".join(reasons))


def component_names(graph: dict[str, Any]) -> list[str]:
    return list(components_by_name(graph))


def has_lpx(graph: dict[str, Any]) -> bool:
    return any(c.get("type") == "lpx" for c in items(mapping(graph.get("spec")).get("components")))


def current_restart(graph: dict[str, Any]) -> dict[str, Any]:
    return mapping(mapping(graph.get("spec")).get("restart"))


def default_order(names: list[str]) -> list[str]:
    """The controller's default sequential order: byte order of the names (upper case first)."""
    return sorted(names, key=lambda n: n.encode())


def order_errors(order: list[str], names: list[str], strategy: str) -> list[str]:
    """The validating webhook's verdict on ``spec.restart.strategy.order``, in its words."""
    if not order:
        return []
    if strategy == "Parallel":
        return [f"{ORDER_PATH}: Forbidden: cannot be specified when strategy is parallel"]
    errors: list[str] = []
    shown = json.dumps(order, separators=(",", ":"))
    unique = set(order)
    if len(unique) != len(order):
        errors.append(f"{ORDER_PATH}: Invalid value: {shown}: must be unique")
    if len(unique) != len(names):
        errors.append(
            f"{ORDER_PATH}: Invalid value: {shown}: "
            "must have the same number of unique components as the deployment"
        )
    known = set(names)
    supported = ", ".join(json.dumps(n) for n in sorted(known))
    for i, name in enumerate(order):
        if name not in known:
            errors.append(
                f"{ORDER_PATH}[{i}]: Unsupported value: {json.dumps(name)}: supported values: {supported}"
            )
    return errors


def format_id(moment: datetime) -> str:
    """RFC 3339 in UTC with second precision, e.g. ``2026-11-30T01:02:03Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_restart_id(now: datetime, current: str | None) -> str:
    """``now`` as an id, moved on by whole seconds until it differs from ``current``."""
    moment = now
    while format_id(moment) == current:
        moment += timedelta(seconds=1)
    return format_id(moment)


def plan_restart(graph: dict[str, Any], request: RestartRequest, now: datetime) -> RestartPlan:
    """The new ``spec.restart`` for ``graph``, or RestartRefused with admission's reasons."""
    names = component_names(graph)
    existing = current_restart(graph)
    old_id = existing.get("id")
    old_id = str(old_id) if old_id is not None else None
    old_strategy = mapping(existing.get("strategy"))

    if request.parallel or request.order is not None:
        strategy: str = "Parallel" if request.parallel else "Sequential"
        order = list(request.order or [])
    else:  # no strategy flags: keep what the file says (CRD default Sequential)
        strategy = str(old_strategy.get("type") or "Sequential")
        raw_order = old_strategy.get("order")
        order = [str(n) for n in raw_order] if isinstance(raw_order, list) else []

    reasons = order_errors(order, names, strategy)
    if has_lpx(graph) and strategy != "Parallel":
        reasons.append(LPX_PARALLEL_MESSAGE + " (use --parallel)")
    if request.restart_id is not None:
        if not request.restart_id:
            reasons.append('spec.restart.id: Invalid value: "": should be at least 1 chars long')
        elif request.restart_id == old_id:
            reasons.append(
                f'spec.restart.id: "{old_id}" is already the current id; a restart needs a new id'
            )
    if reasons:
        raise RestartRefused(reasons)

    new_id = request.restart_id or new_restart_id(now, old_id)
    restart = copy.deepcopy(existing)
    restart["id"] = new_id
    new_strategy = copy.deepcopy(old_strategy)
    new_strategy["type"] = strategy
    if order:
        new_strategy["order"] = order
    else:
        new_strategy.pop("order", None)
    restart["strategy"] = new_strategy
    return RestartPlan(
        old_id=old_id,
        new_id=new_id,
        strategy=strategy,  # type: ignore[arg-type]
        order=tuple(order),
        restart=restart,
        names=tuple(names),
    )
