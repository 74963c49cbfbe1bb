"""nvidia.com/v1alpha1 DynamoGraphDeployment -> nvidia.com/v1beta1, as the operator converts it.

The operator's conversion (``deploy/operator/api/v1alpha1/*_conversion.go`` upstream) is
what the validating webhook and the controller see for a v1alpha1 object, so validate, render,
status and diff all go through this one function. It works on plain mappings of any shape (the
schema layer reports shapes) and never raises.

Fields the operator can only keep in its ``nvidia.com/dgd-spec`` bookkeeping annotation (PVCs,
service ingress, labels and annotations, ...) are listed in ``lossy``: the converted object still
validates and renders as the operator would, but ``convert`` refuses to write it. Fields the
operator ignores (``dynamoNamespace``, ``autoscaling``) are dropped with a note.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.convert.pathmap import PathMap
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.paths import child
from kubectl_dgd.model.kinds import V1BETA1

MAIN = "main"
FRONTEND_SIDECAR = "sidecar-frontend"
DEFAULT_GPU_RESOURCE = "nvidia.com/gpu"
CONVERSION_ANNOTATION_PREFIX = "nvidia.com/dgd-"
GMS_MODES = {"intraPod": "IntraPod", "interPod": "InterPod"}
_QUANTITY = LazyPattern(
    r"^[+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
# Service keys whose value lands inside the pod template (main container or pod spec).
_POD_KEYS = (
    "resources",
    "envs",
    "envFromSecret",
    "livenessProbe",
    "readinessProbe",
    "extraPodSpec",
    "extraPodMetadata",
    "frontendSidecar",
    "volumeMounts",
)
_SAME_NAME = (
    "runtimeVersionOverride",
    "globalDynamoNamespace",
    "replicas",
    "minAvailable",
    "modelRef",
    "eppConfig",
    "providerOverride",
    "multinode",
    "lpx",
    "roles",
)


@dataclass
class Conversion:
    """The v1beta1 object, where its fields came from, and what the conversion could not carry."""

    obj: dict[str, Any]
    paths: PathMap
    # One-line reasons the v1beta1 object cannot stand in for the source (convert refuses).
    lossy: list[str] = field(default_factory=list)
    # Fields dropped because the operator ignores them (convert says so, and goes on).
    dropped: list[str] = field(default_factory=list)
    # v1beta1 component index -> v1alpha1 service name (services in sorted order).
    services: dict[int, str] = field(default_factory=dict)

    def alpha_path(self, beta_path: str) -> str | None:
        return self.paths.alpha_of(beta_path)


def preserved_pod_metadata(obj: dict[str, Any]) -> dict[str, dict[str, dict[str, str]]]:
    """Service-level ``labels`` and ``annotations`` of a v1alpha1 graph, by service name: what the
    operator keeps in its conversion record and its renderer reads back (``getDGDAlphaComponent``).
    They reach the workload pods (under the pod template's own, which win), not the DCD's spec."""
    services = _as_dict(_as_dict(obj.get("spec")).get("services"))
    result: dict[str, dict[str, dict[str, str]]] = {}
    for name, service in services.items():
        kept = {
            key: {str(k): str(v) for k, v in value.items()}
            for key in ("labels", "annotations")
            if isinstance(value := _as_dict(service).get(key), dict) and value
        }
        if kept:
            result[str(name)] = kept
    return result


def for_render(obj: dict[str, Any]) -> dict[str, Any]:
    """The conversion with the preserved service ``labels``/``annotations`` written under each
    pod template's own (which win): a one-object view of what the workload pods get."""
    conv = alpha_to_beta(obj)
    preserved = preserved_pod_metadata(obj)
    for i, name in conv.services.items():
        component = conv.obj["spec"]["components"][i]
        if not isinstance(component, dict) or name not in preserved:
            continue
        for key, values in preserved[name].items():
            template = component.setdefault("podTemplate", {})
            if not isinstance(template, dict):
                continue
            metadata = template.setdefault("metadata", {})
            if isinstance(metadata, dict):
                metadata[key] = {**values, **_as_dict(metadata.get(key))}
    return conv.obj


def service_path(name: str) -> str:
    """The operator's path of a service in messages: ``spec.services[<name>]`` (map key brackets)."""
    return f"spec.services[{name}]"


def service_line_path(name: str) -> str:
    """The same service in the loader's notation, to find its line."""
    return child("spec.services", name)


def alpha_to_beta(obj: dict[str, Any]) -> Conversion:
    """Convert a v1alpha1 DGD mapping; the input is never changed."""
    conv = Conversion(obj={}, paths=PathMap())
    out = conv.obj
    for key, value in obj.items():
        if key == "apiVersion":
            out[key] = V1BETA1
        elif key == "metadata":
            out[key] = _metadata(value, conv)
        elif key == "spec":
            out[key] = _spec(value, conv)
        elif key == "status":
            out[key] = _status(value)
        else:
            out[key] = copy.deepcopy(value)
    for key in ("metadata", "spec", "status", "kind", "apiVersion"):
        conv.paths.add(key, key)
    return conv


def _metadata(value: Any, conv: Conversion) -> Any:
    result = copy.deepcopy(value)
    notes = result.get("annotations") if isinstance(result, dict) else None
    if isinstance(notes, dict):
        for key in [k for k in notes if str(k).startswith(CONVERSION_ANNOTATION_PREFIX)]:
            conv.lossy.append(
                f"metadata.annotations[{key}]: the operator's own conversion record; convert the "
                "stored object instead (kubectl get dgd NAME -o yaml reads it as v1beta1)"
            )
            del notes[key]
    return result


def _spec(value: Any, conv: Conversion) -> Any:
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    out: dict[str, Any] = {}
    paths = conv.paths
    for key, item in value.items():
        if key == "services":
            paths.add("spec.components", "spec.services")
            out["components"] = _services(item, conv)
        elif key == "envs":
            paths.add("spec.env", "spec.envs")
            out["env"] = copy.deepcopy(item)
        elif key == "pvcs":
            if item:
                conv.lossy.append(
                    "spec.pvcs: v1beta1 has no PVC list (the operator creates these PVCs only from "
                    "its v1alpha1 record); create the PVCs as their own objects and remove spec.pvcs"
                )
        elif key in ("components", "env"):
            # v1beta1 names, unknown to v1alpha1: the API server prunes them before converting.
            conv.dropped.append(f"spec.{key}: not a v1alpha1 field; the API server prunes it")
        elif key == "topologyConstraint" and isinstance(item, dict):
            out[key] = _spec_topology(item, paths)
        else:
            out[key] = copy.deepcopy(item)
    return out


def _spec_topology(item: dict[str, Any], paths: PathMap) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in item.items():
        if key == "topologyProfile":
            result["clusterTopologyName"] = value
            paths.add(
                "spec.topologyConstraint.clusterTopologyName",
                "spec.topologyConstraint.topologyProfile",
            )
        else:
            result[key] = copy.deepcopy(value)
    return result


def _services(value: Any, conv: Conversion) -> Any:
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    components: list[Any] = []
    # The operator emits the map in sorted name order (Go sort.Strings: byte order = code points).
    for name in sorted(value, key=str):
        service = value[name]
        if service is None:
            conv.dropped.append(f"{service_path(name)}: null; the API server prunes it")
            continue
        i = len(components)
        conv.services[i] = str(name)
        base = f"spec.components[{i}]"
        src = service_line_path(str(name))
        conv.paths.add(base, src)
        conv.paths.add(f"{base}.name", src, exact=False)
        if not isinstance(service, dict):
            components.append(copy.deepcopy(service))
            continue
        components.append(_ServiceConverter(str(name), service, base, src, conv).run())
    return components


class _ServiceConverter:
    """One service -> one component, keeping the service's key order where it maps."""

    def __init__(
        self, name: str, service: dict[str, Any], base: str, src: str, conv: Conversion
    ) -> None:
        self.name = name
        self.svc = service
        self.base = base
        self.src = src
        self.conv = conv
        self.paths = conv.paths
        self.out: dict[str, Any] = {"name": name}

    def _lossy(self, key: str, why: str) -> None:
        self.conv.lossy.append(f"{service_path(self.name)}.{key}: {why}")

    def _map(self, beta_rel: str, alpha_rel: str, *, exact: bool = True) -> None:
        self.paths.add(_join(self.base, beta_rel), _join(self.src, alpha_rel), exact=exact)

    def run(self) -> dict[str, Any]:
        svc = self.svc
        pod_done = False
        experimental_done = False
        for key, value in svc.items():
            if key in _SAME_NAME:
                self.out[key] = copy.deepcopy(value)
                self._map(key, key)
            elif key == "componentType":
                self._type()
            elif key == "subComponentType":
                if "componentType" not in svc:
                    self._type()
            elif key == "serviceName":
                if value and value != self.name:
                    self.conv.dropped.append(
                        f"{service_path(self.name)}.serviceName: {value!r} is ignored; the map key "
                        f"{self.name!r} names the component"
                    )
            elif key == "topologyConstraint":
                if isinstance(value, dict):  # v1beta1 keeps packDomain only
                    self.out[key] = {k: v for k, v in value.items() if k == "packDomain"}
                else:
                    self.out[key] = copy.deepcopy(value)
                self._map(key, key)
            elif key == "sharedMemory":
                self._shared_memory(value)
            elif key == "scalingAdapter":
                if isinstance(value, dict) and value.get("enabled") is True:
                    self.out["scalingAdapter"] = {}
                    self._map("scalingAdapter", "scalingAdapter")
            elif key in ("gpuMemoryService", "failover", "checkpoint"):
                if not experimental_done:
                    experimental_done = True
                    self._experimental()
            elif key in _POD_KEYS:
                if not pod_done:
                    pod_done = True
                    self._pod_template()
            elif key in ("dynamoNamespace", "autoscaling"):
                if value is not None and value != "":
                    self.conv.dropped.append(
                        f"{service_path(self.name)}.{key}: deprecated and ignored by the operator"
                    )
            elif key == "ingress":
                if value is not None:
                    self._lossy(
                        key,
                        "v1beta1 has no ingress; create the Ingress (or VirtualService) yourself",
                    )
            elif key in ("annotations", "labels"):
                if value:
                    self._lossy(
                        key,
                        "v1beta1 has no service-level " + key + "; move them to "
                        "podTemplate.metadata or spec." + key + " by hand (they also reach the "
                        "component's own objects)",
                    )
            else:
                self.out[key] = copy.deepcopy(value)  # unknown: the schema layer reports it
                self._map(key, key)
        # As v1beta1 manifests are written: the pod template last.
        if "podTemplate" in self.out:
            self.out["podTemplate"] = self.out.pop("podTemplate")
        return self.out

    # ---- simple fields ----------------------------------------------------------------------

    def _type(self) -> None:
        component_type = self.svc.get("componentType")
        sub = self.svc.get("subComponentType")
        if component_type == "worker" and sub in ("prefill", "decode"):
            self.out["type"] = sub
            self._map("type", "subComponentType", exact=False)
        else:
            if component_type is not None:
                self.out["type"] = copy.deepcopy(component_type)
                self._map("type", "componentType", exact=False)
            if sub:
                self._lossy(
                    "subComponentType",
                    f"{sub!r} with componentType {component_type!r} has no v1beta1 type (only "
                    "worker + prefill/decode become type prefill/decode)",
                )

    def _shared_memory(self, value: Any) -> None:
        if not isinstance(value, dict):
            return
        if value.get("disabled") is True:
            self.out["sharedMemorySize"] = "0"
        elif not _zero_quantity(value.get("size")):
            self.out["sharedMemorySize"] = copy.deepcopy(value.get("size"))
        else:
            return
        self._map("sharedMemorySize", "sharedMemory", exact=False)

    def _experimental(self) -> None:
        experimental: dict[str, Any] = {}
        gms = self.svc.get("gpuMemoryService")
        if isinstance(gms, dict) and gms.get("enabled") is True:
            experimental["gpuMemoryService"] = _gms(gms)
            self._map("experimental.gpuMemoryService", "gpuMemoryService")
        failover = self.svc.get("failover")
        if isinstance(failover, dict) and failover.get("enabled") is True:
            experimental["failover"] = {
                k: (GMS_MODES.get(v, v) if k == "mode" else copy.deepcopy(v))
                for k, v in failover.items()
                if k != "enabled"
            }
            self._map("experimental.failover", "failover")
        checkpoint = self.svc.get("checkpoint")
        if checkpoint is not None:
            experimental["checkpoint"] = copy.deepcopy(checkpoint)
            self._map("experimental.checkpoint", "checkpoint")
        if experimental:
            self.out["experimental"] = experimental
            self._map("experimental", "", exact=False)

    # ---- the pod template -------------------------------------------------------------------

    def _pod_template(self) -> None:
        svc = self.svc
        extra = _as_dict(svc.get("extraPodSpec"))
        main_src = _as_dict(extra.get("mainContainer"))
        mounts = [m for m in _as_list(svc.get("volumeMounts")) if isinstance(m, dict)]
        cache = [m for m in mounts if m.get("useAsCompilationCache") is True]
        if cache:
            self.out["compilationCache"] = {"pvcName": cache[0].get("name")}
            if cache[0].get("mountPoint"):
                self.out["compilationCache"]["mountPath"] = cache[0].get("mountPoint")
            k = mounts.index(cache[0])
            self._map("compilationCache", f"volumeMounts[{k}]", exact=False)
            if len(cache) > 1:
                self._lossy(
                    "volumeMounts",
                    "more than one useAsCompilationCache mount; v1beta1 has one compilationCache",
                )
        has_content = (
            svc.get("resources") is not None
            or bool(_as_list(svc.get("envs")))
            or svc.get("envFromSecret") is not None
            or any(m.get("useAsCompilationCache") is not True for m in mounts)
            or svc.get("livenessProbe") is not None
            or svc.get("readinessProbe") is not None
            or not _extra_pod_spec_is_zero(extra)
            or svc.get("extraPodMetadata") is not None
            or svc.get("frontendSidecar") is not None
        )
        if not has_content:
            return
        template: dict[str, Any] = {}
        metadata = _as_dict(svc.get("extraPodMetadata"))
        meta_out: dict[str, Any] = {}
        for key in ("annotations", "labels"):
            if metadata.get(key):
                meta_out[key] = copy.deepcopy(metadata[key])
        if meta_out:
            template["metadata"] = meta_out
            self._map("podTemplate.metadata", "extraPodMetadata")
        pod = {k: copy.deepcopy(v) for k, v in extra.items() if k != "mainContainer"}
        self._map("podTemplate", "extraPodSpec" if "extraPodSpec" in svc else "", exact=False)
        self._map("podTemplate.spec", "extraPodSpec", exact="extraPodSpec" in svc)
        main = self._main_container(main_src, mounts)
        containers: list[Any] = [main]
        beta_containers = "podTemplate.spec.containers"
        if "containers" in extra:
            self._map(beta_containers, "extraPodSpec.containers", exact=False)
        for k, container in enumerate(_as_list(extra.get("containers"))):
            if isinstance(container, dict) and container.get("name") == MAIN:
                continue  # the operator builds main from mainContainer and the dedicated fields
            self._map(f"{beta_containers}[{len(containers)}]", f"extraPodSpec.containers[{k}]")
            containers.append(container)
        sidecar = svc.get("frontendSidecar")
        if isinstance(sidecar, dict):
            if not any(
                isinstance(c, dict) and c.get("name") == FRONTEND_SIDECAR for c in containers
            ):
                self._map(f"{beta_containers}[{len(containers)}]", "frontendSidecar", exact=False)
                containers.append(self._sidecar(sidecar, len(containers)))
            self.out["frontendSidecar"] = FRONTEND_SIDECAR
            self._map("frontendSidecar", "frontendSidecar", exact=False)
        elif sidecar is not None:
            self.out["frontendSidecar"] = FRONTEND_SIDECAR
        pod["containers"] = containers
        template["spec"] = pod
        self.out["podTemplate"] = template

    def _main_container(
        self, main_src: dict[str, Any], mounts: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """Dedicated fields first, ``extraPodSpec.mainContainer`` merged over them (it wins)."""
        svc = self.svc
        at = "podTemplate.spec.containers[0]"
        has_main = bool(main_src) or "mainContainer" in _as_dict(svc.get("extraPodSpec"))
        self._map(at, "extraPodSpec.mainContainer" if has_main else "", exact=False)
        self._map(f"{at}.name", "extraPodSpec.mainContainer" if has_main else "", exact=False)
        main: dict[str, Any] = {"name": MAIN}
        resources = svc.get("resources")
        if isinstance(resources, dict):
            native = self._resources(resources)
            if native:
                main["resources"] = native
                self._map(f"{at}.resources", "resources", exact=False)
        envs = _as_list(svc.get("envs"))
        env_from: list[Any] = []
        secret = svc.get("envFromSecret")
        if isinstance(secret, str) and secret:
            env_from.append({"secretRef": {"name": secret}})
            self._map(f"{at}.envFrom", "envFromSecret", exact=False)
        for probe in ("livenessProbe", "readinessProbe"):
            if svc.get(probe) is not None:
                main[probe] = copy.deepcopy(svc[probe])
                self._map(f"{at}.{probe}", probe)
        dedicated_mounts = [
            {"name": m.get("name"), "mountPath": m.get("mountPoint", "")} for m in mounts
        ]
        main_mounts = _as_list(main_src.get("volumeMounts"))
        for key, value in main_src.items():
            if key in ("name", "env", "volumeMounts") or _empty(value):
                continue
            if key == "resources" and isinstance(value, dict):
                main["resources"] = _merge_resources(main.get("resources"), value)
                self._map(f"{at}.resources", "extraPodSpec.mainContainer.resources", exact=False)
                continue
            if key == "envFrom":
                env_from = copy.deepcopy(value)
                self._map(f"{at}.envFrom", "extraPodSpec.mainContainer.envFrom")
                continue
            main[key] = copy.deepcopy(value)
            self._map(f"{at}.{key}", f"extraPodSpec.mainContainer.{key}")
        if env_from:
            main["envFrom"] = env_from
        merged_env = self._merge_env(envs, _as_list(main_src.get("env")), f"{at}.env")
        if merged_env:
            main["env"] = merged_env
        all_mounts = [copy.deepcopy(m) for m in main_mounts] + dedicated_mounts
        for j in range(len(main_mounts)):
            self._map(f"{at}.volumeMounts[{j}]", f"extraPodSpec.mainContainer.volumeMounts[{j}]")
        for j in range(len(mounts)):
            self._map(
                f"{at}.volumeMounts[{len(main_mounts) + j}]", f"volumeMounts[{j}]", exact=False
            )
        if all_mounts:
            main["volumeMounts"] = all_mounts
            if not main_mounts:
                self._map(f"{at}.volumeMounts", "volumeMounts", exact=False)
        # The user's mainContainer order first (name, image, ...), the dedicated fields after.
        order = ["name", *(k for k in main_src if k in main), *main]
        return {k: main[k] for k in dict.fromkeys(order)}

    def _merge_env(self, dedicated: list[Any], override: list[Any], at: str) -> list[Any]:
        """Dedicated ``envs`` first; a same-named mainContainer entry replaces it in place."""
        merged: list[Any] = []
        sources: list[str] = []
        seen: dict[Any, int] = {}
        for origin, entries in (("envs", dedicated), ("extraPodSpec.mainContainer.env", override)):
            for k, entry in enumerate(entries):
                key = entry.get("name") if isinstance(entry, dict) else None
                if key is not None and not isinstance(key, str):  # a list is no dict key
                    key = ("unnamed", origin, k)
                where = f"{origin}[{k}]"
                if key in seen:
                    merged[seen[key]] = copy.deepcopy(entry)
                    sources[seen[key]] = where
                    continue
                seen[key] = len(merged)
                merged.append(copy.deepcopy(entry))
                sources.append(where)
        for j, where in enumerate(sources):
            self._map(f"{at}[{j}]", where)
        if merged:
            self._map(at, "envs" if dedicated else "extraPodSpec.mainContainer.env", exact=False)
        return merged

    def _resources(self, resources: dict[str, Any]) -> dict[str, Any]:
        native: dict[str, Any] = {}
        for part in ("limits", "requests"):
            item = resources.get(part)
            if isinstance(item, dict):
                listed = self._resource_list(item, part)
                if listed:
                    native[part] = listed
        if resources.get("claims"):
            native["claims"] = copy.deepcopy(resources["claims"])
        return native

    def _resource_list(self, item: dict[str, Any], part: str) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        entries: list[tuple[str, Any]] = []
        for key in ("cpu", "memory"):
            if item.get(key):
                entries.append((key, item[key]))
        if item.get("gpu"):
            entries.append((str(item.get("gpuType") or DEFAULT_GPU_RESOURCE), item["gpu"]))
        custom = item.get("custom")
        if isinstance(custom, dict):
            entries.extend((str(k), v) for k, v in custom.items())
        for key, value in entries:
            if _is_quantity(value):
                listed[key] = value
            else:
                self._lossy(
                    f"resources.{part}",
                    f"{key} {value!r} is not a quantity; the operator's conversion drops it",
                )
        return listed

    def _sidecar(self, sidecar: dict[str, Any], position: int) -> dict[str, Any]:
        container: dict[str, Any] = {"name": FRONTEND_SIDECAR, "image": sidecar.get("image", "")}
        at = f"podTemplate.spec.containers[{position}]"
        self._map(
            f"{at}.image",
            "frontendSidecar.image" if "image" in sidecar else "frontendSidecar",
            exact="image" in sidecar,
        )
        if sidecar.get("args"):
            container["args"] = copy.deepcopy(sidecar["args"])
            self._map(f"{at}.args", "frontendSidecar.args")
        if sidecar.get("envs"):
            container["env"] = copy.deepcopy(sidecar["envs"])
            self._map(f"{at}.env", "frontendSidecar.envs")
        secret = sidecar.get("envFromSecret")
        if isinstance(secret, str) and secret:
            container["envFrom"] = [{"secretRef": {"name": secret}}]
            self._map(f"{at}.envFrom", "frontendSidecar.envFromSecret", exact=False)
        return container


# ---- status ---------------------------------------------------------------------------------


def _status(value: Any) -> Any:
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == "services" and isinstance(item, dict):
            out["components"] = {str(k): _service_status(v) for k, v in item.items()}
        elif key == "rollingUpdate" and isinstance(item, dict):
            out[key] = {
                ("updatedComponents" if k == "updatedServices" else k): copy.deepcopy(v)
                for k, v in item.items()
            }
        else:
            out[key] = copy.deepcopy(item)
    return out


def _service_status(value: Any) -> Any:
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    out = {k: copy.deepcopy(v) for k, v in value.items() if k != "componentName"}
    if not value.get("componentNames") and value.get("componentName"):
        out["componentNames"] = [value["componentName"]]
    return out


# ---- helpers --------------------------------------------------------------------------------


def _gms(gms: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (GMS_MODES.get(v, v) if k == "mode" else copy.deepcopy(v))
        for k, v in gms.items()
        if k != "enabled"
    }


def _merge_resources(base: Any, override: dict[str, Any]) -> dict[str, Any]:
    """mergo-with-override over ResourceRequirements: lists merge key by key, claims replace."""
    result = copy.deepcopy(base) if isinstance(base, dict) else {}
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = {**result[key], **copy.deepcopy(value)}
        elif not _empty(value):
            result[key] = copy.deepcopy(value)
    return result


def _extra_pod_spec_is_zero(extra: dict[str, Any]) -> bool:
    return all(_empty(v) for k, v in extra.items() if k != "mainContainer") and all(
        _empty(v) for v in _as_dict(extra.get("mainContainer")).values()
    )


def _empty(value: Any) -> bool:
    return value is None or value is False or value in ("", [], {})


def _is_quantity(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    return isinstance(value, str) and _QUANTITY.match(value.strip()) is not None


def _zero_quantity(value: Any) -> bool:
    if value is None or value == "":
        return True
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == 0
    text = str(value).strip()
    digits = re.sub(r"[^0-9.]", "", re.split(r"[eE]|[KMGTPE]i?|[numk]", text.lstrip("+-"))[0])
    return bool(digits) and float(digits or 0) == 0


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _join(base: str, rel: str) -> str:
    if not rel:
        return base
    return f"{base}{rel}" if rel.startswith("[") else f"{base}.{rel}"
