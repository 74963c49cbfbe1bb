"""The operator settings that admission and rendering depend on but a DGD does not carry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kubectl_dgd.core import graph
from kubectl_dgd.core.lazyre import LazyPattern

# The annotations that pick the provider (defined in core.graph; read here and by validate).
WORKLOAD_PROVIDER_ANNOTATION = graph.WORKLOAD_PROVIDER_ANNOTATION
ENABLE_GROVE_ANNOTATION = graph.ENABLE_GROVE_ANNOTATION
ORIGIN_VERSION_ANNOTATION = graph.OPERATOR_ORIGIN_VERSION_ANNOTATION

Provider = Literal["grove", "component"]

# Operator releases whose admission rules, messages and CRD we model (docs/operator-semantics.md#versions).
SUPPORTED_VERSIONS: tuple[str, ...] = ("1.3", "1.4", "1.5", "1.6")
NEWEST_VERSION = SUPPORTED_VERSIONS[-1]

# ASCII digits only: int() reads any Unicode digit, so "1\u0661.4" would have been release 11.4.
_RELEASE = LazyPattern(r"^v?([0-9]+)\.([0-9]+)(?:\.[0-9]+)?(?:[-+].*)?$")


def version_key(version: str) -> tuple[int, int]:
    """``"1.4"`` -> ``(1, 4)``; the ordering every version comparison uses."""
    major, _, minor = version.partition(".")
    return int(major), int(minor)


def at_least(version: str, release: str) -> bool:
    """Is operator release ``version`` at least ``release`` (``at_least("1.6", "1.5")``)? The one
    way every per-release behaviour asks; ``Profile.at_least`` asks it of the profile's."""
    return version_key(version) >= version_key(release)


def release_of(text: str) -> str | None:
    """``X.Y`` of an operator version or image tag (``1.4.2``, ``v1.6.0-dev.1``), else None."""
    match = _RELEASE.match(text.strip())
    return f"{int(match.group(1))}.{int(match.group(2))}" if match else None


def nearest_supported(release: str) -> str:
    """The supported version whose rules apply to ``release`` (older -> oldest, newer -> newest)."""
    key = version_key(release)
    candidates = [v for v in SUPPORTED_VERSIONS if version_key(v) <= key]
    return candidates[-1] if candidates else SUPPORTED_VERSIONS[0]


@dataclass(frozen=True)
class Profile:
    """An operator configuration to validate or render against.

    ``provider`` None means: decide as the mutating webhook does (stored annotation on update,
    else Grove unless the gate is off or ``nvidia.com/enable-grove: "false"``).
    ``operator_version`` is one of SUPPORTED_VERSIONS: whose rules, messages and CRD apply.
    """

    provider: Provider | None = None
    grove: bool = True
    lpx: bool = False
    checkpoint: bool = True
    lws: bool = True
    kubernetes_discovery: bool = False
    strict: bool = False
    operator_version: str = NEWEST_VERSION

    def at_least(self, release: str) -> bool:
        return at_least(self.operator_version, release)


def decide_provider(
    annotations: dict[str, str] | None, profile: Profile, *, creating: bool = True
) -> Provider:
    """The workload provider the operator will use for this object (docs/operator-semantics.md#workload-provider)."""
    if profile.provider is not None:
        return profile.provider
    annotations = annotations or {}
    stored = annotations.get(WORKLOAD_PROVIDER_ANNOTATION)
    if not creating and stored in ("grove", "component") and profile.at_least("1.4"):
        return stored  # type: ignore[return-value]
    if profile.grove and annotations.get(ENABLE_GROVE_ANNOTATION, "").lower() != "false":
        return "grove"
    return "component"
