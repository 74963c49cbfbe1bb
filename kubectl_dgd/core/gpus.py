"""GPU counting as the operator does it for ``gpusPerEngine`` / ``gpusPerReplica``.

See docs/operator-semantics.md#component-status.

Rules reproduced:

- A scalar resource is a GPU when its name (case-insensitive) is ``gpu``, ends with ``/gpu``,
  contains ``/mig-`` or starts with ``gpu.`` (``nvidia.com/gpu`` is the common one).
- Per container, limits take precedence over requests. More than one scalar GPU key in one
  container is ambiguous and counts nothing; quantities must be whole numbers.
- A pod's footprint follows the scheduler: the larger of the init phase peak (each ordinary init
  container plus the native sidecars started before it) and the app phase (app containers plus
  every native sidecar, i.e. init containers with ``restartPolicy: Always``).
- ``gpusPerEngine`` = GPUs of the container named ``main`` (per pod) x node count.
- ``gpusPerReplica`` = the footprints of every pod of one replica: one pod single-node; leader
  plus ``nodeCount - 1`` workers multinode (roles: each role's pods x its replicas).
- DRA: a container's ``resources.claims`` point at the pod's ``resourceClaims``. Whether such a
  claim holds GPUs depends on a ResourceClaimTemplate/ResourceClaim and its DeviceClass, objects a
  DGD does not carry; the caller may pass what it resolved (``claim_gpus``), otherwise the figure
  is unknown and says why. Templates are charged per pod, a shared ResourceClaim once per replica.
- Inter-pod GPU memory service adds GMS pods whose devices come from DRA: unknown offline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from kubectl_dgd.core.graph import as_list, items, mapping, node_count

AMBIGUOUS = (
    "multiple scalar GPU resource keys {keys} are ambiguous; specify exactly one per container"
)

# Kubernetes quantity suffixes; GPUs are counts, so only these make sense for them.
_MAX_COUNT_EXPONENT = 18  # int64 holds up to about 9.2e18
_SUFFIXES: dict[str, Decimal] = {
    "m": Decimal("0.001"),
    "": Decimal(1),
    "k": Decimal(1000),
    "M": Decimal(1000) ** 2,
    "G": Decimal(1000) ** 3,
    "Ki": Decimal(1024),
    "Mi": Decimal(1024) ** 2,
    "Gi": Decimal(1024) ** 3,
}


def is_gpu_resource(name: str) -> bool:
    lowered = name.lower()
    return (
        lowered == "gpu"
        or lowered.endswith("/gpu")
        or "/mig-" in lowered
        or lowered.startswith("gpu.")
    )


@dataclass(frozen=True)
class ClaimRef:
    """Where a pod-level resource claim comes from: a template (per pod) or a shared claim."""

    kind: str  # "ResourceClaimTemplate" or "ResourceClaim"
    name: str


@dataclass
class Count:
    """A GPU count that may be partly unknown (``value`` None) or wrong (``error``)."""

    value: int | None = 0
    unknown: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def known(self) -> bool:
        return self.value is not None

    def add(self, other: Count, times: int = 1) -> Count:
        value = (
            None if self.value is None or other.value is None else self.value + other.value * times
        )
        return Count(value, _merge(self.unknown, other.unknown), self.error or other.error)


@dataclass(frozen=True)
class GpuFigures:
    """GPUs per engine and per replica of one component (None: not known)."""

    per_engine: int | None
    per_replica: int | None
    unknown: list[str]
    error: str | None

    @property
    def note(self) -> str | None:
        """Why a figure is missing, in one line."""
        if self.error:
            return self.error
        return "; ".join(self.unknown) or None


def _merge(a: list[str], b: list[str]) -> list[str]:
    return a + [x for x in b if x not in a]


def parse_count(value: Any) -> int | None:
    """A whole-number quantity (``"2"``, ``2``, ``"2000m"``); None when not whole or not a quantity."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    text = str(value).strip()
    number, suffix = text, ""
    for candidate in ("Ki", "Mi", "Gi", "m", "k", "M", "G"):
        if text.endswith(candidate):
            number, suffix = text[: -len(candidate)], candidate
            break
    try:
        given = Decimal(number)
    except InvalidOperation:
        return None
    # Past int64 it is no count: "9e999999" would build a million-digit integer, and
    # "1e1000000" overflows the decimal context's exponent when multiplied.
    if not given.is_finite() or given.adjusted() > _MAX_COUNT_EXPONENT:
        return None
    if given and given.adjusted() < -_MAX_COUNT_EXPONENT:
        return None  # far below one even with the largest suffix: no whole number
    amount = given * _SUFFIXES[suffix]
    if amount.adjusted() > _MAX_COUNT_EXPONENT:
        return None
    if amount < 0 or amount != amount.to_integral_value():
        return None
    return int(amount)


def scalar_gpus(container: Mapping[str, Any]) -> Count:
    """GPUs a container asks for through scalar resources (limits win over requests)."""
    resources = mapping(container.get("resources"))
    for section in ("limits", "requests"):
        entries = mapping(resources.get(section))
        keys = sorted(k for k in entries if isinstance(k, str) and is_gpu_resource(k))
        if len(keys) > 1:
            return Count(None, error=AMBIGUOUS.format(keys=", ".join(keys)))
        if keys:
            count = parse_count(entries[keys[0]])
            if count is None:
                return Count(
                    None,
                    error=f"{section}[{keys[0]}] = {entries[keys[0]]!r} is not a whole number of GPUs",
                )
            return Count(count)
    return Count(0)


def container_gpus(
    container: Mapping[str, Any],
    pod_claims: Mapping[str, ClaimRef | None],
    claim_gpus: Mapping[ClaimRef, int],
    charged_shared: set[ClaimRef],
) -> Count:
    """Scalar GPUs plus what the container's DRA claims resolve to (unknown if unresolvable)."""
    total = scalar_gpus(container)
    resources = mapping(container.get("resources"))
    for claim in as_list(resources.get("claims")):
        claim_name = str(mapping(claim).get("name", ""))
        ref = pod_claims.get(claim_name)
        if ref is None:
            reason = f"DRA claim {claim_name!r} has no pod-level resourceClaims entry"
            total = total.add(Count(None, [reason]))
        elif ref in claim_gpus:
            if ref.kind == "ResourceClaim":
                if ref in charged_shared:
                    continue  # one shared claim is charged once per replica
                charged_shared.add(ref)
            total = total.add(Count(claim_gpus[ref]))
        else:
            reason = f"DRA claim {claim_name!r} ({ref.kind} {ref.name}) cannot be resolved offline"
            total = total.add(Count(None, [reason]))
    return total


def pod_claim_refs(pod_spec: Mapping[str, Any]) -> dict[str, ClaimRef | None]:
    refs: dict[str, ClaimRef | None] = {}
    for entry in items(pod_spec.get("resourceClaims")):
        name = str(entry.get("name", ""))
        if entry.get("resourceClaimTemplateName"):
            refs[name] = ClaimRef("ResourceClaimTemplate", str(entry["resourceClaimTemplateName"]))
        elif entry.get("resourceClaimName"):
            refs[name] = ClaimRef("ResourceClaim", str(entry["resourceClaimName"]))
        else:
            refs[name] = None
    return refs


def pod_footprint(
    pod_spec: Mapping[str, Any],
    claim_gpus: Mapping[ClaimRef, int] | None = None,
    charged_shared: set[ClaimRef] | None = None,
) -> Count:
    """GPUs the scheduler reserves for one pod: max(init phase peak, app phase)."""
    claims = pod_claim_refs(pod_spec)
    resolved = claim_gpus or {}
    shared = charged_shared if charged_shared is not None else set()
    sidecars = Count(0)
    init_peak = Count(0)
    for init in items(pod_spec.get("initContainers")):
        gpus = container_gpus(init, claims, resolved, shared)
        if init.get("restartPolicy") == "Always":
            sidecars = sidecars.add(gpus)
            init_peak = _max(init_peak, sidecars)
        else:
            init_peak = _max(init_peak, sidecars.add(gpus))
    app = sidecars
    for container in items(pod_spec.get("containers")):
        app = app.add(container_gpus(container, claims, resolved, shared))
    return _max(init_peak, app)


def main_container_gpus(
    pod_spec: Mapping[str, Any], claim_gpus: Mapping[ClaimRef, int] | None = None
) -> Count:
    """GPUs of the container named ``main`` (0 when there is none)."""
    for container in items(pod_spec.get("containers")):
        if container.get("name") == "main":
            return container_gpus(container, pod_claim_refs(pod_spec), claim_gpus or {}, set())
    return Count(0)


@dataclass(frozen=True)
class _PodGroup:
    """Pods of one spec, counted together."""

    pod_spec: Mapping[str, Any]
    pods: int


def _pod_groups(component: Mapping[str, Any]) -> tuple[list[_PodGroup], int]:
    """The pods of one replica (grouped by template) and the node count of one engine."""
    base = _pod_spec(component.get("podTemplate"))
    nodes = max(node_count(dict(component)), 1)
    roles = items(component.get("roles"))
    if roles:
        groups = []
        for role in roles:
            default = 1 if role.get("name") != "worker" else max(nodes - 1, 0)
            replicas = role.get("replicas", default)
            replicas = replicas if isinstance(replicas, int) and replicas >= 0 else default
            spec = _pod_spec(role.get("podTemplate")) if role.get("podTemplate") else base
            groups.append(_PodGroup(spec, replicas))
        return groups, nodes
    if nodes > 1:
        return [_PodGroup(base, 1), _PodGroup(base, nodes - 1)], nodes
    return [_PodGroup(base, 1)], nodes


def component_gpus(
    component: Mapping[str, Any], claim_gpus: Mapping[ClaimRef, int] | None = None
) -> GpuFigures:
    """``gpusPerEngine`` and ``gpusPerReplica`` of one ``spec.components[]`` entry."""
    groups, nodes = _pod_groups(component)
    main = main_container_gpus(groups[0].pod_spec if groups else {}, claim_gpus)
    per_engine = None if main.value is None else main.value * nodes
    shared: set[ClaimRef] = set()
    replica = Count(0)
    for group in groups:
        pod = pod_footprint(group.pod_spec, claim_gpus, shared)
        replica = replica.add(pod, group.pods)
    gms = mapping(mapping(component.get("experimental")).get("gpuMemoryService"))
    if gms.get("mode") == "InterPod":
        replica = replica.add(Count(None, ["inter-pod GPU memory service pods use DRA devices"]))
    unknown = _merge(main.unknown, replica.unknown)
    return GpuFigures(per_engine, replica.value, unknown, main.error or replica.error)


def _max(a: Count, b: Count) -> Count:
    if a.value is None or b.value is None:
        return Count(None, _merge(a.unknown, b.unknown), a.error or b.error)
    return Count(max(a.value, b.value), [], a.error or b.error)


def _pod_spec(template: Any) -> Mapping[str, Any]:
    return mapping(mapping(template).get("spec"))
