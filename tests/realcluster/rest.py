"""A small REST client for the real control plane, used by the tests' own setup and by the
operator simulator (never by the code under test, which has its own adapter).

Plain urllib3 over TLS to 127.0.0.1, never through a proxy; errors raise ``RestError`` with the
server's status code and message.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote, urlencode

import urllib3

Obj = dict[str, Any]

# (group/version, plural) per kind the tests write; core kinds live under /api/v1
PATHS: dict[str, tuple[str, str]] = {
    "Namespace": ("v1", "namespaces"),
    "Node": ("v1", "nodes"),
    "Pod": ("v1", "pods"),
    "Service": ("v1", "services"),
    "ServiceAccount": ("v1", "serviceaccounts"),
    "Event": ("v1", "events"),
    "ConfigMap": ("v1", "configmaps"),
    "Secret": ("v1", "secrets"),
    "PersistentVolumeClaim": ("v1", "persistentvolumeclaims"),
    "Deployment": ("apps/v1", "deployments"),
    "ReplicaSet": ("apps/v1", "replicasets"),
    "StatefulSet": ("apps/v1", "statefulsets"),
    "Role": ("rbac.authorization.k8s.io/v1", "roles"),
    "RoleBinding": ("rbac.authorization.k8s.io/v1", "rolebindings"),
    "ClusterRole": ("rbac.authorization.k8s.io/v1", "clusterroles"),
    "ClusterRoleBinding": ("rbac.authorization.k8s.io/v1", "clusterrolebindings"),
    "CustomResourceDefinition": ("apiextensions.k8s.io/v1", "customresourcedefinitions"),
    "ValidatingWebhookConfiguration": (
        "admissionregistration.k8s.io/v1",
        "validatingwebhookconfigurations",
    ),
    "StorageClass": ("storage.k8s.io/v1", "storageclasses"),
    "DynamoGraphDeployment": ("nvidia.com/v1beta1", "dynamographdeployments"),
    "DynamoComponentDeployment": ("nvidia.com/v1beta1", "dynamocomponentdeployments"),
    "DynamoGraphDeploymentScalingAdapter": (
        "nvidia.com/v1alpha1",
        "dynamographdeploymentscalingadapters",
    ),
    "PodCliqueSet": ("grove.io/v1alpha1", "podcliquesets"),
    "PodClique": ("grove.io/v1alpha1", "podcliques"),
    "PodCliqueScalingGroup": ("grove.io/v1alpha1", "podcliquescalinggroups"),
    "LeaderWorkerSet": ("leaderworkerset.x-k8s.io/v1", "leaderworkersets"),
    "Logs": ("kwok.x-k8s.io/v1alpha1", "logs"),
}
CLUSTER_SCOPED = {
    "Namespace",
    "Node",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
}


class RestError(Exception):
    def __init__(self, status: int, body: Obj) -> None:
        self.status = status
        self.body = body
        super().__init__(f"{status}: {body.get('message', body)}")


class Rest:
    def __init__(self, server: str, token: str, ca_file: str) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.pool = urllib3.PoolManager(
            cert_reqs="CERT_REQUIRED", ca_certs=ca_file, retries=False, maxsize=4
        )

    def path(
        self,
        kind: str,
        namespace: str | None = None,
        name: str | None = None,
        version: str | None = None,
    ) -> str:
        gv, plural = PATHS[kind]
        if version is not None:
            gv = f"{gv.rsplit('/', 1)[0]}/{version}" if "/" in gv else version
        base = f"/api/{gv}" if "/" not in gv else f"/apis/{gv}"
        if namespace is not None and kind not in CLUSTER_SCOPED:
            base += f"/namespaces/{quote(namespace, safe='')}"
        base += f"/{plural}"
        return base + (f"/{quote(name, safe='')}" if name else "")

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        content_type: str = "application/json",
        query: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Obj:
        url = self.server + path + (f"?{urlencode(query)}" if query else "")
        data = (
            None
            if body is None
            else (body if isinstance(body, bytes) else json.dumps(body).encode())
        )
        answer = self.pool.request(
            method,
            url,
            body=data,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": content_type,
                "Accept": "application/json",
            },
            timeout=timeout,
        )
        parsed: Obj = json.loads(answer.data) if answer.data else {}
        if answer.status >= 400:
            raise RestError(answer.status, parsed)
        return parsed

    def get(self, kind: str, name: str, namespace: str | None = None) -> Obj:
        return self.request("GET", self.path(kind, namespace, name))

    def list(
        self, kind: str, namespace: str | None = None, selector: str | None = None
    ) -> list[Obj]:
        query = {"labelSelector": selector} if selector else None
        items = self.request("GET", self.path(kind, namespace), query=query).get("items") or []
        return list(items)

    def create(self, obj: Obj, namespace: str | None = None, dry_run: bool = False) -> Obj:
        ns = namespace or obj.get("metadata", {}).get("namespace")
        query = {"dryRun": "All"} if dry_run else None
        return self.request("POST", self.path(obj["kind"], ns), obj, query=query)

    def apply(
        self,
        obj: Obj,
        manager: str = "kdgd-tests",
        namespace: str | None = None,
        subresource: str | None = None,
        force: bool = True,
    ) -> Obj:
        """Server-side apply (the field manager owns what it sends)."""
        ns = namespace or obj.get("metadata", {}).get("namespace")
        version = obj["apiVersion"].rsplit("/", 1)[-1]
        path = self.path(obj["kind"], ns, obj["metadata"]["name"], version)
        if subresource:
            path += f"/{subresource}"
        query = {"fieldManager": manager, **({"force": "true"} if force else {})}
        return self.request("PATCH", path, obj, "application/apply-patch+yaml", query)

    def merge_patch(
        self,
        kind: str,
        name: str,
        namespace: str | None,
        patch: Obj,
        subresource: str | None = None,
    ) -> Obj:
        path = self.path(kind, namespace, name) + (f"/{subresource}" if subresource else "")
        return self.request("PATCH", path, patch, "application/merge-patch+json")

    def replace_status(self, obj: Obj) -> Obj:
        meta = obj["metadata"]
        path = self.path(obj["kind"], meta.get("namespace"), meta["name"]) + "/status"
        return self.request("PUT", path, obj)

    def delete(
        self, kind: str, name: str, namespace: str | None = None, missing_ok: bool = True
    ) -> None:
        try:
            self.request(
                "DELETE", self.path(kind, namespace, name), {"propagationPolicy": "Background"}
            )
        except RestError as e:
            if not (missing_ok and e.status == 404):
                raise

    def wait_for(self, what: str, check: Any, timeout: float = 60, interval: float = 0.2) -> Any:
        """Poll ``check()`` until it returns something truthy; fail with ``what`` after ``timeout``
        seconds (a bound for hangs, never a measurement)."""
        end = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < end:
            try:
                last = check()
            except RestError as e:
                last = e
            if last and not isinstance(last, RestError):
                return last
            time.sleep(interval)
        raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
