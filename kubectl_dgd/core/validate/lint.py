"""Layer "lint": what the operator only discovers at reconcile time, or never (warnings).

Grove name budget: the webhook already rejects over-long names when Grove applies. Lint sees the
file as written (no operator profile), so it warns only for graphs that opt out of Grove by
annotation; their names would be rejected if the graph ever moved to Grove.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core import backend
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import ENABLE_GROVE_ANNOTATION, WORKLOAD_PROVIDER_ANNOTATION
from kubectl_dgd.core.profile import NEWEST_VERSION
from kubectl_dgd.core.runtime_version import image_tag
from kubectl_dgd.core.validate import grove_names, lint_env, rules_by_version
from kubectl_dgd.core.validate.graphview import (
    annotations_of,
    as_list,
    component_path,
    components,
    dig,
    is_worker,
    spec,
)

RESTART_ON_CREATE = (
    "spec.restart in a file that creates the graph is rejected on create; create the graph first, "
    "then set spec.restart.id to request a restart"
)
SCALING_ADAPTER_REPLICAS = (
    "replicas is owned by the DynamoGraphDeploymentScalingAdapter when scalingAdapter is set: the "
    "operator writes the adapter's value back here and rejects direct edits, so this value will "
    'drift, and once the adapter has moved it every apply of this file is refused ("cannot be '
    'modified directly when scaling adapter is enabled"); leave replicas out of Git, and in '
    "Argo CD sync with ServerSideApply=true (a client-side apply resends the whole component "
    "list, replicas included)"
)


def _warn(path: str, message: str, code: str) -> Finding:
    return Finding("warning", "lint", path, message, code)


def check(obj: dict[str, Any], *, creating: bool, version: str = NEWEST_VERSION) -> list[Finding]:
    """Lint findings for ``obj``, limited to the rules of operator ``version``."""
    return rules_by_version.gate(_check(obj, creating=creating), version)


def _check(obj: dict[str, Any], *, creating: bool) -> list[Finding]:
    if not isinstance(obj, dict):
        return []
    found: list[Finding] = []
    if creating and spec(obj).get("restart") is not None:
        found.append(_warn("spec.restart", RESTART_ON_CREATE, "restart-on-create"))
    found += _backend(obj)
    found += _grove_budget(obj)
    found += _images(obj)
    found += lint_env.check(obj)
    for i, component in components(obj):
        if component.get("scalingAdapter") is not None and component.get("replicas") is not None:
            found.append(
                _warn(
                    f"{component_path(i)}.replicas",
                    SCALING_ADAPTER_REPLICAS,
                    "replicas-with-scaling-adapter",
                )
            )
    return found


def _backend(obj: dict[str, Any]) -> list[Finding]:
    explicit = spec(obj).get("backendFramework")
    explicit = explicit if isinstance(explicit, str) and explicit else None
    found: list[Finding] = []
    resolved: list[tuple[str, str]] = []
    for i, component in components(obj):
        if not is_worker(component):
            continue
        base = component_path(i)
        detection = backend.detect(component)
        if detection.ambiguous:
            found.append(
                _warn(
                    base,
                    f"several backend frameworks detected from the main container command: "
                    f"{', '.join(detection.frameworks)}"
                    + (
                        ""
                        if explicit
                        else "; the operator fails reconciliation until spec.backendFramework is set"
                    ),
                    "backend-ambiguous",
                )
            )
        result = backend.resolve_backend(component, explicit)
        if result.error and "mismatch" in result.error:
            found.append(
                _warn(
                    base,
                    f"the main container command disagrees with spec.backendFramework; the operator fails "
                    f"reconciliation with: {result.error}",
                    "backend-mismatch",
                )
            )
        if result.framework:
            resolved.append((str(component.get("name")), result.framework))
    frameworks = sorted({fw for _, fw in resolved})
    if explicit is None and len(frameworks) > 1:
        found.append(
            _warn(
                "spec.backendFramework",
                "worker commands name different backend frameworks; the operator fails reconciliation with: "
                f"multiple backend frameworks detected for generated DynamoComponentDeployments: "
                f"{frameworks[0]} and {frameworks[1]}",
                "backend-multiple",
            )
        )
    return found


def _grove_budget(obj: dict[str, Any]) -> list[Finding]:
    notes = annotations_of(obj)
    opted_out = (
        notes.get(WORKLOAD_PROVIDER_ANNOTATION) == "component"
        or str(notes.get(ENABLE_GROVE_ANNOTATION, "")).lower() == "false"
    )
    if not opted_out:
        return []
    name = str(dig(obj, "metadata", "name") or "")
    everything = [c for _, c in components(obj)]
    found: list[Finding] = []
    for i, component in components(obj):
        length, detail = grove_names.combined_length(name, everything, component)
        if length > grove_names.POD_NAME_LIMIT:
            found.append(
                _warn(
                    f"{component_path(i)}.name",
                    f"combined resource name length {length} exceeds Grove's {grove_names.POD_NAME_LIMIT}-character "
                    f"pod-name limit ({detail}); this graph would be rejected on the Grove pathway",
                    "grove-name-budget",
                )
            )
    return found


def _images(obj: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    for i, component in components(obj):
        for field in ("containers", "initContainers"):
            for k, container in enumerate(as_list(dig(component, "podTemplate", "spec", field))):
                image = container.get("image") if isinstance(container, dict) else None
                if not isinstance(image, str) or not image or "@" in image:
                    continue  # missing images are the webhook's; digests are pinned
                path = f"{component_path(i)}.podTemplate.spec.{field}[{k}].image"
                tag = image_tag(image)
                if tag is None:
                    found.append(
                        _warn(
                            path,
                            f'image "{image}" has no tag: it resolves to "latest" and is not reproducible',
                            "image-untagged",
                        )
                    )
                elif tag == "latest":
                    found.append(
                        _warn(
                            path,
                            f'image "{image}" uses the "latest" tag: it is not reproducible',
                            "image-latest",
                        )
                    )
    return found
