"""Per-component webhook rules: Grove-only fields, shapes, main image, runtime version, EPP."""

from __future__ import annotations

import re
from typing import Any

from kubectl_dgd.core.backend import detect_backend
from kubectl_dgd.core.containers import (
    containers,
    main_container_index,
    main_image,
    pod_spec,
    string_list,
)
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import NEWEST_VERSION, at_least
from kubectl_dgd.core.runtime_version import (
    RuntimeVersion,
    parse_runtime_version,
    resolved_runtime_version,
)
from kubectl_dgd.core.validate import (
    grove_names,
    webhook_gpu,
    webhook_lpx,
    webhook_roles,
    webhook_sidecar,
)
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, not_checked, required
from kubectl_dgd.core.validate.graphview import Pathway, dig, experimental, is_worker, node_count

NATIVE_RUST_EPP = RuntimeVersion(1, 5, 0)
RUNTIME_OVERRIDE_REQUIRED = (
    "is required when the specified main container image has no parseable semantic-version tag"
)
ELASTIC_EP_COMMAND = (
    "elastic expert parallelism (--enable-elastic-ep with --data-parallel-backend ray) requires an explicit "
    "container command; the operator starts the single-pod Ray head by wrapping that command and cannot "
    "start it from the image ENTRYPOINT"
)
INFERENCE_POOL_NOT_CHECKED = (
    "InferencePool API availability not checked offline: the operator rejects EPP components when the "
    "Gateway API Inference Extension is not installed"
)
GROVE_ONLY = "is currently supported only for Grove-backed DynamoGraphDeployment components"


class ComponentContext:
    """What the rules of one component need to know about the rest of the graph."""

    def __init__(
        self,
        *,
        way: Pathway,
        dgd_name: str,
        all_components: list[dict[str, Any]],
        backend: str | None,
        checkpoint_gate: bool,
        old: dict[str, Any] | None,
        version: str = NEWEST_VERSION,
    ) -> None:
        self.way = way
        self.dgd_name = dgd_name
        self.all_components = all_components
        self.backend = backend
        self.checkpoint_gate = checkpoint_gate
        self.old = old  # the same-named component of the stored object, on update
        self.version = version  # the operator release whose rule variants apply


def check(component: dict[str, Any], base: str, ctx: ComponentContext) -> list[Finding]:
    found: list[Finding] = []
    found += webhook_lpx.check_component(component, base)
    found += _grove_only_fields(component, base, ctx.way)
    found += webhook_roles.check(component, base)
    found += webhook_roles.check_template_mode(component, base)
    found += _shared_memory(component, base)
    found += _multinode_types(component, base, ctx.old)
    # Releases before 1.6 know no LPX type: such a component is an ordinary one to them.
    lpx = webhook_lpx.is_lpx(component) and at_least(ctx.version, "1.6")
    if not lpx:
        # LPX components carry their pod templates in roles and need no runtime version (API page).
        found += _main_image(component, base, ctx.old)
        found += _runtime_version(component, base, ctx.old, ctx.version)
    found += _frontend_sidecar(component, base, ctx.version)
    found += _epp(component, base, ctx)
    # 1.6: after the frontend sidecar, before the experimental layouts (the operator's order).
    found += webhook_sidecar.check(component, base)
    found += _role_template_layouts(component, base)
    if not webhook_roles.has_role_templates(component):
        found += webhook_gpu.check_gms(component, base, ctx.way, ctx.backend)
        found += webhook_gpu.check_failover(component, base)
    found += webhook_gpu.check_checkpoint(component, base, ctx.checkpoint_gate)
    found += webhook_gpu.check_power(component, base)
    found += _elastic_ep(component, base, ctx.backend)
    # 1.6 LPX engines are not limited by generated PodCliqueScalingGroup names (70778590138).
    if ctx.way.grove and not lpx:
        found += _grove_name_length(component, base, ctx)
    return found


ROLE_TEMPLATE_LAYOUT = (
    "cannot be combined with role PodTemplates because this layout requires operator-managed "
    "launch wiring"
)


def _role_template_layouts(component: dict[str, Any], base: str) -> list[Finding]:
    if not webhook_roles.has_role_templates(component):
        return []
    return [
        forbidden(f"{base}.experimental.{key}", ROLE_TEMPLATE_LAYOUT, "gms-role-templates")
        for key in ("gpuMemoryService", "failover")
        if experimental(component, key) is not None
    ]


def _grove_only_fields(component: dict[str, Any], base: str, way: Pathway) -> list[Finding]:
    if way.grove:
        return []
    found: list[Finding] = []
    if component.get("minAvailable") is not None:
        found.append(forbidden(f"{base}.minAvailable", GROVE_ONLY, "min-available-grove-only"))
    if (experimental(component, "grove") or {}).get("forceScalingGroup") is True:
        found.append(
            forbidden(
                f"{base}.experimental.grove.forceScalingGroup",
                GROVE_ONLY,
                "force-scaling-group-grove-only",
            )
        )
    return found


def _is_negative_quantity(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return value < 0
    return (
        isinstance(value, str)
        and value.strip().startswith("-")
        and bool(re.search(r"[1-9]", value))
    )


def _shared_memory(component: dict[str, Any], base: str) -> list[Finding]:
    value = component.get("sharedMemorySize")
    if value is None or not _is_negative_quantity(value):
        return []
    return [
        invalid(
            f"{base}.sharedMemorySize", str(value), "must be non-negative", "shared-memory-negative"
        )
    ]


def _multinode_types(
    component: dict[str, Any], base: str, old: dict[str, Any] | None
) -> list[Finding]:
    multinode = component.get("multinode")
    if multinode is None or is_worker(component):
        return []
    if (
        not webhook_lpx.is_lpx(component)
        and old is not None
        and old.get("multinode") == multinode
        and old.get("type") == component.get("type")
    ):
        return []  # an unchanged legacy shape stays updatable
    return [
        forbidden(
            f"{base}.multinode",
            "multinode is supported only for worker, prefill, or decode components",
            "multinode-worker-only",
        )
    ]


def _main_image(component: dict[str, Any], base: str, old: dict[str, Any] | None) -> list[Finding]:
    if webhook_roles.has_role_templates(component):
        return []  # each role template names its own main image (role rules)
    if main_image(component):
        return []
    if old is not None and not main_image(old):
        return []  # legacy components without an image stay updatable while it stays missing
    index = main_container_index(component)
    path = f"{base}.podTemplate.spec.containers"
    if index is not None:
        path = f"{path}[{index}].image"
    return [required(path, "is required", "main-image-required")]


def _runtime_image(component: dict[str, Any], version: str = "1.5") -> str:
    """The image that carries the Dynamo runtime: from 1.6, in Dynamo sidecar mode, the
    ``runtime`` init container's ("DGD admission requires runtimeVersionOverride ... when the
    runtime image has no parseable semantic-version tag. The runtime image is
    initContainers[name=runtime].image in Dynamo sidecar mode", 1.6 API docs 70243226474 and
    70638219375, as the 1.6 worker hash reads it, 70474665178); else the ``main`` container's."""
    if webhook_roles.has_role_templates(component):
        return webhook_roles.first_role_main_image(component)
    index = webhook_sidecar.runtime_index(component) if at_least(version, "1.6") else None
    if index is not None:
        image = pod_spec(component)["initContainers"][index].get("image")
        return image if isinstance(image, str) else ""
    return main_image(component)


def _runtime_inputs(component: dict[str, Any], version: str = "1.5") -> tuple[str, Any]:
    return _runtime_image(component, version), component.get("runtimeVersionOverride")


def _runtime_version(
    component: dict[str, Any], base: str, old: dict[str, Any] | None, version: str
) -> list[Finding]:
    if old is not None and _runtime_inputs(old, version) == _runtime_inputs(component, version):
        return []  # ratcheting: re-checked only when the image or the override changes
    if not webhook_roles.has_role_templates(component) and not main_image(component):
        return []  # exclusive with the image rule: a missing image gets only that error
    image = _runtime_image(component, version)
    if not image:
        return []  # an empty init-container image is the CRD's error
    if component.get("runtimeVersionOverride") or parse_runtime_version(image) is not None:
        return []
    return [
        required(
            f"{base}.runtimeVersionOverride", RUNTIME_OVERRIDE_REQUIRED, "runtime-version-required"
        )
    ]


def _frontend_sidecar(component: dict[str, Any], base: str, version: str) -> list[Finding]:
    """CO10; 1.6 checks the empty name first and looks into role templates (70561057532)."""
    if component.get("frontendSidecar") is None:
        return []
    target = component["frontendSidecar"]
    path = f"{base}.frontendSidecar"
    empty = invalid(path, target, "must not be empty", "frontend-sidecar-empty")
    no_template = required(
        f"{base}.podTemplate.spec.containers",
        "is required when frontendSidecar is set",
        "frontend-sidecar-containers",
    )
    if not at_least(version, "1.6"):
        if component.get("podTemplate") is None:
            return [no_template]
        if target == "":
            return [empty]
    elif target == "":
        return [empty]
    elif webhook_roles.has_role_templates(component):
        return [
            invalid(
                f"{base}.roles[{j}].podTemplate.spec.containers",
                target,
                "must contain the container named by frontendSidecar",
                "frontend-sidecar-containers",
            )
            for j, role in webhook_roles.roles_of(component)
            if isinstance(role.get("podTemplate"), dict)
            and target not in _names(dig(role, "podTemplate", "spec", "containers"))
        ]
    elif component.get("podTemplate") is None:
        return [no_template]
    if target not in {c.get("name") for c in containers(component)}:
        return [
            invalid(
                path,
                target,
                "must match a podTemplate.spec.containers name",
                "frontend-sidecar-unknown",
            )
        ]
    return []


def _names(listed: Any) -> set[Any]:
    return (
        {c.get("name") for c in listed if isinstance(c, dict)}
        if isinstance(listed, list)
        else set()
    )


def _epp_contract(component: dict[str, Any]) -> tuple[Any, ...]:
    return (component.get("type"), *_runtime_inputs(component), component.get("eppConfig"))


def _epp(component: dict[str, Any], base: str, ctx: ComponentContext) -> list[Finding]:
    if component.get("type") != "epp":
        return []
    old = ctx.old
    native = at_least(ctx.version, "1.6")  # the Rust EPP era (68937854049)
    found = [
        not_checked(f"{base}.type", INFERENCE_POOL_NOT_CHECKED, "epp-inference-pool-not-checked")
    ]
    if node_count(component) > 1:
        found.append(
            forbidden(f"{base}.multinode", "EPP component cannot be multinode", "epp-multinode")
        )
    replicas = component.get("replicas", 1)
    legacy_go = component.get("eppConfig") is not None
    if replicas is not None and replicas != 1 and (legacy_go or not native):
        found.append(
            invalid(
                f"{base}.replicas",
                replicas,
                "EPP component must have exactly 1 replica",
                "epp-replicas",
            )
        )
    config = component.get("eppConfig")
    if config is None:
        found.append(
            required(f"{base}.eppConfig", "is required for EPP components", "epp-config-missing")
        )
    if (
        isinstance(config, dict)
        and isinstance(config.get("configMapRef"), dict)
        and not dig(config, "configMapRef", "name")
    ):
        found.append(
            required(f"{base}.eppConfig.configMapRef.name", "is required", "epp-configmap-name")
        )
    contract = _epp_runtime_contract(component, base)
    if contract is not None and not (
        old is not None and _epp_contract(old) == _epp_contract(component)
    ):
        found.append(contract)
    return found


def _epp_runtime_contract(component: dict[str, Any], base: str) -> Finding | None:
    """Native Rust EPP (runtime >= 1.5.0) takes no eppConfig; the legacy Go EPP requires one."""
    version = resolved_runtime_version(component)
    if version is None:
        return None  # the runtime-version rule reports it
    path = f"{base}.eppConfig"
    has_config = component.get("eppConfig") is not None
    if version >= NATIVE_RUST_EPP and has_config:
        return forbidden(
            path,
            "must be omitted for native Rust EPP images with runtime version 1.5.0 or later",
            "epp-config-forbidden",
        )
    if version < NATIVE_RUST_EPP and not has_config:
        return required(
            path,
            "is required for legacy Go EPP images with runtime version earlier than 1.5.0",
            "epp-config-required",
        )
    return None


def is_elastic_ep_ray(container: dict[str, Any]) -> bool:
    words = string_list(container.get("command")) + string_list(container.get("args"))
    elastic = "--enable-elastic-ep" in words
    ray = False
    for k, word in enumerate(words):
        if (
            word in ("--data-parallel-backend", "-dpb")
            and k + 1 < len(words)
            and words[k + 1] == "ray"
        ):
            ray = True
        if word in ("--data-parallel-backend=ray", "-dpb=ray"):
            ray = True
    return elastic and ray


def _elastic_ep(component: dict[str, Any], base: str, backend: str | None) -> list[Finding]:
    effective = backend or detect_backend(component)
    index = main_container_index(component)
    if effective != "vllm" or index is None:
        return []
    container = dig(component, "podTemplate", "spec", "containers")[index]
    if string_list(container.get("command")) or not is_elastic_ep_ray(container):
        return []
    path = f"{base}.podTemplate.spec.containers[{index}].command"
    return [required(path, ELASTIC_EP_COMMAND, "elastic-ep-command")]


def _grove_name_length(
    component: dict[str, Any], base: str, ctx: ComponentContext
) -> list[Finding]:
    length, detail = grove_names.combined_length(ctx.dgd_name, ctx.all_components, component)
    if length <= grove_names.POD_NAME_LIMIT:
        return []
    name = str(component.get("name", ""))
    message = (
        f"combined resource name length {length} exceeds the {grove_names.POD_NAME_LIMIT}-character pod-name "
        f'limit ({detail}); shorten DynamoGraphDeployment name "{ctx.dgd_name}" or component name "{name}"'
    )
    return [invalid(f"{base}.name", name, message, "grove-name-length")]
