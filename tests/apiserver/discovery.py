"""Discovery documents (/version, /api, /apis, group and version resource lists)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.apiserver.resources import ResourceType

SERVER_VERSION = {
    "major": "1",
    "minor": "36",
    "gitVersion": "v1.36.0",
    "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean",
    "buildDate": "2026-01-01T00:00:00Z",
    "goVersion": "go1.25.0",
    "compiler": "gc",
    "platform": "linux/amd64",
}


def _by_group(types: Iterable[ResourceType]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for rt in types:
        versions = groups.setdefault(rt.group, [])
        if rt.version not in versions:
            versions.append(rt.version)
    return groups


def _preferred(versions: list[str]) -> str:
    """GA before beta before alpha, as Kubernetes orders versions."""

    def rank(version: str) -> tuple[int, str]:
        if "alpha" in version:
            return (2, version)
        if "beta" in version:
            return (1, version)
        return (0, version)

    return sorted(versions, key=rank)[0]


def _group_doc(name: str, versions: list[str]) -> dict[str, Any]:
    ordered = sorted(versions, key=lambda v: (v != _preferred(versions), v))
    preferred = _preferred(versions)
    return {
        "name": name,
        "versions": [{"groupVersion": f"{name}/{v}", "version": v} for v in ordered],
        "preferredVersion": {"groupVersion": f"{name}/{preferred}", "version": preferred},
    }


def api_versions(server_address: str) -> dict[str, Any]:
    return {
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}
        ],
    }


def api_group_list(types: Iterable[ResourceType]) -> dict[str, Any]:
    groups = [
        _group_doc(name, versions) for name, versions in sorted(_by_group(types).items()) if name
    ]
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def api_group(types: Iterable[ResourceType], group: str) -> dict[str, Any] | None:
    versions = _by_group(types).get(group)
    if not versions or not group:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", **_group_doc(group, versions)}


def resource_list(types: Iterable[ResourceType], group_version: str) -> dict[str, Any] | None:
    resources: list[dict[str, Any]] = []
    for rt in sorted(types, key=lambda t: t.plural):
        if rt.group_version != group_version:
            continue
        entry: dict[str, Any] = {
            "name": rt.plural,
            "singularName": rt.singular,
            "namespaced": rt.namespaced,
            "kind": rt.kind,
            "verbs": list(rt.verbs),
        }
        if rt.short_names:
            entry["shortNames"] = list(rt.short_names)
        if rt.categories:
            entry["categories"] = list(rt.categories)
        resources.append(entry)
        if rt.status_subresource:
            resources.append(
                {
                    "name": f"{rt.plural}/status",
                    "singularName": "",
                    "namespaced": rt.namespaced,
                    "kind": rt.kind,
                    "verbs": ["get", "patch", "update"],
                }
            )
    if not resources:
        return None
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": resources,
    }


AGGREGATED_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"


def wants_aggregated(accept: str) -> bool:
    """Whether the client asked for aggregated discovery v2 (kubectl >= 1.30 does, first)."""
    return any(
        "g=apidiscovery.k8s.io" in part and "v=v2" in part and "as=APIGroupDiscoveryList" in part
        for part in accept.split(",")
    )


def _resource_v2(rt: ResourceType) -> dict[str, Any]:
    kind = {"group": rt.group, "version": rt.version, "kind": rt.kind}
    entry: dict[str, Any] = {
        "resource": rt.plural,
        "responseKind": kind,
        "scope": "Namespaced" if rt.namespaced else "Cluster",
        "singularResource": rt.singular,
        "verbs": list(rt.verbs),
    }
    if rt.short_names:
        entry["shortNames"] = list(rt.short_names)
    if rt.categories:
        entry["categories"] = list(rt.categories)
    if rt.status_subresource:
        entry["subresources"] = [
            {"subresource": "status", "responseKind": kind, "verbs": ["get", "patch", "update"]}
        ]
    return entry


def aggregated(types: Iterable[ResourceType], *, core: bool) -> dict[str, Any]:
    """apidiscovery.k8s.io/v2 APIGroupDiscoveryList: for /api (core) or /apis (the groups)."""
    selected = [rt for rt in types if (rt.group == "") == core]
    items = []
    for name, versions in sorted(_by_group(selected).items()):
        preferred = _preferred(versions)
        ordered = sorted(versions, key=lambda v: (v != preferred, v))
        items.append(
            {
                "metadata": {"name": name, "creationTimestamp": None},
                "versions": [
                    {
                        "version": version,
                        "resources": [
                            _resource_v2(rt)
                            for rt in sorted(selected, key=lambda t: t.plural)
                            if rt.group == name and rt.version == version
                        ],
                        "freshness": "Current",
                    }
                    for version in ordered
                ],
            }
        )
    return {
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": items,
    }
