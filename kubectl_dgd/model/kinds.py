"""Names of the DGD API: its group, kind, versions and worker component types.

The shape of a graph (fields, defaults, status) is read in ``core.graph``; this module holds only
the names every layer shares."""

from __future__ import annotations

API_GROUP = "nvidia.com"
KIND = "DynamoGraphDeployment"
V1BETA1 = "nvidia.com/v1beta1"
V1ALPHA1 = "nvidia.com/v1alpha1"
CRD_NAME = f"dynamographdeployments.{API_GROUP}"
# Said by the cluster adapter on a 404 and by validate --live; here so neither imports the other.
CRD_MISSING = f"the {KIND} CRD ({CRD_NAME}) is not installed in this cluster"
SERVED = (V1BETA1, V1ALPHA1)
WORKER_TYPES: frozenset[str] = frozenset({"worker", "prefill", "decode"})


def is_dgd(obj: object) -> bool:
    """True for a mapping that declares itself a DGD of a version we know."""
    return isinstance(obj, dict) and obj.get("kind") == KIND and obj.get("apiVersion") in SERVED


def is_alpha(obj: object) -> bool:
    """True for a mapping of the deprecated ``nvidia.com/v1alpha1`` (the conversion's input)."""
    return isinstance(obj, dict) and obj.get("apiVersion") == V1ALPHA1


def is_dgd_kind(obj: object) -> bool:
    """True for any ``DynamoGraphDeployment`` of our group (or none), served version or not: an
    unserved one (``nvidia.com/v1``) is an error to report, not an unknown kind to pass through."""
    if not isinstance(obj, dict) or obj.get("kind") != KIND:
        return False
    api_version = obj.get("apiVersion")
    return isinstance(api_version, str) and api_version.rpartition("/")[0] in (API_GROUP, "")


def unserved_message(api_version: object, served: tuple[str, ...] = SERVED) -> str:
    """kubectl's refusal of a version the CRD does not serve, with the served ones named."""
    return (
        f'no matches for kind "{KIND}" in version "{api_version}": the served versions are '
        + ", ".join(served)
    )
