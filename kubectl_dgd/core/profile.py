"""The operator settings that admission and rendering depend on but a DGD does not carry."""

from dataclasses import dataclass
from typing import Literal

Provider = Literal["grove", "component"]

WORKLOAD_PROVIDER_ANNOTATION = "nvidia.com/workload-provider"
ENABLE_GROVE_ANNOTATION = "nvidia.com/enable-grove"


@dataclass(frozen=True)
class Profile:
    """An operator configuration to validate or render against.

    ``provider`` None means: decide as the mutating webhook does (stored annotation on update,
    else Grove unless the gate is off or ``nvidia.com/enable-grove: "false"``).
    """

    provider: Provider | None = None
    grove: bool = True
    lpx: bool = False
    checkpoint: bool = True
    lws: bool = True
    kubernetes_discovery: bool = False
    strict: bool = False


def decide_provider(
    annotations: dict[str, str] | None, profile: Profile, *, creating: bool = True
) -> Provider:
    """The workload provider the operator will use for this object (docs/operator-semantics.md#workload-provider)."""
    if profile.provider is not None:
        return profile.provider
    annotations = annotations or {}
    stored = annotations.get(WORKLOAD_PROVIDER_ANNOTATION)
    if not creating and stored in ("grove", "component"):
        return stored  # type: ignore[return-value]
    if profile.grove and annotations.get(ENABLE_GROVE_ANNOTATION, "").lower() != "false":
        return "grove"
    return "component"
