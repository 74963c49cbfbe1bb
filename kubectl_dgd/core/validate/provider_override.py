"""Provider-native (Grove) overrides: where they may appear, their target, and registered paths.

Registered paths follow the operator's registry: the PodCliqueSet root accepts only
``spec.template.topologyConstraint``; clique and scaling-group scopes accept only ``topologyConstraint``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, required, unsupported
from kubectl_dgd.core.validate.graphview import (
    Pathway,
    annotations_of,
    component_path,
    components,
    effective_mode,
    experimental,
    node_count,
    spec,
)

API_VERSION = "grove.io/v1alpha1"
PCS = "PodCliqueSet"
CLIQUE = "PodCliqueTemplateSpec"
SCALING_GROUP = "PodCliqueScalingGroupConfig"

REGISTERED: dict[str, tuple[tuple[str, ...], ...]] = {
    PCS: (("spec", "template", "topologyConstraint"),),
    CLIQUE: (("topologyConstraint",),),
    SCALING_GROUP: (("topologyConstraint",),),
}

COMBINED_TOPOLOGY = (
    "cannot be combined with spec.topologyConstraint or components[].topologyConstraint; use either "
    "the typed topology API or provider-native Grove topology overrides"
)


@dataclass(frozen=True)
class Site:
    """One place an override may sit, with the target its context implies."""

    path: str
    override: Any
    target: str


def uses_scaling_group(component: dict[str, Any]) -> bool:
    """Grove renders a PodCliqueScalingGroup for multinode, inter-pod GMS or forced components."""
    forced = (experimental(component, "grove") or {}).get("forceScalingGroup") is True
    inter_pod = effective_mode(experimental(component, "gpuMemoryService")) == "InterPod"
    return node_count(component) > 1 or inter_pod or forced


def sites(obj: dict[str, Any]) -> Iterator[Site]:
    """Every providerOverride in the object, present or not (``override`` None when absent)."""
    yield Site("spec.providerOverride", spec(obj).get("providerOverride"), PCS)
    for i, component in components(obj):
        base = component_path(i)
        target = SCALING_GROUP if uses_scaling_group(component) else CLIQUE
        yield Site(f"{base}.providerOverride", component.get("providerOverride"), target)
        multinode = component.get("multinode")
        if isinstance(multinode, dict):
            for role in ("leader", "worker"):
                role_block = multinode.get(role)
                override = (
                    role_block.get("providerOverride") if isinstance(role_block, dict) else None
                )
                yield Site(f"{base}.multinode.{role}.providerOverride", override, CLIQUE)


def present_sites(obj: dict[str, Any]) -> list[Site]:
    return [site for site in sites(obj) if isinstance(site.override, dict)]


def check(obj: dict[str, Any], way: Pathway, old: dict[str, Any] | None) -> list[Finding]:
    found: list[Finding] = []
    for site in present_sites(obj):
        found.extend(_check_site(site, way, old))
    return found


def _check_site(site: Site, way: Pathway, old: dict[str, Any] | None) -> list[Finding]:
    override: dict[str, Any] = site.override
    found: list[Finding] = []
    if old is not None and "nvidia.com/workload-provider" not in annotations_of(old):
        found.append(
            forbidden(
                site.path,
                'requires controller-owned annotation "nvidia.com/workload-provider" to be materialized; '
                "wait for controller adoption and retry",
                "provider-override-unadopted",
            )
        )
    elif not way.grove:
        found.append(
            forbidden(
                site.path,
                f'requires workload provider "grove", but "{way.provider}" is selected',
                "provider-override-grove-only",
            )
        )
    api_version = override.get("apiVersion")
    if not api_version:
        found.append(
            required(f"{site.path}.apiVersion", "is required", "provider-override-api-version")
        )
    elif api_version != API_VERSION:
        found.append(
            unsupported(
                f"{site.path}.apiVersion",
                api_version,
                (API_VERSION,),
                "provider-override-api-version",
            )
        )
    target = override.get("target")
    if not target:
        found.append(
            required(
                f"{site.path}.target",
                "must be defaulted from the provider context",
                "provider-override-target",
            )
        )
    elif target != site.target:
        found.append(
            invalid(
                f"{site.path}.target",
                target,
                f'must match the provider-context target "{site.target}"',
                "provider-override-target",
            )
        )
    found.extend(_check_value(site, override.get("value")))
    return found


def _check_value(site: Site, value: Any) -> list[Finding]:
    base = f"{site.path}.value"
    if value is None:
        return []
    if not isinstance(value, dict):
        return [_malformed(base, site.target, "value must be an object")]
    found: list[Finding] = []
    registered = REGISTERED[site.target]
    _walk(value, (), registered, base, site.target, found)
    return found


def _walk(
    node: dict[str, Any],
    prefix: tuple[str, ...],
    registered: tuple[tuple[str, ...], ...],
    base: str,
    target: str,
    found: list[Finding],
) -> None:
    for key in sorted(node):
        path = (*prefix, str(key))
        if any(path == reg for reg in registered):
            continue
        if any(reg[: len(path)] == path for reg in registered):
            child_node = node[key]
            if isinstance(child_node, dict):
                _walk(child_node, path, registered, base, target, found)
            elif child_node is not None:
                found.append(_malformed(base, target, f"{'.'.join(path)} must be an object"))
            continue
        found.append(
            forbidden(
                f"{base}.{'.'.join(path)}",
                "is Dynamo-owned or not enabled for provider override",
                "provider-override-path",
            )
        )


def _malformed(base: str, target: str, why: str) -> Finding:
    # The operator appends Go's JSON decoding error here; ours names the offending part instead.
    return invalid(
        base,
        None,
        f"does not match the registered {target} schema: {why}",
        "provider-override-schema",
    )


def has_native_topology(site: Site) -> bool:
    value = site.override.get("value") if isinstance(site.override, dict) else None
    if not isinstance(value, dict):
        return False
    if site.target == PCS:
        template = (
            value.get("spec", {}).get("template") if isinstance(value.get("spec"), dict) else None
        )
        return isinstance(template, dict) and "topologyConstraint" in template
    return "topologyConstraint" in value


def check_topology_combination(obj: dict[str, Any]) -> list[Finding]:
    typed = spec(obj).get("topologyConstraint") is not None or any(
        c.get("topologyConstraint") is not None for _, c in components(obj)
    )
    if not typed:
        return []
    return [
        forbidden(f"{site.path}.value", COMBINED_TOPOLOGY, "provider-override-typed-topology")
        for site in present_sites(obj)
        if has_native_topology(site)
    ]


def default_targets(obj: dict[str, Any]) -> None:
    """The mutating webhook's defaulting: an empty target takes the provider-context target."""
    for site in present_sites(obj):
        if not site.override.get("target"):
            site.override["target"] = site.target
