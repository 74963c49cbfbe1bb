"""Component ``roles[]`` (1.6): the role schema of multinode and LPX components.

Multinode components may name ``leader`` and ``worker`` roles (both required once roles are
given); LPX components ``agent`` (required) and ``conductor``. LPX role pod templates are
checked by ``webhook_lpx.check_role_template``; the rest of the per-role rules live here.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import MAIN_CONTAINER
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate import webhook_lpx
from kubectl_dgd.core.validate.fielderr import duplicate, forbidden, invalid, required, unsupported
from kubectl_dgd.core.validate.graphview import as_dict, as_list, dig, node_count
from kubectl_dgd.core.validate.webhook_gpu import POWER_ANNOTATION

MULTINODE_ROLES = ("leader", "worker")
LPX_ROLES = ("conductor", "agent")
RUNTIME_SIDECAR = "runtime"
VLLM_BACKEND = "nvidia.com/vllm-distributed-executor-backend"
SHAPES = (
    "roles are supported only for component shapes that define a role schema; this release "
    "supports multinode and LPX components"
)


def roles_of(component: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(j, r) for j, r in enumerate(as_list(component.get("roles"))) if isinstance(r, dict)]


def has_role_templates(component: dict[str, Any]) -> bool:
    """Any role carries its own pod template (the operator's HasRolePodTemplates)."""
    return any(isinstance(r.get("podTemplate"), dict) for _, r in roles_of(component))


def first_role_main_image(component: dict[str, Any]) -> str:
    """The main image of the first role template that has one (what the runtime version reads)."""
    for _, role in roles_of(component):
        for container in as_list(dig(role, "podTemplate", "spec", "containers")):
            if isinstance(container, dict) and container.get("name") == MAIN_CONTAINER:
                image = container.get("image")
                if isinstance(image, str) and image:
                    return image
    return ""


def check(component: dict[str, Any], base: str) -> list[Finding]:
    """The role rules, run when the component has ``roles`` or is LPX."""
    lpx = webhook_lpx.is_lpx(component)
    if component.get("roles") is None and not lpx:
        return []
    path = f"{base}.roles"
    if not lpx and component.get("multinode") is None:
        return [forbidden(path, SHAPES, "roles-unsupported-shape")]
    supported = LPX_ROLES if lpx else MULTINODE_ROLES
    needed = ("agent",) if lpx else MULTINODE_ROLES
    templates = has_role_templates(component)
    seen: set[str] = set()
    found: list[Finding] = []
    for j, role in roles_of(component):
        role_path = f"{path}[{j}]"
        name = role.get("name")
        if not lpx and templates and not isinstance(role.get("podTemplate"), dict):
            found.append(
                required(
                    f"{role_path}.podTemplate",
                    "is required on every role when role-specific PodTemplates are used",
                    "role-template-required",
                )
            )
        known = name in supported
        if not known:
            found.append(unsupported(f"{role_path}.name", name, supported, "role-name"))
        elif name in seen:
            found.append(duplicate(f"{role_path}.name", name, "role-name"))
        else:
            seen.add(str(name))
        replicas = role.get("replicas")
        if not lpx and known and replicas is not None:
            expected = 1 if name == "leader" else node_count(component) - 1
            if replicas != expected:
                found.append(
                    invalid(
                        f"{role_path}.replicas",
                        replicas,
                        f'must equal {expected} for multinode role "{name}"',
                        "role-replicas",
                    )
                )
        if known or lpx:
            found += _role_spec(role, role_path, lpx)
    for name in needed:
        if name not in seen:
            found.append(required(path, f'must contain the "{name}" role', "role-required"))
    return found


def check_template_mode(component: dict[str, Any], base: str) -> list[Finding]:
    """One complete pod-template source: the component's, or one on every role."""
    if webhook_lpx.is_lpx(component) or not has_role_templates(component):
        return []
    if component.get("podTemplate") is None:
        return []
    return [
        forbidden(
            f"{base}.podTemplate",
            "cannot be combined with roles[].podTemplate; choose one complete PodTemplate source mode",
            "role-template-mode",
        )
    ]


def _role_spec(role: dict[str, Any], path: str, lpx: bool) -> list[Finding]:
    template = role.get("podTemplate")
    found: list[Finding] = []
    if isinstance(template, dict):
        for k, init in enumerate(as_list(dig(template, "spec", "initContainers"))):
            if isinstance(init, dict) and init.get("name") == RUNTIME_SIDECAR:
                found.append(
                    forbidden(
                        f"{path}.podTemplate.spec.initContainers[{k}].name",
                        "Dynamo sidecar mode is not supported in multinode or LPX role pod templates",
                        "role-sidecar-mode",
                    )
                )
    if lpx:
        if isinstance(template, dict):
            found += webhook_lpx.check_role_template(template, f"{path}.podTemplate", role)
        elif role.get("name") == "agent":
            found.append(
                required(
                    f"{path}.podTemplate",
                    "the LPX agent role requires a podTemplate",
                    "lpx-agent-template",
                )
            )
        return found
    if isinstance(template, dict):
        found += _multinode_template(template, f"{path}.podTemplate")
    return found


def _multinode_template(template: dict[str, Any], path: str) -> list[Finding]:
    notes = as_dict(dig(template, "metadata", "annotations"))
    found: list[Finding] = []
    annotations = f"{path}.metadata.annotations"
    if VLLM_BACKEND in notes and str(notes[VLLM_BACKEND]).lower() not in ("mp", "ray"):
        found.append(
            invalid(
                f"{annotations}[{VLLM_BACKEND}]",
                notes[VLLM_BACKEND],
                'must be "mp" or "ray"',
                "role-annotations",
            )
        )
    if POWER_ANNOTATION in notes:
        found.append(
            forbidden(
                f"{annotations}[{POWER_ANNOTATION}]",
                "role-specific power limits are not supported by power-aware planning",
                "role-annotations",
            )
        )
    containers_path = f"{path}.spec.containers"
    listed = as_list(dig(template, "spec", "containers"))
    main_index = None
    for k, container in enumerate(listed):
        if not isinstance(container, dict):
            continue
        if container.get("name") == MAIN_CONTAINER:
            main_index = k if main_index is None else main_index
        elif not container.get("image"):
            found.append(
                required(
                    f"{containers_path}[{k}].image",
                    "is required for sidecar containers",
                    "role-container-image",
                )
            )
    for k, init in enumerate(as_list(dig(template, "spec", "initContainers"))):
        if isinstance(init, dict) and not init.get("image"):
            found.append(
                required(
                    f"{path}.spec.initContainers[{k}].image",
                    "is required for init containers",
                    "role-container-image",
                )
            )
    if main_index is None:
        found.append(
            required(
                containers_path, 'must contain a container named "main"', "role-main-container"
            )
        )
    elif not listed[main_index].get("image"):
        found.append(
            required(f"{containers_path}[{main_index}].image", "is required", "role-main-container")
        )
    return found
