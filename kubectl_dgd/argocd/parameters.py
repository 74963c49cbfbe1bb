"""``parameters``: the dynamic parameter announcements Argo CD's UI shows on the Parameters tab.

Argo CD runs this when someone opens the application, with a smaller environment than generate
(no namespace, revision or KUBE_*). It must not fail the page: unreadable files are skipped, and
the output is always a JSON list. It lists the graphs found and their components as read-only
maps; Argo CD appends plugin.yaml's static announcements after these.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kubectl_dgd.adapters.yamlload import load_file
from kubectl_dgd.argocd.source import list_manifests, locate
from kubectl_dgd.core.graph import items, mapping, node_count
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import is_dgd


def _component_summary(component: Mapping[str, Any]) -> str:
    kind = str(component.get("type") or "untyped")
    replicas = component.get("replicas")
    shown = 1 if replicas is None else replicas
    text = f"{kind}, {shown} replica{'s' if shown != 1 else ''}"
    if isinstance(component.get("multinode"), dict):
        text += f", {node_count(dict(component))} nodes each"
    return text


def announcements(app_dir: Path, env: Mapping[str, str]) -> list[dict[str, Any]]:
    try:
        source = locate(app_dir, env)
    except InputError:
        return []
    graphs: dict[str, str] = {}
    per_graph: dict[str, tuple[str, dict[str, Any]]] = {}  # by namespace/name: (name, parameter)
    for path in list_manifests(source).files:
        shown = source.display(path)
        try:
            docs = load_file(str(path))
        except InputError:
            continue
        from kubectl_dgd.usecases.validate import unpack

        for doc in docs:
            for obj, _prefix, line in unpack(doc):
                if not is_dgd(obj):
                    continue
                meta = mapping(obj.get("metadata"))
                name = str(meta.get("name") or "")
                namespace = str(meta.get("namespace") or env.get("ARGOCD_APP_NAMESPACE") or "")
                key = f"{namespace}/{name}" if namespace else name
                components = items(mapping(obj.get("spec")).get("components"))
                if key in graphs:  # the same graph twice: generate refuses it; announce it once
                    continue
                graphs[key] = f"{shown}:{line}, {len(components)} components"
                per_graph[key] = (
                    name,
                    {
                        "title": f"Components of {key} (information only)",
                        "tooltip": "Read from the graph in Git; setting this parameter changes nothing.",
                        "collectionType": "map",
                        "map": {str(c.get("name")): _component_summary(c) for c in components},
                    },
                )
    if not graphs:
        return []
    names = [name for name, _ in per_graph.values()]
    # Parameter names must be unique: a name shared by graphs of two namespaces is qualified.
    parameters = [
        {"name": f"components.{key if names.count(name) > 1 else name}", **parameter}
        for key, (name, parameter) in per_graph.items()
    ]
    head = {
        "name": "graphs",
        "title": "DynamoGraphDeployments in this application (information only)",
        "tooltip": "Graphs found below the application path; setting this parameter changes nothing.",
        "collectionType": "map",
        "map": graphs,
    }
    return [head, *parameters]
