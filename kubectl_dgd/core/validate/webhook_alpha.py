"""Layer "webhook" for a v1alpha1 request: the rules the operator runs only on v1alpha1 objects.

The operator validates the v1beta1 conversion of a v1alpha1 object, so most findings keep their
``spec.components[i]`` paths (i = position in the name-sorted service list); we only point them
at the line of the alpha field. Two rule families use alpha paths instead, because the webhook
reads the request kind: the main image / runtime version pair (reported at
``spec.services[<name>].extraPodSpec.mainContainer.image`` and ``...runtimeVersionOverride``) and
the LPX gate (``spec.services[<name>].componentType``); and the v1alpha1-only rules and warnings,
which run on the alpha view in sorted service order.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from kubectl_dgd.core.convert import Conversion, service_line_path, service_path
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import VLLM_DISTRIBUTED_EXECUTOR_BACKEND_ANNOTATION as VLLM_BACKEND
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.naming import runtime_namespace
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, required, warning
from kubectl_dgd.core.validate.graphview import as_dict, as_list, dig, spec

# Beta findings the operator skips for a v1alpha1 request; their alpha variants replace them.
IMAGE_CODE = "main-image-required"
RUNTIME_CODE = "runtime-version-required"
LPX_GATE_CODE = "lpx-gate"
_SERVICE_BRACKET = LazyPattern(r"^spec\.services\[([^\]]*)\]")
_SERVICE_DOTTED = LazyPattern(r"^spec\.services\.([A-Za-z_][A-Za-z0-9_-]*)")
# The namespace a manifest without one is applied to (kubectl's default context namespace).
DEFAULT_NAMESPACE = "default"


def relocate(findings: list[Finding], conversion: Conversion) -> list[Finding]:
    """Findings on the converted object, each pointed at the line of its alpha source field.
    The LPX gate reads the request kind and names the alpha field."""
    out: list[Finding] = []
    for finding in findings:
        name = _component_service(finding.path, conversion)
        if finding.code == LPX_GATE_CODE and name is not None:
            path = f"{service_path(name)}.componentType"
            out.append(replace(finding, path=path, where=line_path(path)))
        else:
            out.append(finding.located(conversion.alpha_path(finding.path) or finding.where))
    return out


def line_path(path: str) -> str:
    """An alpha path in the operator's bracket notation (``spec.services[w].x``) as the loader keys it."""
    match = _SERVICE_BRACKET.match(path)
    if match is None:
        return path
    return service_line_path(match.group(1)) + path[match.end() :]


def cel_service_path(finding: Finding) -> Finding:
    """A schema or CEL finding of the v1alpha1 object, at its line. The API server words CEL
    paths of map entries with brackets (``spec.services[worker].sharedMemory``) and schema
    paths with dots (``spec.services.worker.volumeMounts[0].name``)."""
    path = finding.path
    if finding.layer == "cel":
        path = _SERVICE_DOTTED.sub(lambda m: f"spec.services[{m.group(1)}]", path)
    return replace(finding, path=path, where=line_path(path))


def split_runtime(
    findings: list[Finding], conversion: Conversion
) -> tuple[list[Finding], dict[str, tuple[Finding | None, Finding | None]]]:
    """The beta findings without the image/runtime pair, and that pair per service name."""
    kept: list[Finding] = []
    pairs: dict[str, tuple[Finding | None, Finding | None]] = {}
    for finding in findings:
        name = _component_service(finding.path, conversion)
        if finding.code in (IMAGE_CODE, RUNTIME_CODE) and name is not None:
            image, runtime = pairs.get(name, (None, None))
            if finding.code == IMAGE_CODE:
                image = finding
            else:
                runtime = finding
            pairs[name] = (image, runtime)
            continue
        kept.append(finding)
    return kept, pairs


def _component_service(path: str, conversion: Conversion) -> str | None:
    match = re.match(r"^spec\.components\[(\d+)\]", path)
    return None if match is None else conversion.services.get(int(match.group(1)))


def check(
    alpha: dict[str, Any],
    runtime: dict[str, tuple[Finding | None, Finding | None]],
) -> list[Finding]:
    """The v1alpha1-only rules on the (defaulted) alpha object, services sorted by name."""
    found: list[Finding] = []
    for i, pvc in enumerate(as_list(spec(alpha).get("pvcs"))):
        if isinstance(pvc, dict) and not pvc.get("name"):
            path = f"spec.pvcs[{i}].name"
            found.append(required(path, "is required", "alpha-pvc-name"))
    services = as_dict(spec(alpha).get("services"))
    meta = as_dict(alpha.get("metadata"))
    for name in sorted(services, key=str):
        service = services[name]
        if isinstance(service, dict):
            found += _service(str(name), service, meta, runtime.get(str(name), (None, None)))
    return [f if f.where else f.located(line_path(f.path)) for f in found]


def _warning(path: str, message: str, code: str) -> Finding:
    """An admission warning is a sentence that names its field itself (kubectl prints it after
    "Warning:"); the field is kept only to find its line."""
    return warning("", message, code).located(line_path(path))


def _service(
    name: str,
    svc: dict[str, Any],
    meta: dict[str, Any],
    runtime: tuple[Finding | None, Finding | None],
) -> list[Finding]:
    base = service_path(name)
    found: list[Finding] = []
    notes = as_dict(svc.get("annotations"))
    if VLLM_BACKEND in notes and str(notes[VLLM_BACKEND]).lower() not in ("mp", "ray"):
        found.append(
            invalid(
                f"{base}.annotations[{VLLM_BACKEND}]",
                notes[VLLM_BACKEND],
                'must be "mp" or "ray"',
                "alpha-vllm-backend-annotation",
            )
        )
    namespace_value = svc.get("dynamoNamespace")
    if isinstance(namespace_value, str) and namespace_value:
        replaced = runtime_namespace(
            str(meta.get("namespace") or DEFAULT_NAMESPACE),
            str(meta.get("name") or ""),
            svc.get("globalDynamoNamespace") is True,
        )
        found.append(
            _warning(
                f"{base}.dynamoNamespace",
                f'{base}.dynamoNamespace is deprecated and ignored. Value "{namespace_value}" will '
                f'be replaced with "{replaced}". Remove this field from your configuration',
                "dynamo-namespace-deprecated",
            )
        )
    if svc.get("autoscaling") is not None:
        found.append(
            _warning(
                f"{base}.autoscaling",
                f"{base}.autoscaling is deprecated and ignored. Use DynamoGraphDeploymentScalingAdapter "
                "with HPA, KEDA, or Planner for autoscaling instead. See docs/kubernetes/autoscaling.md",
                "autoscaling-deprecated",
            )
        )
    for k, mount in enumerate(as_list(svc.get("volumeMounts"))):
        if isinstance(mount, dict) and not (
            mount.get("useAsCompilationCache") is True or mount.get("mountPoint")
        ):
            found.append(
                required(
                    f"{base}.volumeMounts[{k}].mountPoint",
                    "is required when useAsCompilationCache is false",
                    "alpha-volume-mount-point",
                )
            )
    ingress = svc.get("ingress")
    if isinstance(ingress, dict) and ingress.get("enabled") is True and not ingress.get("host"):
        found.append(
            required(
                f"{base}.ingress.host", "is required when ingress is enabled", "alpha-ingress-host"
            )
        )
    epp = svc.get("eppConfig")
    if isinstance(epp, dict) and (epp.get("configMapRef") is None) == (epp.get("config") is None):
        found.append(
            forbidden(
                f"{base}.eppConfig",
                "exactly one of configMapRef or config is required",
                "alpha-epp-config",
            )
        )
    if svc.get("frontendSidecar") is not None and any(
        isinstance(c, dict) and c.get("name") == "sidecar-frontend"
        for c in as_list(dig(svc, "extraPodSpec", "containers"))
    ):
        found.append(
            forbidden(
                f"{base}.frontendSidecar",
                'cannot inject frontend sidecar: a container named "sidecar-frontend" already '
                "exists in extraPodSpec.containers",
                "alpha-frontend-sidecar-conflict",
            )
        )
    failover = svc.get("failover")
    if (
        isinstance(failover, dict)
        and failover.get("enabled") is True
        and failover.get("mode") == "intraPod"
        and failover.get("numShadows") not in (None, 0, 1)
    ):
        found.append(
            invalid(
                f"{base}.failover.numShadows",
                failover.get("numShadows"),
                'is invalid for mode="intraPod": intraPod uses a fixed 1 primary + 1 shadow '
                'sidecar; use failover.mode="interPod" to configure numShadows',
                "alpha-failover-num-shadows",
            )
        )
    found += _runtime(name, svc, runtime)
    return found


def _runtime(
    name: str, svc: dict[str, Any], pair: tuple[Finding | None, Finding | None]
) -> list[Finding]:
    """The beta rule's verdict, at the alpha paths; a missing image is reported alone."""
    image_finding, runtime_finding = pair
    image = dig(svc, "extraPodSpec", "mainContainer", "image")
    base = service_path(name)
    if image_finding is not None and not image:
        return [
            required(
                f"{base}.extraPodSpec.mainContainer.image",
                _detail(image_finding.message),
                IMAGE_CODE,
            )
        ]
    if runtime_finding is not None and image:
        return [
            required(
                f"{base}.runtimeVersionOverride", _detail(runtime_finding.message), RUNTIME_CODE
            )
        ]
    return []


def _detail(message: str) -> str:
    return message.removeprefix("Required value: ")
