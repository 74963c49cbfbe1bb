"""``children: preview``: one ConfigMap per graph that shows what the operator will create.

Argo CD must never create or own the operator's children: worker DCD names carry a hash only
the operator computes (ours is a preview), and a second copy of a DCD or Deployment would run a
second set of pods. So the rendered children travel as text inside a ConfigMap the application
owns. Argo CD diffs that ConfigMap like any resource: on the next sync, the diff view shows per
component which child changes, and a changed ``workerHash`` in the summary means a managed
rolling update of every worker. The ConfigMap carries no owner reference and no operator label,
so neither the operator nor ``kubectl dgd`` mistakes it for a child.
"""

from __future__ import annotations

import json
from typing import Any

from kubectl_dgd.core.profile import Profile
from kubectl_dgd.output.manifest_yaml import dump_stream

PREVIEW_OF_LABEL = "kubectl-dgd.nvidia.com/preview-of"
MANAGED_BY = "dgd-argocd"
SUFFIX = "-dgd-preview"
# Argo CD applies client-side by default, which copies the whole object into the
# kubectl.kubernetes.io/last-applied-configuration annotation, and all annotations of an object
# together may hold at most 256 KiB. Keep the ConfigMap, as compact JSON, well below that
# (a ConfigMap's own 1 MiB limit is never the binding one).
MAX_APPLIED_BYTES = 200 * 1024
WORKER_TYPES = frozenset({"worker", "prefill", "decode"})
HASH_LABEL = "nvidia.com/dynamo-worker-hash"


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _label_values(node: Any, key: str) -> set[str]:
    """Every value of label ``key`` anywhere in a rendered object (Grove keeps it on cliques)."""
    found: set[str] = set()
    if isinstance(node, dict):
        labels = node.get("labels")
        if isinstance(labels, dict) and key in labels:
            found.add(str(labels[key]))
        for value in node.values():
            found |= _label_values(value, key)
    elif isinstance(node, list):
        for value in node:
            found |= _label_values(value, key)
    return found


def _on_template_change(component: dict[str, Any], provider: str) -> str:
    """What a change of this component's pod template does (docs/operator-semantics.md#rolling-update)."""
    if provider == "grove":
        return "Grove rolls the changed cliques natively (PodCliqueSet update strategy)"
    if component.get("type") in WORKER_TYPES:
        if isinstance(component.get("multinode"), dict):
            return "LeaderWorkerSet rolls natively (no managed rolling update for multinode)"
        return (
            "managed rolling update of every single-node worker component: new worker DCDs "
            "named with the new hash, new runtime namespace, old ones drained"
        )
    return "in-place rolling update of its Deployment"


def _summary(
    obj: dict[str, Any], profile: Profile, rendered: list[Any], failure: str
) -> dict[str, Any]:
    from kubectl_dgd.core.profile import decide_provider

    meta, spec = _mapping(obj.get("metadata")), _mapping(obj.get("spec"))
    provider = decide_provider(meta.get("annotations"), profile)
    name = str(meta.get("name", ""))
    summary: dict[str, Any] = {"graph": name, "provider": provider}
    if failure:
        summary["renderError"] = failure
    hashes = sorted({h for r in rendered for h in _label_values(r.obj, HASH_LABEL)})
    if hashes:
        summary["workerHash"] = hashes[0]
        summary["workerHashNote"] = "computed offline; a change here means every worker rolls"
    components: dict[str, Any] = {}
    for component in spec.get("components") or []:
        if not isinstance(component, dict):
            continue
        cname = str(component.get("name"))
        children = [f"{r.kind}/{r.name}" for r in rendered if r.source == f"{name}/{cname}"]
        components[cname] = {
            "type": str(component.get("type") or "untyped"),
            "replicas": component.get("replicas", 1),
            "children": children,
            "onTemplateChange": _on_template_change(component, provider),
            "onReplicasChange": "scale only",
        }
    summary["components"] = components
    graph_wide = [f"{r.kind}/{r.name}" for r in rendered if r.source == name]
    if graph_wide:
        summary["graphChildren"] = graph_wide
    summary["notShown"] = "operator-injected container defaults (command, probes, ports, env)"
    return summary


def preview_configmap(
    obj: dict[str, Any], profile: Profile, namespace: str, source: str
) -> tuple[dict[str, Any], str]:
    """The preview ConfigMap for one graph, and a warning ('' when none)."""
    from kubectl_dgd.core.render import RenderError, render_graph

    meta = _mapping(obj.get("metadata"))
    name = str(meta.get("name", ""))
    warning = ""
    try:
        rendered = render_graph(obj, profile)
        failure = ""
    except RenderError as err:
        rendered, failure = [], str(err)
        warning = f"{source}: children preview: the operator would fail to reconcile: {err}"
    cm_meta: dict[str, Any] = {"name": (name + SUFFIX)[:253]}
    if meta.get("namespace") or namespace:
        cm_meta["namespace"] = str(meta.get("namespace") or namespace)
    labels = {"app.kubernetes.io/managed-by": MANAGED_BY}
    if len(name) <= 63:
        labels[PREVIEW_OF_LABEL] = name
    cm_meta["labels"] = labels
    cm_meta["annotations"] = {
        "kubectl-dgd.nvidia.com/preview": "children the operator will create; not applied by Argo CD"
    }
    data = {
        "summary.yaml": dump_stream([_summary(obj, profile, rendered, failure)]).removeprefix(
            "---\n"
        ),
        "children.yaml": dump_stream([r.obj for r in rendered]),
    }
    configmap = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": cm_meta, "data": data}
    if _applied_size(configmap) > MAX_APPLIED_BYTES:
        data["children.yaml"] = (
            f"# {len(rendered)} children; too large to apply as a ConfigMap, "
            "see `kubectl dgd render`\n"
        )
        note = f"{source}: children preview of {name} is too large; only the summary is kept"
        warning = f"{warning}; {note}" if warning else note
    return configmap, warning


def _applied_size(obj: dict[str, Any]) -> int:
    """Bytes of ``obj`` as the compact JSON client-side apply stores in an annotation."""
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())
