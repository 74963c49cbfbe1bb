"""GPU-related component rules: GPU memory service, failover, checkpoint, power annotation."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import containers, main_container
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.validate.fielderr import forbidden, invalid
from kubectl_dgd.core.validate.graphview import (
    Pathway,
    as_dict,
    as_list,
    dig,
    effective_mode,
    experimental,
    is_worker,
)

POWER_ANNOTATION = "dynamo.nvidia.com/gpu-power-limit"
_DECIMAL = LazyPattern(r"^[+-]?[0-9]+$")


def is_gpu_resource(name: str) -> bool:
    lowered = name.lower()
    return (
        lowered in ("nvidia.com/gpu", "gpu")
        or lowered.endswith("/gpu")
        or "/mig-" in lowered
        or lowered.startswith("gpu.")
    )


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _DECIMAL.match(value.strip()):
        return int(value.strip())
    return None


def main_gpu_count(component: dict[str, Any]) -> int:
    """Scalar GPUs of the main container; limits take precedence over requests."""
    container = main_container(component) or {}
    resources = as_dict(container.get("resources"))
    for section in ("limits", "requests"):
        for name, quantity in as_dict(resources.get(section)).items():
            if is_gpu_resource(str(name)):
                return _whole(quantity) or 0
    return 0


def check_gms(
    component: dict[str, Any], base: str, way: Pathway, backend: str | None
) -> list[Finding]:
    gms = experimental(component, "gpuMemoryService")
    if gms is None:
        return []
    path = f"{base}.experimental.gpuMemoryService"
    found: list[Finding] = []
    if not is_worker(component):
        found.append(
            forbidden(
                path,
                "GPU memory service is only supported for worker, prefill, or decode components",
                "gms-worker-only",
            )
        )
    elif main_gpu_count(component) < 1:
        found.append(
            forbidden(
                path,
                "GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1",
                "gms-requires-gpu",
            )
        )
    names = {c.get("name") for c in containers(component)}
    for k, name in enumerate(as_list(gms.get("extraClientContainers"))):
        if name not in names:
            found.append(
                invalid(
                    f"{path}.extraClientContainers[{k}]",
                    name,
                    "does not name a container in podTemplate.spec.containers",
                    "gms-extra-client-container",
                )
            )
    if effective_mode(gms) == "InterPod":
        if not way.grove:
            found.append(forbidden(f"{path}.mode", way.reason, "gms-inter-pod-grove-only"))
        if backend != "vllm":
            found.append(
                invalid(
                    f"{path}.mode",
                    "InterPod",
                    "the inter-pod GMS layout is currently supported only for vLLM "
                    f"(detected backend: {backend or '<unset>'})",
                    "gms-inter-pod-vllm-only",
                )
            )
    return found


def check_failover(component: dict[str, Any], base: str) -> list[Finding]:
    failover = experimental(component, "failover")
    if failover is None:
        return []
    path = f"{base}.experimental.failover"
    mode = effective_mode(failover)
    gms = experimental(component, "gpuMemoryService")
    found: list[Finding] = []
    if gms is None:
        found.append(
            forbidden(
                path,
                f'gpuMemoryService is required when failover mode is "{mode}"',
                "failover-requires-gms",
            )
        )
    elif effective_mode(gms) != mode:
        found.append(
            invalid(
                f"{path}.mode",
                mode,
                f'must match gpuMemoryService.mode "{effective_mode(gms)}"',
                "failover-mode-mismatch",
            )
        )
    if mode == "InterPod":
        if main_gpu_count(component) < 1:
            found.append(
                forbidden(
                    path,
                    "GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu",
                    "failover-requires-gpu",
                )
            )
        if component.get("type") in ("frontend", "epp", "planner"):
            found.append(
                forbidden(
                    path,
                    f'GMS failover is not supported for component type "{component.get("type")}"',
                    "failover-component-type",
                )
            )
    return found


def check_checkpoint(component: dict[str, Any], base: str, checkpoint_gate: bool) -> list[Finding]:
    checkpoint = experimental(component, "checkpoint")
    if checkpoint is None:
        return []
    path = f"{base}.experimental.checkpoint"
    enabled = checkpoint.get("enabled") is True
    found: list[Finding] = []
    if enabled and not checkpoint_gate:
        found.append(
            forbidden(
                path,
                "checkpoint functionality is disabled in the operator configuration",
                "checkpoint-disabled",
            )
        )
    if enabled and not component.get("type"):
        found.append(
            forbidden(
                path,
                "checkpoint functionality requires component type to be explicitly set to worker, prefill, or decode",
                "checkpoint-worker-only",
            )
        )
    elif enabled and not is_worker(component):
        found.append(
            forbidden(
                path,
                "checkpoint functionality is supported only for worker, prefill, and decode components",
                "checkpoint-worker-only",
            )
        )
    gms = experimental(component, "gpuMemoryService")
    if as_list(dig(checkpoint, "job", "gmsClientContainers")) and gms is None:
        found.append(
            forbidden(
                f"{path}.job.gmsClientContainers",
                "requires gpuMemoryService to be set",
                "checkpoint-gms-clients",
            )
        )
    if enabled and gms is not None:
        if effective_mode(gms) == "InterPod":
            found.append(
                forbidden(
                    path,
                    "Snapshot with gpuMemoryService.mode=InterPod is unsupported",
                    "checkpoint-inter-pod-gms",
                )
            )
        # 1.3 only: the internal GMS + Snapshot gate (an environment switch; assumed off).
        found.append(
            forbidden(
                path,
                "GMS + Snapshot is temporarily disabled; disable gpuMemoryService or enable the internal GMS + Snapshot gate",
                "checkpoint-gms-snapshot",
            )
        )
    if enabled and experimental(component, "failover") is not None:
        found.append(
            forbidden(
                path,
                "Snapshot with active/passive failover is temporarily unsupported",
                "checkpoint-failover",
            )
        )
    return found


def power_limit(component: dict[str, Any]) -> str | None:
    value = as_dict(dig(component, "podTemplate", "metadata", "annotations")).get(POWER_ANNOTATION)
    return None if value is None else str(value)


def power_path(base: str) -> str:
    return f"{base}.podTemplate.metadata.annotations[{POWER_ANNOTATION}]"


def _dra_path(component: dict[str, Any], base: str) -> str | None:
    if experimental(component, "gpuMemoryService") is not None:
        return f"{base}.experimental.gpuMemoryService"
    for field in ("containers", "initContainers"):
        listed = as_list(dig(component, "podTemplate", "spec", field))
        for k, container in enumerate(listed):
            if isinstance(container, dict) and as_list(dig(container, "resources", "claims")):
                return f"{base}.podTemplate.spec.{field}[{k}].resources.claims"
    return None


def check_power(component: dict[str, Any], base: str) -> list[Finding]:
    value = power_limit(component)
    if value is None:
        return []
    found: list[Finding] = []
    if not _DECIMAL.match(value):
        found.append(
            invalid(power_path(base), value, "must be a decimal integer", "gpu-power-limit-format")
        )
    elif int(value) <= 0:
        found.append(
            invalid(
                power_path(base), value, "must be greater than zero", "gpu-power-limit-positive"
            )
        )
    dra = _dra_path(component, base)
    if dra is not None:
        found.append(
            forbidden(
                dra,
                f'cannot be combined with annotation "{POWER_ANNOTATION}": power-aware planning does not support '
                "DRA-backed device allocation",
                "gpu-power-limit-dra",
            )
        )
    return found
