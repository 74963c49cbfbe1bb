"""Webhook rules on ``metadata.annotations``."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import GROVE_UPDATE_STRATEGY_ANNOTATION as GROVE_UPDATE_STRATEGY
from kubectl_dgd.core.graph import KUBE_DISCOVERY_MODE_ANNOTATION as DISCOVERY_MODE
from kubectl_dgd.core.graph import OPERATOR_ORIGIN_VERSION_ANNOTATION as ORIGIN_VERSION
from kubectl_dgd.core.graph import VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION as VLLM_BACKEND
from kubectl_dgd.core.graph import WORKLOAD_PROVIDER_ANNOTATION as WORKLOAD_PROVIDER
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.paths import child
from kubectl_dgd.core.profile import NEWEST_VERSION
from kubectl_dgd.core.validate import rules_by_version
from kubectl_dgd.core.validate.fielderr import invalid, unsupported
from kubectl_dgd.core.validate.graphview import (
    annotations_of,
    components,
    effective_mode,
    experimental,
)

# The operator parses the origin version with a lenient semver parser (``1.2`` and ``v1`` pass).
_LOOSE_SEMVER = LazyPattern(
    r"^v?[0-9]+(\.[0-9]+)?(\.[0-9]+)?"
    r"(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$"
)


def _path(key: str) -> str:
    return child("metadata.annotations", key)


def check(obj: dict[str, Any], version: str = NEWEST_VERSION) -> list[Finding]:
    notes = annotations_of(obj)
    strategies = tuple(rules_by_version.variant("grove-update-strategy", version).split(","))
    found: list[Finding] = []
    if ORIGIN_VERSION in notes and not _LOOSE_SEMVER.match(str(notes[ORIGIN_VERSION])):
        found.append(
            invalid(
                _path(ORIGIN_VERSION),
                notes[ORIGIN_VERSION],
                "must be valid semver",
                "origin-version-semver",
            )
        )
    if VLLM_BACKEND in notes and str(notes[VLLM_BACKEND]).lower() not in ("mp", "ray"):
        found.append(
            invalid(
                _path(VLLM_BACKEND),
                notes[VLLM_BACKEND],
                'must be "mp" or "ray"',
                "vllm-backend-annotation",
            )
        )
    if GROVE_UPDATE_STRATEGY in notes and notes[GROVE_UPDATE_STRATEGY] not in strategies:
        found.append(
            unsupported(
                _path(GROVE_UPDATE_STRATEGY),
                notes[GROVE_UPDATE_STRATEGY],
                strategies,
                "grove-update-strategy",
            )
        )
    if DISCOVERY_MODE in notes and notes[DISCOVERY_MODE] not in ("pod", "container"):
        found.append(
            unsupported(
                _path(DISCOVERY_MODE), notes[DISCOVERY_MODE], ("pod", "container"), "discovery-mode"
            )
        )
    if WORKLOAD_PROVIDER in notes and notes[WORKLOAD_PROVIDER] not in ("component", "grove"):
        found.append(
            unsupported(
                _path(WORKLOAD_PROVIDER),
                notes[WORKLOAD_PROVIDER],
                ("component", "grove"),
                "workload-provider",
            )
        )
    if _has_intra_pod_failover(obj) and notes.get(DISCOVERY_MODE) != "container":
        found.append(
            invalid(
                _path(DISCOVERY_MODE),
                str(notes.get(DISCOVERY_MODE, "")),
                'must be "container" when intra-pod failover is configured',
                "failover-discovery-mode",
            )
        )
    return found


def _has_intra_pod_failover(obj: dict[str, Any]) -> bool:
    return any(
        effective_mode(experimental(c, "failover")) == "IntraPod" for _, c in components(obj)
    )
