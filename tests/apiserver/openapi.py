"""Minimal OpenAPI v3 documents: enough for kubectl create/apply to learn that the server
validates fields itself (the ``fieldValidation`` parameter) instead of downloading a schema.

Each group-version document lists the collection and item paths of its resources with their
operations, parameters and ``x-kubernetes-group-version-kind``; the DGD's schema comes from its
installed CRD object when there is one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from tests.apiserver.resources import ResourceType

_PARAMS = ("dryRun", "fieldManager", "fieldValidation", "pretty")


def _path_key(rt: ResourceType) -> str:
    return f"api/{rt.version}" if not rt.group else f"apis/{rt.group}/{rt.version}"


def index(types: Iterable[ResourceType]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for rt in types:
        key = _path_key(rt)
        digest = hashlib.sha256(key.encode()).hexdigest()[:16].upper()
        paths[key] = {"serverRelativeURL": f"/openapi/v3/{key}?hash={digest}"}
    return {"paths": dict(sorted(paths.items()))}


def _schema_name(rt: ResourceType) -> str:
    group = ".".join(reversed(rt.group.split("."))) if rt.group else "io.k8s.api.core"
    return f"{group}.{rt.version}.{rt.kind}"


def _operation(rt: ResourceType, action: str) -> dict[str, Any]:
    return {
        "operationId": f"{action}{rt.kind}",
        "parameters": [
            {"name": name, "in": "query", "schema": {"type": "string", "uniqueItems": True}}
            for name in _PARAMS
        ],
        "responses": {"200": {"description": "OK"}},
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": {
            "group": rt.group,
            "version": rt.version,
            "kind": rt.kind,
        },
    }


def group_version(
    types: Iterable[ResourceType], path_key: str, schemas: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """``schemas``: openAPIV3Schema per kind, when known (from CRD objects)."""
    selected = [rt for rt in types if _path_key(rt) == path_key]
    if not selected:
        return None
    paths: dict[str, Any] = {}
    components: dict[str, Any] = {}
    for rt in selected:
        scope = "/namespaces/{namespace}" if rt.namespaced else ""
        base = f"/{path_key}{scope}/{rt.plural}"
        paths[base] = {"get": _operation(rt, "list"), "post": _operation(rt, "post")}
        paths[base + "/{name}"] = {
            "get": _operation(rt, "get"),
            "put": _operation(rt, "put"),
            "patch": _operation(rt, "patch"),
            "delete": _operation(rt, "delete"),
        }
        schema = json.loads(json.dumps(schemas.get(rt.kind) or {"type": "object"}))
        schema["x-kubernetes-group-version-kind"] = [
            {"group": rt.group, "version": rt.version, "kind": rt.kind}
        ]
        components[_schema_name(rt)] = schema
    return {
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.36.0"},
        "paths": paths,
        "components": {"schemas": components},
    }
