"""The operator settings that admission and rendering depend on but a DGD does not carry."""

from dataclasses import dataclass
from typing import Literal

from kubectl_dgd.core import graph

# The annotations that pick the provider (defined in core.graph; read here and by validate).
WORKLOAD_PROVIDER_ANNOTATION = graph.WORKLOAD_PROVIDER_ANNOTATION
ENABLE_GROVE_ANNOTATION = graph.ENABLE_GROVE_ANNOTATION

Provider = Literal["grove", "component"]


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
