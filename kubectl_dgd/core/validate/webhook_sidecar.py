"""1.6 Dynamo sidecar mode: an init container named ``runtime`` in the component's pod template.

The reserved name selects sidecar mode whatever else the container says, so the operator checks
the contract on it (``dynamo.ValidateDynamoSidecar``, search index 70139814946): worker-class
components only, ``restartPolicy: Always`` (a native sidecar), a ``main`` engine container with an
image, and none of the layouts sidecar mode does not support yet (multinode, checkpoint, GPU memory
service, failover). Role pod templates refuse the runtime container outright (``webhook_roles``).
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import MAIN_CONTAINER, pod_spec
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, required
from kubectl_dgd.core.validate.graphview import experimental, is_worker

RUNTIME_CONTAINER = "runtime"
PLANNED = "support is planned for a future release"


def runtime_index(component: dict[str, Any]) -> int | None:
    """Index of the first ``runtime`` init container, None outside sidecar mode."""
    init = pod_spec(component).get("initContainers")
    for k, container in enumerate(init if isinstance(init, list) else []):
        if isinstance(container, dict) and container.get("name") == RUNTIME_CONTAINER:
            return k
    return None


def check(component: dict[str, Any], base: str) -> list[Finding]:
    index = runtime_index(component)
    if index is None:
        return []
    runtime = pod_spec(component)["initContainers"][index]
    runtime_path = f"{base}.podTemplate.spec.initContainers[{index}]"
    detail = f'component "{component.get("name") or ""}" with a runtime init container'
    found: list[Finding] = []
    if not is_worker(component):
        found.append(
            forbidden(
                f"{runtime_path}.name",
                "is supported only for worker, prefill, and decode components",
                "dynamo-sidecar-worker-only",
            )
        )
    policy = runtime.get("restartPolicy")
    if policy != "Always":
        found.append(
            invalid(
                f"{runtime_path}.restartPolicy",
                policy if policy is not None else "",
                f"must be Always for {detail}",
                "dynamo-sidecar-restart-policy",
            )
        )
    found += _engine(component, base, detail)
    if component.get("multinode") is not None:
        found.append(_unsupported(f"{base}.multinode", detail))
    checkpoint = experimental(component, "checkpoint")
    if isinstance(checkpoint, dict) and checkpoint.get("enabled") is True:
        found.append(_unsupported(f"{base}.experimental.checkpoint.enabled", detail))
    for key in ("gpuMemoryService", "failover"):
        if experimental(component, key) is not None:
            found.append(_unsupported(f"{base}.experimental.{key}", detail))
    return found


def _engine(component: dict[str, Any], base: str, detail: str) -> list[Finding]:
    """The ``main`` container stays the engine in sidecar mode and needs its image."""
    listed = pod_spec(component).get("containers")
    for k, container in enumerate(listed if isinstance(listed, list) else []):
        if isinstance(container, dict) and container.get("name") == MAIN_CONTAINER:
            if container.get("image"):
                return []
            return [
                required(
                    f"{base}.podTemplate.spec.containers[{k}].image",
                    f"engine image is required for {detail}",
                    "dynamo-sidecar-engine",
                )
            ]
    return [
        required(
            f"{base}.podTemplate.spec.containers",
            f"main engine container is required for {detail}",
            "dynamo-sidecar-engine",
        )
    ]


def _unsupported(path: str, detail: str) -> Finding:
    return forbidden(
        path, f"is not currently supported for {detail}; {PLANNED}", "dynamo-sidecar-layout"
    )
