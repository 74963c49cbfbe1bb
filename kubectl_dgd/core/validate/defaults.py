"""Defaults applied before validation: CRD structural defaults, then the mutating webhook.

The mutating webhook, as modelled here:
- on create it stamps ``nvidia.com/workload-provider`` from the operator profile and the
  ``nvidia.com/enable-grove`` annotation, overwriting a user value; on update a file that omits it
  keeps the stored value (as ``kubectl apply`` would merge it);
- ``nvidia.com/dynamo-operator-origin-version`` is NOT stamped: it is the running operator's version,
  which an offline check does not know, and inventing one would change what the admission rules
  and the worker hash see;
- ``components[].replicas`` nil -> 1 (not for LPX), ``minAvailable`` nil -> 1 on Grove, and an empty
  ``providerOverride.target`` takes the provider-context target.

Per operator version: 1.3 stamps no provider and defaults
``minAvailable`` when the gate and annotation select Grove; 1.4-1.5 default it when the stamped
provider is Grove; 1.6 no longer defaults it (Grove's native minimum applies) and persists the
replicas of explicit multinode roles (leader 1, worker nodeCount-1).
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.datacopy import deep_copy
from kubectl_dgd.core.graph import DEFAULT_MIN_AVAILABLE, replicas_default
from kubectl_dgd.core.profile import WORKLOAD_PROVIDER_ANNOTATION, Profile, decide_provider
from kubectl_dgd.core.validate import provider_override, schema
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.graphview import annotations_of, components, node_count


def apply_defaults(
    obj: dict[str, Any], schemas: CrdSchemas, profile: Profile, old: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A defaulted deep copy of ``obj``; the input is never changed. Never raises on odd shapes."""
    result: dict[str, Any] = deep_copy(obj)
    if not isinstance(result, dict):
        return result
    version = str(result.get("apiVersion", "")).rpartition("/")[2]
    version_schema = schemas.get(version)
    structural = getattr(schema, "apply_structural_defaults", None)
    if version_schema is not None and callable(structural):
        defaulted = structural(result, version_schema)
        if isinstance(defaulted, dict):
            result = defaulted
    if version == "v1beta1":
        mutate(result, profile, old)
    return result


def mutate(obj: dict[str, Any], profile: Profile, old: dict[str, Any] | None) -> None:
    """The mutating webhook's changes, in place."""
    if profile.at_least("1.4"):
        provider = _stamp_provider(obj, profile, old)
    else:
        provider = decide_provider(_str_map(annotations_of(obj)), profile, creating=old is None)
    for _, component in components(obj):
        if component.get("replicas") is None and replicas_default(component) is not None:
            component["replicas"] = replicas_default(component)
        if (
            provider == "grove"
            and component.get("minAvailable") is None
            and not profile.at_least("1.6")
        ):
            component["minAvailable"] = DEFAULT_MIN_AVAILABLE
        if profile.at_least("1.6"):
            _default_role_replicas(component)
    if profile.at_least("1.5") and provider == "grove":
        provider_override.default_targets(obj, profile.operator_version)


def _str_map(value: dict[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()}


def _default_role_replicas(component: dict[str, Any]) -> None:
    roles = component.get("roles")
    if component.get("type") == "lpx" or not isinstance(roles, list):
        return
    wanted = {"leader": 1, "worker": node_count(component) - 1}
    for role in roles:
        name = role.get("name") if isinstance(role, dict) else None
        # a name of the wrong type is the schema's to report, not a key to look up
        if isinstance(name, str) and name in wanted and role.get("replicas") is None:
            role["replicas"] = wanted[name]


def _stamp_provider(
    obj: dict[str, Any], profile: Profile, old: dict[str, Any] | None
) -> str | None:
    metadata = obj.get("metadata")
    if metadata is None:
        metadata = obj["metadata"] = {}
    if not isinstance(metadata, dict):
        return None
    notes = metadata.get("annotations")
    if notes is None:
        notes = metadata["annotations"] = {}
    if not isinstance(notes, dict):
        return None
    if old is None:
        provider = decide_provider(
            {str(k): str(v) for k, v in notes.items()}, profile, creating=True
        )
        notes[WORKLOAD_PROVIDER_ANNOTATION] = provider
        return provider
    # On update the webhook leaves the annotation alone. A file that omits it still carries the
    # stored value after `kubectl apply` merges it, so an omission keeps the stored one; a different
    # value stays as sent, for the immutability rule to judge.
    stored = annotations_of(old).get(WORKLOAD_PROVIDER_ANNOTATION)
    if WORKLOAD_PROVIDER_ANNOTATION not in notes and stored is not None:
        notes[WORKLOAD_PROVIDER_ANNOTATION] = stored
    current = notes.get(WORKLOAD_PROVIDER_ANNOTATION)
    return None if current is None else str(current)
