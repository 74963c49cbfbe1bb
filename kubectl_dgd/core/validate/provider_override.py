"""Provider-native (Grove) overrides: where they may appear, their target, and registered paths.

Registered paths follow the operator's registry (``po/registry.go``): the PodCliqueSet root accepts
only ``spec.template.topologyConstraint``; clique and scaling-group targets accept only
``topologyConstraint`` in 1.5, and in 1.6 also the native minimum and the rollingUpdate budget
(``webhook_provider_values``, which also judges the budget in its context). Each site's
checks stop at the first failing step, as the operator's do (P1-P6); the value is decoded into the
registered Grove type first (``grove_shape``) and nothing else is said about a value that fails.
Sites: 1.5 has ``multinode.{leader,worker}.providerOverride``; 1.6 moved them to ``roles[j]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import GROVE_UPDATE_STRATEGY_ANNOTATION
from kubectl_dgd.core.profile import NEWEST_VERSION, WORKLOAD_PROVIDER_ANNOTATION, at_least
from kubectl_dgd.core.validate import grove_shape, webhook_provider_values
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, required, unsupported
from kubectl_dgd.core.validate.graphview import (
    Pathway,
    annotations_of,
    as_list,
    component_path,
    components,
    dig,
    effective_mode,
    experimental,
    node_count,
    spec,
)

API_VERSION = "grove.io/v1alpha1"
PCS = "PodCliqueSet"
CLIQUE = "PodCliqueTemplateSpec"
SCALING_GROUP = "PodCliqueScalingGroupConfig"
OWNED = "is Dynamo-owned or not enabled for provider override"

COMBINED_TOPOLOGY = (
    "cannot be combined with spec.topologyConstraint or components[].topologyConstraint; use either "
    "the typed topology API or provider-native Grove topology overrides"
)


@dataclass(frozen=True)
class Site:
    """One place an override may sit: its scope, the component it belongs to, and its target."""

    path: str
    override: Any
    target: str  # "" when the scope has none for this component (the error is in ``scope_error``)
    scope: str = "root"
    component: dict[str, Any] | None = None
    scope_error: str = ""


def uses_scaling_group(component: dict[str, Any]) -> bool:
    """Grove renders a PodCliqueScalingGroup for multinode, inter-pod GMS or forced components."""
    forced = (experimental(component, "grove") or {}).get("forceScalingGroup") is True
    return node_count(component) > 1 or _inter_pod(component) or forced


def _inter_pod(component: dict[str, Any]) -> bool:
    return effective_mode(experimental(component, "gpuMemoryService")) == "InterPod"


def _role_site(path: str, override: Any, scope: str, component: dict[str, Any]) -> Site:
    if component.get("multinode") is None:
        error = f'scope "{scope}" requires a multinode component'
    elif _inter_pod(component):
        error = f'scope "{scope}" is not supported for inter-pod GMS components'
    else:
        return Site(path, override, CLIQUE, scope, component)
    return Site(path, override, "", scope, component, error)


def sites(obj: dict[str, Any], version: str = NEWEST_VERSION) -> Iterator[Site]:
    """Every providerOverride site of the release's API, present or not (``override`` None if absent)."""
    yield Site("spec.providerOverride", spec(obj).get("providerOverride"), PCS)
    roles_era = at_least(version, "1.6")
    for i, component in components(obj):
        base = component_path(i)
        target = SCALING_GROUP if uses_scaling_group(component) else CLIQUE
        yield Site(
            f"{base}.providerOverride",
            component.get("providerOverride"),
            target,
            "component",
            component,
        )
        if roles_era:
            for j, role in enumerate(as_list(component.get("roles"))):
                if component.get("type") == "lpx" and isinstance(role, dict):
                    path = f"{base}.roles[{j}].providerOverride"
                    yield Site(path, role.get("providerOverride"), "", "role", component)
                elif isinstance(role, dict) and role.get("name") in ("leader", "worker"):
                    yield _role_site(
                        f"{base}.roles[{j}].providerOverride",
                        role.get("providerOverride"),
                        f"roles.{role['name']}",
                        component,
                    )
            continue
        multinode = component.get("multinode")
        if isinstance(multinode, dict):
            for role_name in ("leader", "worker"):
                role_block = multinode.get(role_name)
                override = (
                    role_block.get("providerOverride") if isinstance(role_block, dict) else None
                )
                yield _role_site(
                    f"{base}.multinode.{role_name}.providerOverride",
                    override,
                    f"multinode.{role_name}",
                    component,
                )


def present_sites(obj: dict[str, Any], version: str = NEWEST_VERSION) -> list[Site]:
    return [site for site in sites(obj, version) if isinstance(site.override, dict)]


def check(
    obj: dict[str, Any], way: Pathway, old: dict[str, Any] | None, version: str = NEWEST_VERSION
) -> list[Finding]:
    del way, old  # the stored annotation itself decides here, not the pathway
    provider = annotations_of(obj).get(WORKLOAD_PROVIDER_ANNOTATION)
    strategy = annotations_of(obj).get(GROVE_UPDATE_STRATEGY_ANNOTATION)
    lpx_graph = any(c.get("type") == "lpx" for _, c in components(obj))
    found: list[Finding] = []
    for site in present_sites(obj, version):
        lpx = _lpx_refusal(site, lpx_graph)
        if lpx is not None:
            found.append(lpx)
            continue
        found.extend(_check_site(site, provider, version, strategy))
    return found


def _lpx_refusal(site: Site, lpx_graph: bool) -> Finding | None:
    """1.6: LPX graphs have no Grove topology overrides (P10); the version table gates it."""
    if site.component is None:
        detail = (
            "LPX does not support Grove topology overrides on the deployment" if lpx_graph else ""
        )
    elif site.component.get("type") != "lpx":
        detail = ""
    elif site.scope == "component":
        detail = "LPX component does not support Grove topology overrides"
    else:
        detail = "LPX roles do not support provider overrides"
    return forbidden(site.path, detail, "provider-override-lpx") if detail else None


def _check_site(site: Site, provider: Any, version: str, strategy: Any = None) -> list[Finding]:
    override: dict[str, Any] = site.override
    if provider is None:
        return [
            forbidden(
                site.path,
                f'requires controller-owned annotation "{WORKLOAD_PROVIDER_ANNOTATION}" to be materialized; '
                "wait for controller adoption and retry",
                "provider-override-unadopted",
            )
        ]
    if provider != "grove":
        return [
            forbidden(
                site.path,
                f'requires workload provider "grove", but "{provider}" is selected',
                "provider-override-grove-only",
            )
        ]
    api_version = override.get("apiVersion")
    if not api_version:
        return [required(f"{site.path}.apiVersion", "is required", "provider-override-api-version")]
    if api_version != API_VERSION:
        return [
            unsupported(
                f"{site.path}.apiVersion",
                api_version,
                (API_VERSION,),
                "provider-override-api-version",
            )
        ]
    if site.scope_error:
        return [forbidden(site.path, site.scope_error, "provider-override-scope")]
    target = override.get("target")
    if not target:
        return [
            required(
                f"{site.path}.target",
                "must be defaulted from the provider context",
                "provider-override-target",
            )
        ]
    if target != site.target:
        return [
            invalid(
                f"{site.path}.target",
                target,
                f'must match the provider-context target "{site.target}"',
                "provider-override-target",
            )
        ]
    found = _check_value(site, override.get("value"), version)
    if at_least(version, "1.6"):
        # 1.6 judges the rollingUpdate budget after the value, whatever the value errors were.
        found += webhook_provider_values.budget(
            override.get("value"), f"{site.path}.value", site.scope, site.component, strategy
        )
    return found


def _check_value(site: Site, value: Any, version: str) -> list[Finding]:
    base = f"{site.path}.value"
    if not isinstance(value, dict):
        # The operator decodes the raw JSON into a map first; null or a scalar fails there.
        detail = "must be a JSON object"
        if value is not None:
            detail += f": {grove_shape.not_an_object(value)}"
        return [invalid(base, None, detail, "provider-override-schema")]
    problem = grove_shape.mismatch(site.target, value)
    if problem is not None:
        return [
            invalid(
                base,
                None,
                f"does not match the registered {site.target} schema: {problem}",
                "provider-override-schema",
            )
        ]
    if site.target == PCS:
        return _pcs_value(value, base)
    if at_least(version, "1.6"):
        # The 1.6 registry picks the value policy by target, for component and role sites alike.
        return webhook_provider_values.component_value(value, site.target, base)
    return _owner(value, "", ("topologyConstraint",), base)


def _pcs_value(value: dict[str, Any], base: str) -> list[Finding]:
    found = _unknown(value, "", ("spec",), base)
    root_spec = value.get("spec")
    if "spec" not in value:
        return [
            *found,
            invalid(f"{base}.spec", None, "is required", "provider-override-required-path"),
        ]
    if not isinstance(root_spec, dict):
        return [*found, _not_object(f"{base}.spec", root_spec)]
    found += _unknown(root_spec, "spec", ("template",), base)
    template = root_spec.get("template")
    if "template" not in root_spec:
        return [
            *found,
            invalid(
                f"{base}.spec.template", None, "is required", "provider-override-required-path"
            ),
        ]
    if not isinstance(template, dict):
        return [*found, _not_object(f"{base}.spec.template", template)]
    return found + _owner(template, "spec.template", ("topologyConstraint",), base)


def _owner(node: dict[str, Any], path: str, owned: tuple[str, ...], base: str) -> list[Finding]:
    """Only ``owned`` keys may be written, and the topology subtree is required (1.5)."""
    found = _unknown(node, path, owned, base)
    topology_path = f"{base}.{_join(path, 'topologyConstraint')}"
    if "topologyConstraint" not in node:
        found.append(invalid(topology_path, None, "is required", "provider-override-required-path"))
    elif not isinstance(node["topologyConstraint"], dict):
        found.append(_not_object(topology_path, node["topologyConstraint"]))
    return found


def _unknown(node: dict[str, Any], path: str, allowed: tuple[str, ...], base: str) -> list[Finding]:
    return [
        forbidden(f"{base}.{_join(path, str(key))}", OWNED, "provider-override-path")
        for key in sorted(str(k) for k in node)
        if key not in allowed
    ]


def _not_object(path: str, value: Any) -> Finding:
    detail = "must be a JSON object"
    if value is not None:
        detail += f": {grove_shape.not_an_object(value)}"
    return invalid(path, None, detail, "provider-override-schema")


def _join(parent: str, child: str) -> str:
    return f"{parent}.{child}" if parent else child


def has_native_topology(site: Site) -> bool:
    value = site.override.get("value") if isinstance(site.override, dict) else None
    if not isinstance(value, dict):
        return False
    if site.target == PCS:
        template = dig(value, "spec", "template")
        return isinstance(template, dict) and "topologyConstraint" in template
    return "topologyConstraint" in value


def check_topology_combination(obj: dict[str, Any], version: str = NEWEST_VERSION) -> list[Finding]:
    if annotations_of(obj).get(WORKLOAD_PROVIDER_ANNOTATION) != "grove":
        return []
    typed = spec(obj).get("topologyConstraint") is not None or any(
        c.get("topologyConstraint") is not None for _, c in components(obj)
    )
    if not typed:
        return []
    return [
        forbidden(f"{site.path}.value", COMBINED_TOPOLOGY, "provider-override-typed-topology")
        for site in present_sites(obj, version)
        if has_native_topology(site)
    ]


def default_targets(obj: dict[str, Any], version: str = NEWEST_VERSION) -> None:
    """The mutating webhook's defaulting: an empty target takes the context's target if it has one."""
    for site in present_sites(obj, version):
        if (
            not site.override.get("target")
            and site.target
            and site.override.get("apiVersion") == API_VERSION
        ):
            site.override["target"] = site.target
