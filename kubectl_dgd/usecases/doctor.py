"""``doctor``: read what the checks of core/doctor.py need; a refused read is "could not check"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from kubectl_dgd.core import doctor
from kubectl_dgd.errors import ApiError, NotFoundError
from kubectl_dgd.usecases.ports import GraphCluster

T = TypeVar("T")
OPERATOR_IMAGE = "kubernetes-operator"


def _readable(read: Callable[[], T]) -> T | None:
    """``read()``, or None when the account may not (403) or the kind is not served."""
    try:
        return read()
    except NotFoundError:
        return None
    except ApiError as err:
        if err.status in (401, 403, 404):
            return None
        raise


def _is_operator(deployment: dict[str, Any]) -> bool:
    containers = (
        ((deployment.get("spec") or {}).get("template") or {}).get("spec", {}).get("containers")
    )
    return any(
        isinstance(c, dict)
        and c.get("name") == "manager"
        and OPERATOR_IMAGE in str(c.get("image") or "")
        for c in containers or []
    )


def _endpoints(cluster: GraphCluster, hooks: list[dict[str, Any]]) -> dict[str, int | None]:
    """Ready endpoints per webhook Service, from its EndpointSlices."""
    found: dict[str, int | None] = {}
    for hook in hooks:
        service = (hook.get("clientConfig") or {}).get("service") or {}
        if not service:
            continue
        namespace, name = str(service.get("namespace")), str(service.get("name"))
        slices = _readable(
            lambda namespace=namespace, name=name: cluster.list_objects(  # type: ignore[misc]
                "discovery.k8s.io/v1",
                "endpointslices",
                namespace,
                selector=f"kubernetes.io/service-name={name}",
            )
        )
        if slices is None:
            found[f"{namespace}/{name}"] = None
            continue
        found[f"{namespace}/{name}"] = sum(
            1
            for s in slices
            for e in s.get("endpoints") or []
            if isinstance(e, dict) and (e.get("conditions") or {}).get("ready", True) is not False
        )
    return found


def run_doctor(cluster: GraphCluster) -> doctor.DoctorReport:
    report = doctor.DoctorReport()
    add = report.checks.append
    add(
        doctor.crd_check(
            "DynamoGraphDeployment",
            cluster.served_versions("nvidia.com", "dynamographdeployments"),
            "v1beta1",
        )
    )
    add(
        doctor.crd_check(
            "DynamoComponentDeployment",
            cluster.served_versions("nvidia.com", "dynamocomponentdeployments"),
            None,  # v1alpha1 before 1.6, both since
        )
    )
    deployments = _readable(lambda: cluster.list_objects("apps/v1", "deployments", None))
    if deployments is None:
        add(doctor.Check("operator Deployment", "unknown", "Deployments not readable cluster-wide"))
    else:
        add(doctor.operator_check([d for d in deployments if _is_operator(d)]))
    for kind, plural in (
        ("Validating", "validatingwebhookconfigurations"),
        ("Mutating", "mutatingwebhookconfigurations"),
    ):
        configs = _readable(
            lambda plural=plural: cluster.list_objects(
                "admissionregistration.k8s.io/v1", plural, None
            )  # type: ignore[misc]
        )
        hooks = None if configs is None else doctor.webhooks(configs)
        add(doctor.webhook_check(kind, hooks, _endpoints(cluster, hooks or [])))
    add(
        doctor.workload_check(
            cluster.served_versions("grove.io", "podcliquesets"),
            cluster.served_versions("leaderworkerset.x-k8s.io", "leaderworkersets"),
        )
    )
    gpu_nodes = doctor.gpu_nodes_check(_readable(lambda: cluster.list_objects("v1", "nodes", None)))
    add(gpu_nodes)
    add(
        doctor.device_plugin_check(
            _readable(lambda: cluster.list_objects("apps/v1", "daemonsets", None)),
            cluster.served_versions("nvidia.com", "clusterpolicies"),
            None if gpu_nodes.result == "unknown" else gpu_nodes.result == "pass",
        )
    )
    add(
        doctor.storage_check(
            _readable(lambda: cluster.list_objects("storage.k8s.io/v1", "storageclasses", None))
        )
    )
    return report
