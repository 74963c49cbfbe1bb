"""``version``: the server's side of it. ``/version`` must answer (else the caller's error);
the operator's release and the DGD versions are best effort: "unknown" with the reason.

The operator's release is found in validate --live's order (usecases/operator_version.py):
the image tag of the operator Deployment's ``manager`` container, else the newest
origin-version annotation on the namespace's graphs (a lower bound), else unknown.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.profile import ORIGIN_VERSION_ANNOTATION, release_of
from kubectl_dgd.core.runtime_version import image_tag
from kubectl_dgd.core.version import OperatorDeployment, OperatorRelease, VersionReport
from kubectl_dgd.errors import ApiError, DgdError, NotFoundError
from kubectl_dgd.usecases.operator_version import OPERATOR_IMAGE, newest_origin
from kubectl_dgd.usecases.ports import VersionedCluster


def _deployments(cluster: VersionedCluster) -> tuple[list[OperatorDeployment], str | None]:
    """The operator's Deployments in every namespace, or ``([], why they are unknown)``."""
    try:
        items = cluster.list_objects("apps/v1", "deployments", None)
    except NotFoundError:
        return [], "the API server serves no apps/v1 Deployments"
    except ApiError as err:
        if err.status == 403:
            return [], "forbidden: this account may not list Deployments in all namespaces"
        return [], f"the operator Deployments could not be read: {err}"
    except DgdError as err:
        return [], f"the operator Deployments could not be read: {err}"
    found = []
    for item in items:
        meta = item.get("metadata") or {}
        pod = ((item.get("spec") or {}).get("template") or {}).get("spec") or {}
        for container in pod.get("containers") or []:
            if not isinstance(container, dict) or container.get("name") != "manager":
                continue
            image = str(container.get("image") or "")
            if OPERATOR_IMAGE in image:
                tag = image_tag(image)
                found.append(
                    OperatorDeployment(
                        str(meta.get("namespace") or ""),
                        str(meta.get("name") or ""),
                        image,
                        tag if tag and release_of(tag) else None,
                    )
                )
    if not found:
        return (
            [],
            "no operator Deployment found: none has a manager container running kubernetes-operator",
        )
    return found, None


def operator_release(cluster: VersionedCluster) -> OperatorRelease:
    deployments, unread = _deployments(cluster)
    for deployment in deployments:
        if deployment.release:
            where = f"{deployment.namespace}/{deployment.name}"
            return OperatorRelease(
                deployment.release,
                f"the image {deployment.image} of Deployment {where}",
                deployments=deployments,
            )
    why = unread or "the operator image has no release tag: " + ", ".join(
        d.image for d in deployments
    )
    try:
        graphs = cluster.list_graphs(cluster.namespace).get("items") or []
    except DgdError:
        graphs = []
    origin = newest_origin(graphs)
    if origin is None:
        return OperatorRelease(None, why, deployments=deployments)
    return OperatorRelease(
        origin,
        f"the {ORIGIN_VERSION_ANNOTATION} annotation on the graphs of {cluster.namespace}; "
        f"the operator itself: {why}",
        lower_bound=True,
        deployments=deployments,
    )


def server_versions(cluster: VersionedCluster, client: dict[str, str]) -> VersionReport:
    """The whole report; the API server's errors for ``/version`` are raised as they are."""
    server: dict[str, Any] = cluster.server_version()
    return VersionReport(
        client,
        server,
        operator_release(cluster),
        cluster.served_versions("nvidia.com", "dynamographdeployments"),
    )
