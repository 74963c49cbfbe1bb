"""A kube-apiserver emulation for tests (never shipped): stdlib HTTP on 127.0.0.1, one thread
per connection, started by the ``apiserver`` fixture (fixtures.py).

Emulated, as kube-apiserver behaves where kubectl-dgd and kubectl depend on it:
- discovery: /version, /api, /api/v1, /apis, /apis/GROUP, /apis/GROUP/VERSION (the DGD with its
  short name ``dgd``, categories, and the ``dynamographdeployments/status`` subresource), and
  aggregated discovery (apidiscovery.k8s.io/v2) for clients that ask for it, as kubectl does;
  /openapi/v3 minimal documents (kubectl create/apply then leave validation to the server);
- the DGD CustomResourceDefinition object (apiextensions.k8s.io/v1), installed or not;
- namespaced custom resources (nvidia.com/v1beta1 DGDs, v1alpha1 DCDs) and core v1 namespaces,
  events, configmaps, secrets: GET, LIST (``<Kind>List`` with metadata.resourceVersion, label
  selectors =, ==, !=, in, notin, exists, !key; field selectors per type, unsupported ones 400),
  cluster-wide LIST, POST (409 AlreadyExists), PUT (resourceVersion required for custom
  resources, a stale one 409 Conflict), DELETE (with preconditions), PATCH (merge patch, JSON
  patch with ``test``; strategic merge 415 for custom resources; apply-patch+yaml as a merge), a
  patched metadata.resourceVersion acting as a precondition;
- resourceVersion from one global counter; no-op writes change nothing; metadata.generation
  bumped only by changes outside metadata and status; the status subresource;
- watch (watch.py): after a resourceVersion, 410 Expired past the kept history, selectors,
  timeoutSeconds, bookmarks;
- meta.k8s.io/v1 Table answers for ``kubectl get`` and ``-w`` (Ready, Backend, Age columns);
- errors as metav1.Status bodies with the real messages, reasons and details; bearer-token auth
  (401); ``?dryRun=All``; validators standing in for CEL rules and webhooks (422, webhook denial);
- below the graph: core/v1 pods (status subresource, field selectors spec.nodeName and
  status.phase) and nodes, apps/v1 Deployments and ReplicaSets, events.k8s.io/v1 Events served
  from the core Events' storage (eventsv1.py), Grove (grove.io) and LeaderWorkerSet kinds that
  404 until ``install_addon``, and ``pods/log`` (podlogs.py: container, previous, tailLines,
  sinceSeconds, follow); the simulated operator's children and scheduler are children.py
  (pods in ImagePullBackOff, CrashLoopBackOff with a previous log, OOMKilled,
  CreateContainerConfigError; a scheduler filtering by node selector, taint, claimed volume
  and GPUs); core/v1 PersistentVolumeClaims and ServiceAccounts; metadata-only LISTs
  (``Accept: ...;as=PartialObjectMetadataList``: no Secret data sent);
- faults (faults.py): 403 for a verb and resource, the next N requests 500/503, delays, a
  callback between two requests; a request log for counting requests.

It speaks TLS with a throwaway CA (tls.py), because kubectl sends bearer tokens only over TLS;
without ``openssl`` it falls back to plain HTTP and then requires no token.

Not emulated: client certificates, RBAC beyond the forbid hook, server-side apply field
ownership, strategic merge patch semantics (a merge for core types), expiry of ``continue``
tokens (``limit``/``continue`` pages are), deletecollection, finalizers and graceful deletion, the
v1alpha1<->v1beta1 DGD conversion, field validation (``fieldValidation`` is accepted and
ignored), protobuf, WatchList (sendInitialEvents).
"""

from __future__ import annotations

import base64
import dataclasses
import ssl
import threading
import time
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from tests.apiserver import tls
from tests.apiserver.crd import dgd_crd
from tests.apiserver.faults import Faults, RequestRecord
from tests.apiserver.handler import Handler, HttpServer
from tests.apiserver.podlogs import PodLogs
from tests.apiserver.resources import CRDS, ResourceType
from tests.apiserver.store import Obj, Store


class ApiServer:
    """The server, its store and its knobs. ``start()`` binds 127.0.0.1 on a free port."""

    def __init__(
        self,
        store: Store | None = None,
        *,
        token: str = "dgd-test-token",
        user: str = "dgd-tester",
        use_tls: bool | None = None,
    ) -> None:
        """``use_tls`` (default: when ``openssl`` exists) serves HTTPS with a throwaway CA; over
        plain HTTP kubectl sends no token, so the token is then not required."""
        self.use_tls = tls.available() if use_tls is None else use_tls
        self.store = store or Store()
        self.token = token
        self.user = user
        self.faults = Faults()
        self.request_log: list[RequestRecord] = []
        self._log_lock = threading.Lock()
        self.kubeconfig: Path | None = None  # set by write_kubeconfig
        self.namespace = "default"  # the kubeconfig context's namespace
        self.logs = PodLogs(self.store)  # the pods/log subresource's contents
        self._httpd: HttpServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> ApiServer:
        server = self

        class BoundHandler(Handler):
            api = server

        context: ssl.SSLContext | None = None
        if self.use_tls:
            certs = tls.certificates()
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certs.cert_file, certs.key_file)
            context.set_alpn_protocols(["http/1.1"])
        self._httpd = HttpServer(("127.0.0.1", 0), BoundHandler, context)
        self._thread = threading.Thread(
            target=self._httpd.serve, name="test-apiserver", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.store.close()
        self.logs.wake()
        if self._httpd is not None:
            self._httpd.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._httpd is not None:
            self._httpd.server_close()

    @property
    def address(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"{host!s}:{port}"

    @property
    def url(self) -> str:
        return f"{'https' if self.use_tls else 'http'}://{self.address}"

    @property
    def ca_file(self) -> Path | None:
        """The CA certificate clients must trust (None over plain HTTP)."""
        return tls.certificates().ca_file if self.use_tls else None

    def ssl_context(self) -> ssl.SSLContext | None:
        """A client context trusting the server's CA (for urllib in tests)."""
        if not self.use_tls:
            return None
        return ssl.create_default_context(cafile=str(tls.certificates().ca_file))

    # -- helpers for tests ----------------------------------------------------------------------

    def write_kubeconfig(
        self, path: Path, *, namespace: str = "default", context: str = "dgd-test"
    ) -> Path:
        cluster: dict[str, Any] = {"server": self.url}
        if self.use_tls:
            ca = base64.b64encode(tls.certificates().ca_pem).decode()
            cluster["certificate-authority-data"] = ca
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "dgd-test-cluster", "cluster": cluster}],
            "users": [{"name": self.user, "user": {"token": self.token}}],
            "contexts": [
                {
                    "name": context,
                    "context": {
                        "cluster": "dgd-test-cluster",
                        "user": self.user,
                        "namespace": namespace,
                    },
                }
            ],
            "current-context": context,
            "preferences": {},
        }
        path.write_text(yaml.safe_dump(config, sort_keys=False))
        self.kubeconfig, self.namespace = path, namespace
        return path

    def seed(self, *objects: Obj) -> list[Obj]:
        return [self.store.seed(obj) for obj in objects]

    def requests(
        self,
        verb: str | None = None,
        resource: str | None = None,
        *,
        include_discovery: bool = False,
    ) -> list[RequestRecord]:
        with self._log_lock:
            log = list(self.request_log)
        return [
            r
            for r in log
            if (include_discovery or not r.is_discovery)
            and (verb is None or r.verb == verb)
            and (resource is None or r.resource == resource)
        ]

    def clear_log(self) -> None:
        with self._log_lock:
            self.request_log.clear()

    def uninstall_crd(self, group: str = "nvidia.com") -> None:
        """The CRDs of ``group`` disappear: their CustomResourceDefinition objects, their
        discovery documents, and their paths (404 the server could not find the resource)."""
        self.store.hidden_groups.add(group)
        items, _ = self.store.list(CRDS, None)
        for crd in items:
            if crd["spec"]["group"] == group:
                self.store.delete(CRDS, "", crd["metadata"]["name"])

    def install_crd(self, crd: Obj | None = None) -> None:
        """Install a CRD object (default: the DGD CRD kubectl-dgd bundles, as the operator
        applies it) and serve its group."""
        self.store.hidden_groups.discard((crd or dgd_crd())["spec"]["group"])
        if crd is None:
            self.store.seed_shared(dgd_crd())  # every test installs it: not copied each time
        else:
            self.store.seed(crd)

    def install_addon(self, group: str) -> None:
        """Serve an optional CRD group (Grove ``grove.io``, LWS ``leaderworkerset.x-k8s.io``)."""
        self.store.hidden_groups.discard(group)

    def _log(self, record: RequestRecord) -> None:
        with self._log_lock:
            self.request_log.append(record)

    def visible_types(self) -> list[ResourceType]:
        """What discovery lists: the installed groups, each type at the version it is served at."""
        served_at = self.store.served_at
        return [
            dataclasses.replace(rt, version=served_at[rt.key]) if rt.key in served_at else rt
            for rt in self.store.types.values()
            if rt.group not in self.store.hidden_groups
        ]


def wait_until(condition: Any, timeout: float = 5.0, interval: float = 0.02) -> bool:
    """Poll ``condition()`` until true or ``timeout`` (bounded loop for tests)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return bool(condition())
