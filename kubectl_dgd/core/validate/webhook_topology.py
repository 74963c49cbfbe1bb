"""Typed topology constraints and the KV transfer policy. Binding lookups need the cluster."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, not_checked, required
from kubectl_dgd.core.validate.graphview import (
    Pathway,
    as_dict,
    component_path,
    components,
    dig,
    spec,
)

_DNS1123_SUBDOMAIN = LazyPattern(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
)
DNS1123_SUBDOMAIN_MESSAGE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
NOT_CHECKED_BINDING = (
    'ClusterTopologyBinding "{name}" not checked offline: its existence and domains (and whether '
    "component domains are narrower) need the cluster"
)


def dns1123_subdomain_errors(value: str) -> list[str]:
    errors: list[str] = []
    if len(value) > 253:
        errors.append("must be no more than 253 characters")
    if not _DNS1123_SUBDOMAIN.match(value):
        errors.append(DNS1123_SUBDOMAIN_MESSAGE)
    return errors


def check_topology(obj: dict[str, Any], way: Pathway) -> list[Finding]:
    root = spec(obj).get("topologyConstraint")
    constrained = [(i, c) for i, c in components(obj) if c.get("topologyConstraint") is not None]
    found: list[Finding] = []
    if root is None:
        if constrained:
            found.append(
                required(
                    "spec.topologyConstraint",
                    "is required when any component topology constraint is set",
                    "topology-spec-required",
                )
            )
        return found
    root = as_dict(root)
    if not root.get("packDomain"):
        # 1.4+ asks for packDomain only when no component is constrained; 1.3 instead asked every
        # unconstrained component for its own (T2/T3; the version table keeps one of them).
        if not constrained:
            found.append(
                required(
                    "spec.topologyConstraint.packDomain",
                    "is required when no component topologyConstraint is set",
                    "topology-pack-domain-required",
                )
            )
        for i, component in components(obj):
            if component.get("topologyConstraint") is None:
                found.append(
                    required(
                        f"{component_path(i)}.topologyConstraint",
                        "is required because spec.topologyConstraint.packDomain is not set",
                        "topology-component-required",
                    )
                )
    name = root.get("clusterTopologyName")
    if way.grove and name and _first_generation(obj):
        found.append(
            not_checked(
                "spec.topologyConstraint.clusterTopologyName",
                NOT_CHECKED_BINDING.format(name=name),
                "topology-binding-not-checked",
            )
        )
    return found


def check_kv_transfer_policy(obj: dict[str, Any], way: Pathway, lpx: bool) -> list[Finding]:
    policy = dig(obj, "spec", "experimental", "kvTransferPolicy")
    if not isinstance(policy, dict):
        return []
    base = "spec.experimental.kvTransferPolicy"
    found: list[Finding] = []
    if lpx:
        found.append(
            forbidden(base, "is not supported when an LPX component is selected", "kv-transfer-lpx")
        )
    name = policy.get("clusterTopologyName")
    if isinstance(name, str) and name:
        errors = dns1123_subdomain_errors(name)
        for message in errors:
            found.append(
                invalid(f"{base}.clusterTopologyName", name, message, "kv-transfer-topology-name")
            )
        if not way.grove:
            found.append(
                forbidden(f"{base}.clusterTopologyName", way.reason, "kv-transfer-grove-only")
            )
        elif not errors and _first_generation(obj):
            found.append(
                not_checked(
                    f"{base}.clusterTopologyName",
                    NOT_CHECKED_BINDING.format(name=name),
                    "kv-transfer-binding-not-checked",
                )
            )
    return found


def _first_generation(obj: dict[str, Any]) -> bool:
    generation = dig(obj, "metadata", "generation")
    return not isinstance(generation, int) or generation <= 1
