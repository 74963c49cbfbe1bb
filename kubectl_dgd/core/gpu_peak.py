"""What a change needs in GPUs at its peak, and whether the cluster's free GPUs can hold it.

Pure. The operator's rules (docs/operator-semantics.md#rolling-update, #restart):

- a managed rolling update (single-node workers, component path) brings the new generation up
  before the old goes. Per worker the operator resolves ``maxSurge`` / ``maxUnavailable`` (pod
  template annotations ``nvidia.com/deployment-rolling-update-max-surge`` / ``-max-unavailable``,
  default 25% each; a percentage of the desired replicas, rounded up for surge and down for
  unavailable; both 0 means surge 1) and on every step sets the new generation to at most
  ``desired + maxSurge - old - new`` more replicas, the old one down to ``desired -
  maxUnavailable`` available. With ``Recreate`` the old generation drains first. So one
  replica with the defaults peaks at old + new;
- a Deployment rolled in place (a non-worker's template change, or a restart, which writes the
  ``nvidia.com/restartAt`` pod-template annotation) follows the same surge rule;
- LeaderWorkerSets and Grove cliques roll natively with ``maxSurge 0, maxUnavailable 1``: they
  need more only when a new replica is larger than the old one;
- a scale-up needs the added replicas; a new graph needs all of them;
- a Sequential restart restarts one component at a time (its peak alone counts), Parallel all
  at once; a restart arriving with a managed rolling update is Superseded (no extra pods).

A replica's GPUs are ``gpusPerReplica`` as the operator counts them (core/gpus.py); the peak
is checked by placing the extra pods, largest first, on the nodes' free GPUs (each pod on one
node), so "8 free on four nodes" does not hold a pod of 4. A component asking for a MIG profile
(``nvidia.com/mig-1g.10gb``) is placed on that profile's free slices only.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.gpus import component_gpus, pod_footprint
from kubectl_dgd.core.graph import (
    MAX_SURGE_ANNOTATION,
    MAX_UNAVAILABLE_ANNOTATION,
    components_by_name,
    desired_replicas,
    mapping,
    pod_annotations,
    recreates,
)
from kubectl_dgd.core.impact import ComponentImpact
from kubectl_dgd.core.node_fit import labels_allow
from kubectl_dgd.core.node_gpus import GPU_RESOURCE, NodeGpus, is_mig, pod_gpu_resource

DEFAULT_SURGE = "25%"
DEFAULT_UNAVAILABLE = "25%"
_ROLLING = {
    "managed-rolling-update": "the managed rolling update",
    "in-place-rolling-update": "the rolling update",
    "lws-native-update": "the LeaderWorkerSet update",
    "grove-native-update": "the Grove update",
}


@dataclass(frozen=True)
class PeakNeed:
    """The GPUs one component's change needs beyond what its pods hold now, at the peak."""

    component: str
    what: str  # "the managed rolling update", "the restart", "the scale-up", ...
    extra_gpus: int
    pod_gpus: int  # what one new pod needs on one node
    alone: bool = False  # a Sequential restart: this component's peak comes on its own
    resource: str = GPU_RESOURCE  # or the MIG profile the component's pods ask for
    # the component's pod template spec: its nodeSelector and affinity say which nodes count
    pod_spec: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def pods(self) -> int:
        """New pods that must be placed at the peak."""
        return math.ceil(self.extra_gpus / self.pod_gpus) if self.pod_gpus else 0


def scaled(value: Any, desired: int, round_up: bool, default: str) -> int:
    """An int-or-percent annotation resolved against ``desired`` as Kubernetes' intstr does."""
    text = str(value if value is not None else default).strip()
    if not text.endswith("%"):
        return int(text) if text.isdigit() else scaled(default, desired, round_up, default)
    number = text[:-1]
    if not number.isdigit():
        return scaled(default, desired, round_up, default)
    share = int(number) * desired
    return -(-share // 100) if round_up else share // 100


def surge_and_unavailable(component: Mapping[str, Any], desired: int) -> tuple[int, int]:
    annotations = pod_annotations(dict(component))
    surge = scaled(annotations.get(MAX_SURGE_ANNOTATION), desired, True, DEFAULT_SURGE)
    unavailable = scaled(
        annotations.get(MAX_UNAVAILABLE_ANNOTATION), desired, False, DEFAULT_UNAVAILABLE
    )
    if surge == 0 and unavailable == 0:
        surge = 1  # the operator's guarantee of progress
    return surge, unavailable


def rolling_peak(
    old: int, desired: int, old_unit: int, new_unit: int, surge: int, unavailable: int
) -> int:
    """The most GPUs an old and a new generation hold together while the operator's steps move
    ``old`` replicas of ``old_unit`` GPUs to ``desired`` of ``new_unit`` (each step's new pods
    assumed to become available, so this is the peak of a rollout that does not stall)."""
    min_available = desired - unavailable
    current_old, current_new = old, 0
    peak = old * old_unit
    for _ in range(2 * (old + desired) + 2):  # every step moves at least one replica
        if current_old == 0 and current_new == desired:
            break
        surplus = max(current_old + current_new - min_available, 0)
        next_old = max(current_old - surplus, 0)
        budget = max(desired + surge - current_old - current_new, 0)
        next_new = min(desired, current_new + budget)
        # an old pod scaled down in this step only delays a new one (it frees its GPUs as it
        # terminates); what must fit side by side is the step's target
        peak = max(peak, next_old * old_unit + next_new * new_unit)
        current_old, current_new = next_old, next_new
    return peak


def _pod_spec(component: Mapping[str, Any]) -> Mapping[str, Any]:
    return mapping(mapping(component.get("podTemplate")).get("spec"))


def gpu_resource(component: Mapping[str, Any]) -> str:
    """The GPU resource the component's pods ask for (a MIG profile, else nvidia.com/gpu)."""
    return pod_gpu_resource({"spec": mapping(mapping(component.get("podTemplate")).get("spec"))})


def _units(component: Mapping[str, Any]) -> tuple[int, int]:
    """(GPUs per replica, GPUs per pod) of a component; 0 when not knowable offline."""
    per_replica = component_gpus(component).per_replica or 0
    spec = mapping(mapping(component.get("podTemplate")).get("spec"))
    per_pod = pod_footprint(spec).value or 0
    return per_replica, per_pod or per_replica


def _rolled(
    live: Mapping[str, Any], new: Mapping[str, Any], native: bool = False
) -> tuple[int, int]:
    """(extra GPUs at the peak, GPUs per new pod) of rolling ``live`` over to ``new``."""
    old_unit, _ = _units(live)
    new_unit, pod = _units(new)
    old, desired = desired_replicas(dict(live)), desired_replicas(dict(new))
    held = old * old_unit
    if recreates(dict(new)) and not native:
        return max(desired * new_unit - held, 0), pod
    surge, unavailable = (0, 1) if native else surge_and_unavailable(new, desired)
    return max(rolling_peak(old, desired, old_unit, new_unit, surge, unavailable) - held, 0), pod


def peak_needs(
    live: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    impacts: Iterable[ComponentImpact],
    restart_parallel: bool = False,
    grove: bool = False,
) -> list[PeakNeed]:
    """One entry per component whose predicted change needs more GPUs than it holds now
    (``grove``: the graph runs on the Grove path, where restarts roll cliques natively)."""
    impacts = list(impacts)
    live_components = components_by_name(dict(live)) if live is not None else {}
    new_components = components_by_name(dict(new))
    superseded = any(i.impact == "managed-rolling-update" for i in impacts)
    needs: list[PeakNeed] = []
    for name, component in new_components.items():
        kinds = [i.impact for i in impacts if i.name == name]
        before = live_components.get(name)
        extra, pod, what, alone = 0, 0, "", False
        rolling = [k for k in kinds if k in _ROLLING]
        if not kinds or "rejected" in kinds:
            continue  # admission refuses the update: nothing changes
        if before is None:
            unit, pod = _units(component)
            extra = desired_replicas(dict(component)) * unit
            what = "the new graph" if "created" in kinds else "the new component"
        elif rolling:
            native = rolling[0] in ("lws-native-update", "grove-native-update")
            extra, pod = _rolled(before, component, native)
            what = _ROLLING[rolling[0]]
        elif "scale" in kinds:
            unit, pod = _units(component)
            added = desired_replicas(dict(component)) - desired_replicas(dict(before))
            extra, what = max(added, 0) * unit, "the scale-up"
        if "restart" in kinds and not superseded and not rolling:
            restart_extra, restart_pod = _rolled(component, component, grove)
            if restart_extra > extra:
                extra, pod, what, alone = restart_extra, restart_pod, "the restart", True
        if extra > 0:
            needs.append(
                PeakNeed(
                    name,
                    what,
                    extra,
                    pod,
                    alone and not restart_parallel,
                    gpu_resource(component),
                    _pod_spec(component),
                )
            )
    return needs


def restart_needs(graph: Mapping[str, Any], parallel: bool, grove: bool = False) -> list[PeakNeed]:
    """What restarting every component of a live graph needs at its peak."""
    needs = []
    for name, component in components_by_name(dict(graph)).items():
        extra, pod = _rolled(component, component, native=grove)
        if extra > 0:
            needs.append(
                PeakNeed(
                    name,
                    "the restart",
                    extra,
                    pod,
                    not parallel,
                    gpu_resource(component),
                    _pod_spec(component),
                )
            )
    return needs


@dataclass(frozen=True)
class PeakShortfall:
    """A change whose peak GPU need does not fit the cluster's free GPUs."""

    need: PeakNeed
    free: int  # free GPUs on schedulable nodes
    most_on_one_node: int
    stalls: bool  # the need does not fit even alone; else only beside the others' new pods
    narrowed: bool = False  # its nodeSelector or affinity leaves some GPU nodes out

    def message(self) -> str:
        need = self.need
        unit = "slice" if is_mig(need.resource) else "GPU"
        pods = f"{need.pods} new pod{'s' if need.pods != 1 else ''} of {need.pod_gpus} {unit}"
        pods += "s" if need.pod_gpus != 1 else ""
        head = (
            f"warning: {need.component}: {need.what} needs {need.extra_gpus} more "
            f"{need.resource} at its peak ({pods}); "
            + (
                "the nodes its nodeSelector and affinity allow have"
                if self.narrowed
                else "the cluster has"
            )
            + f" {self.free} free (at most {self.most_on_one_node} on one node)"
        )
        if self.stalls:
            return head + f": new pods will stay Pending and {need.what} will stall"
        return head + ", not enough beside the other components' new pods: they wait in turn"


def _place(free: dict[str, int], need: PeakNeed, allowed: Collection[str]) -> bool:
    """Put ``need``'s pods on the ``allowed`` nodes of ``free`` (most free first); False when
    one does not fit."""
    ok = True
    for _ in range(need.pods):
        node = max(sorted(n for n in free if n in allowed), key=lambda n: free[n], default=None)
        if node is None or free[node] < need.pod_gpus:
            ok = False
            continue
        free[node] -= need.pod_gpus
    return ok


def shortfalls(needs: Iterable[PeakNeed], nodes: Iterable[NodeGpus]) -> list[PeakShortfall]:
    """The needs the free GPUs cannot hold. A need that does not fit on its own stalls (no
    other change frees GPUs it can use, as far as can be known); needs that fit alone but not
    together (placed largest pods first) only wait for one another, as each finished
    component's old pods drain. A Sequential restart's needs come one at a time."""
    nodes = list(nodes)
    free: dict[str, dict[str, int]] = {}
    for node in nodes:
        if node.schedulable:
            free.setdefault(node.resource, {})[node.name] = node.free
    needs = list(needs)
    # per need: the free GPUs of the schedulable nodes its pods may use (by its nodeSelector
    # and affinity), and whether those rules leave a node of its resource out
    usable: dict[str, dict[str, int]] = {}
    narrowed: dict[str, bool] = {}
    for need in needs:
        fits = {
            n.name
            for n in nodes
            if n.resource == need.resource and labels_allow(need.pod_spec, n.labels)
        }
        offered = free.get(need.resource, {})
        usable[need.component] = {n: f for n, f in offered.items() if n in fits}
        narrowed[need.component] = any(
            n.resource == need.resource and n.name not in fits for n in nodes
        )

    def shortfall(need: PeakNeed, stalls: bool) -> PeakShortfall:
        offered = usable[need.component]
        most = max(offered.values(), default=0)
        return PeakShortfall(need, sum(offered.values()), most, stalls, narrowed[need.component])

    short = {}
    for need in needs:
        mine = usable[need.component]
        if not _place(dict(mine), need, mine):
            short[need.component] = shortfall(need, True)
    together = sorted(
        (n for n in needs if not n.alone and n.component not in short),
        key=lambda n: (-n.pod_gpus, len(usable[n.component])),  # the most constrained first
    )
    placed = {resource: dict(offered) for resource, offered in free.items()}
    for need in together:
        if not _place(placed.setdefault(need.resource, {}), need, usable[need.component]):
            short[need.component] = shortfall(need, False)
    return [short[n.component] for n in needs if n.component in short]
