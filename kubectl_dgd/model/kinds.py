"""Names of the DGD API, importable without pydantic: the fast paths (validate, generate) need
only these, and building the pydantic models costs tens of milliseconds at start-up."""

from __future__ import annotations

API_GROUP = "nvidia.com"
KIND = "DynamoGraphDeployment"
V1BETA1 = "nvidia.com/v1beta1"
V1ALPHA1 = "nvidia.com/v1alpha1"
CRD_NAME = f"dynamographdeployments.{API_GROUP}"
# Said by the cluster adapter on a 404 and by validate --live; here so neither imports the other.
CRD_MISSING = f"the {KIND} CRD ({CRD_NAME}) is not installed in this cluster"
WORKER_TYPES: frozenset[str] = frozenset({"worker", "prefill", "decode"})


def is_dgd(obj: object) -> bool:
    """True for a mapping that declares itself a DGD of a version we know."""
    return (
        isinstance(obj, dict)
        and obj.get("kind") == KIND
        and obj.get("apiVersion") in (V1BETA1, V1ALPHA1)
    )
