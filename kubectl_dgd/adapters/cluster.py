"""The cluster port: the few API calls the live commands make, over the ``kubernetes`` client.

This is the only module (with the kubeconfig adapter) that uses ``kubernetes``, through
``kubeclient`` and inside functions: a command that never talks to a cluster never loads it,
and one that does loads only the transport, the configuration and the loaders.

Objects are plain dicts (the JSON the API returns, no client models). Every request is counted
(``requests``) and, with ``-v``, logged on stderr. API failures become our exceptions with one
line each; see ``api_error``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from kubectl_dgd.adapters.answers import (
    check_list,
    check_metadata,
    check_object,
    text_only,
    warning_texts,
)
from kubectl_dgd.adapters.apinames import check_name, check_namespace, segment
from kubectl_dgd.adapters.kubeconfig import ResolvedConfig, client_configuration
from kubectl_dgd.errors import ApiError, ConflictError, DgdError, InputError, NotFoundError
from kubectl_dgd.model.kinds import CRD_MISSING

GROUP = "nvidia.com"
VERSION = "v1beta1"
PLURAL = "dynamographdeployments"
KIND = "DynamoGraphDeployment"
CRD_NAME = f"{PLURAL}.{GROUP}"
# The operator's image (nvcr.io/nvidia/ai-dynamo/kubernetes-operator:<chart appVersion>).
OPERATOR_IMAGE = "kubernetes-operator"
MERGE_PATCH = "application/merge-patch+json"
# A server answering 429 or 5xx with Retry-After is asked again (client-go allows 10 tries).
MAX_RETRIES = 5
MAX_RETRY_WAIT = 10.0
# One watch event holds one object; etcd refuses objects over 1.5 MiB by default, so a line
# sixteen times that is a broken stream, not a big graph.
MAX_EVENT_BYTES = 24 * 1024 * 1024
# A page of a list is at most 500 objects; bodies past this are a broken server.
MAX_BODY = 512 * 1024 * 1024
MAX_ERROR_BODY = 1024 * 1024
# kubectl: 30 s to dial, 10 s for the TLS handshake; one bound for both here (urllib3 has one).
CONNECT_TIMEOUT = 10.0
PAGE_SIZE = 500  # kubectl's --chunk-size default
# A LIST of object metadata only (kubectl get's server-side form); plain JSON if not served.
METADATA_ONLY = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json"
# Aggregated discovery (every group, version and resource in one answer); plain JSON otherwise.
AGGREGATED_DISCOVERY = (
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
)


# What served_versions keeps when discovery could not be read (then it knows nothing).
UNKNOWN_DISCOVERY: dict[str, dict[str, list[str] | None]] = {}


@dataclass(frozen=True)
class Target:
    """What a request is about, for error messages: ``get dynamographdeployments "x" in "ns"``."""

    verb: str
    resource: str = f"{PLURAL}.{GROUP}"
    name: str = ""
    namespace: str = ""

    def describe(self) -> str:
        what = self.resource + (f' "{self.name}"' if self.name else "")
        return what + (f' in namespace "{self.namespace}"' if self.namespace else "")


@dataclass(frozen=True)
class RequestRecord:
    """One API request made (for -v and the request-count tests)."""

    method: str
    url: str
    status: int | None
    millis: float


def _status_message(body: bytes) -> str:
    """The ``message`` of a Kubernetes Status body, else the body's first line."""
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        text = body.decode("utf-8", "replace").strip()
        return text.splitlines()[0] if text else ""
    if isinstance(data, dict):
        return str(data.get("message") or "")
    return ""


def api_error(status: int, reason: str, body: bytes, target: Target, server: str) -> DgdError:
    """One line per HTTP failure, naming what the user can act on."""
    message = _status_message(body)
    detail = f": {message}" if message else ""
    if status == 401:
        return ApiError(
            f"unauthorized (401): {server} rejected the credentials of the current context",
            status,
            "Unauthorized",
        )
    if status == 403:
        return ApiError(
            f"forbidden (403): not allowed to {target.verb} {target.describe()}{detail}",
            status,
            "Forbidden",
        )
    if status == 404:
        return NotFoundError(f"{target.describe()} not found{detail}")
    if status == 409:
        return ConflictError(f"conflict (409) on {target.describe()}{detail}", status, "Conflict")
    if status == 422:
        return ApiError(f"rejected by the API server (422){detail}", status, "Invalid")
    if status == 410:
        return ApiError(f"resource version too old (410){detail}", status, "Gone")
    if status >= 500:
        return ApiError(f"API server error ({status} {reason}){detail}", status, reason)
    return ApiError(f"request failed ({status} {reason}){detail}", status, reason)


def retry_after(status: int, headers: Any) -> float | None:
    """Seconds to wait before asking again, as client-go does: the server said so with
    ``Retry-After`` on a 429 (API Priority and Fairness) or a 5xx; else None (do not retry)."""
    if status != 429 and status < 500:
        return None
    value = (headers or {}).get("Retry-After")
    try:
        seconds = float(str(value))
    except ValueError:  # absent ("None") or an HTTP date: not worth waiting for
        return None
    if not math.isfinite(seconds):  # "nan", "inf": not a number of seconds
        return None
    return min(max(seconds, 0.0), MAX_RETRY_WAIT)


def transport_error(err: BaseException, url: str, timeout: float | None) -> ApiError:
    """Connection refused, DNS, TLS, timeouts: one line each."""
    import urllib3

    cause: BaseException = err
    if isinstance(err, urllib3.exceptions.MaxRetryError) and err.reason is not None:
        cause = err.reason
    server = url.split("/", 3)
    where = "/".join(server[:3]) if len(server) >= 3 else url
    if isinstance(cause, urllib3.exceptions.SSLError):
        return ApiError(f"TLS error talking to {where}: {_short(cause)}", None, "TLS")
    # NewConnectionError subclasses ConnectTimeoutError in urllib3: test it first.
    if isinstance(cause, urllib3.exceptions.NewConnectionError | urllib3.exceptions.ProtocolError):
        return ApiError(
            f"cannot reach the API server at {where}: {_short(cause)}", None, "Unreachable"
        )
    if isinstance(cause, urllib3.exceptions.TimeoutError):
        after = f" after {timeout:g}s" if timeout else ""
        return ApiError(f"request to {where} timed out{after} (--request-timeout)", None, "Timeout")
    return ApiError(f"cannot talk to the API server at {where}: {_short(cause)}", None, "Transport")


def _short(err: BaseException) -> str:
    """The innermost reason of urllib3's nested ``Pool(...): ... (Caused by X('[SSL...]'))``."""
    text = str(err)
    for marker in ("[Errno", "[SSL"):
        if marker in text:
            text = text[text.index(marker) :]
            break
    text = text.strip()
    # Drop the closing quotes and parentheses of the wrappers we cut off, keeping balanced ones
    # such as "(_ssl.c:1006)".
    while text and text[-1] in "')\"" and (text[-1] != ")" or text.count(")") > text.count("(")):
        text = text[:-1].rstrip()
    return text or type(err).__name__


class Cluster:
    """A connection to one cluster and namespace; see the module docstring."""

    def __init__(
        self,
        resolved: ResolvedConfig,
        timeout: float | None = None,
        log: Callable[[str], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.resolved = resolved
        self.namespace = check_namespace(resolved.namespace)
        self.timeout = timeout
        self.log = log
        self.sleep = sleep  # every wait (retry, watch backoff) goes through it: tests inject one
        self.requests: list[RequestRecord] = []
        self._client: Any = None
        self._crd_installed: bool | None = None
        # The server's Warning headers (deprecations, admission warnings), each text once, as
        # kubectl prints them: "Warning: <text>" on stderr.
        self.warn = warn
        self._warned: set[str] = set()
        self._served: dict[str, dict[str, list[str] | None]] | None = None

    # ---- transport ---------------------------------------------------------------------------

    def _api(self) -> Any:
        if self._client is None:
            from kubectl_dgd.adapters.kubeclient import Transport

            configuration = client_configuration(self.resolved, self.timeout)
            import urllib3

            if not configuration.verify_ssl:
                # --insecure-skip-tls-verify was asked for: kubectl does not warn per request.
                urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)
            import warnings

            try:
                with warnings.catch_warnings():  # urllib3 warns before it fails: one line here
                    warnings.simplefilter("ignore", urllib3.exceptions.DependencyWarning)
                    self._client = Transport(configuration)
            except ImportError:  # urllib3's SOCKS support needs PySocks (kubectl's Go has it)
                if str(configuration.proxy or "").lower().startswith("socks"):
                    raise InputError(
                        "the proxy is a SOCKS proxy, which needs the PySocks package "
                        "(pip install pysocks); the proxy's address is not shown"
                    ) from None
                raise
        return self._client

    def _open(
        self,
        method: str,
        path: str,
        target: Target,
        query: dict[str, str] | None = None,
        body: Any = None,
        content_type: str = "application/json",
        timeout: float | None = None,
        deadline: float | None = None,
        accept: str | None = None,
    ) -> Any:
        """Send one request; return the raw urllib3 response (status < 400) or raise ours.

        ``deadline`` (monotonic) bounds the whole call, retries included (--request-timeout);
        ``timeout`` is a read timeout for a watch. Connecting and the TLS handshake are always
        bounded (CONNECT_TIMEOUT), as kubectl's dial and handshake timeouts are.
        """
        from kubectl_dgd.adapters.kubeclient import kube

        ApiException = kube().ApiException
        api = self._api()
        if query:
            path = f"{path}?{urlencode(query)}"
        url = api.url(path)
        headers = api.headers({"Accept": "application/json", "Content-Type": content_type})
        headers = _on_the_wire(self._impersonating(headers))
        if accept:  # another representation (list_names: metadata only)
            headers["Accept"] = accept
        status = 0
        for attempt in range(MAX_RETRIES + 1):
            started = time.perf_counter()
            sent: int | None = None
            limits = self._limits(url, timeout, deadline)
            try:
                response = api.request(method, url, headers, body, limits, deadline)
                status = sent = int(response.status)
            except ApiException as err:  # the client turns TLS failures into status-0 ones
                if deadline is not None and time.monotonic() >= deadline:
                    raise self._timed_out(url) from err
                reason = " ".join(str(err.reason).split())  # one line
                raise ApiError(f"TLS error talking to {self.resolved.server}: {reason}") from err
            except Exception as err:
                if deadline is not None and time.monotonic() >= deadline and _is_transport(err):
                    raise self._timed_out(url) from err  # the deadline cut the connection
                if _is_transport(err):
                    raise transport_error(err, url, self._shown_timeout(timeout)) from err
                raise
            finally:
                self._record(method, url, sent, started)
            raw = response.response
            self._server_warnings(raw.headers)
            wait = retry_after(status, raw.headers)
            if wait is None or attempt == MAX_RETRIES:
                break
            if deadline is not None and time.monotonic() + wait >= deadline:
                raw.drain_conn()
                raise self._timed_out(url, f": the server asked to retry after {wait:g}s")
            raw.drain_conn()  # the connection goes back to the pool for the next try
            self.sleep(wait)
        if status >= 400:
            data = self._body(raw, url, deadline, MAX_ERROR_BODY)
            error = api_error(
                status, str(response.reason or ""), data, target, self.resolved.server
            )
            if status == 404:
                error = self._explain_not_found(error, target)
            raise error
        return raw

    def _server_warnings(self, headers: Any) -> None:
        getlist = getattr(headers, "getlist", None)
        if getlist is None or self.warn is None:
            return
        for text in warning_texts(getlist("Warning")):
            if text not in self._warned:
                self._warned.add(text)
                self.warn(f"Warning: {text}")

    def _impersonating(self, headers: dict[str, str]) -> Any:
        """The headers plus Impersonate-User/-Group/-Uid (--as...); a header dict that may
        repeat a name, since the API server reads one Impersonate-Group line per group."""
        wanted = self.resolved.impersonation.headers()
        if not wanted:
            return headers
        from urllib3 import HTTPHeaderDict

        out = HTTPHeaderDict(headers)
        for name, value in wanted:
            out.add(name, value)
        return out

    def _limits(self, url: str, timeout: float | None, deadline: float | None) -> Any:
        """(connect, read) seconds for one try: what is left of the deadline, else the watch's
        read timeout, else no read limit (kubectl has none either)."""
        read = timeout
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._timed_out(url)
            read = left if read is None else min(read, left)
        connect = CONNECT_TIMEOUT if read is None else min(CONNECT_TIMEOUT, read)
        return (connect, read)

    def _shown_timeout(self, timeout: float | None) -> float | None:
        return timeout if timeout is not None else self.timeout

    def _timed_out(self, url: str, why: str = "") -> ApiError:
        where = "/".join(url.split("/", 3)[:3])
        after = f" after {self.timeout:g}s" if self.timeout else ""
        return ApiError(
            f"request to {where} timed out{after} (--request-timeout){why}", None, "Timeout"
        )

    def _body(self, raw: Any, url: str, deadline: float | None, limit: int) -> bytes:
        """The whole body, read piece by piece so that a server dripping bytes or stalling
        after the headers is cut off at the deadline (each read is bounded by what is left)."""
        pieces: list[bytes] = []
        size = 0
        try:
            chunks = _chunks(raw)
            while True:
                if deadline is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise self._timed_out(url)
                    _read_timeout(raw, left)
                piece = next(chunks, None)
                if piece is None:
                    break
                size += len(piece)
                if size > limit:
                    raise ApiError(
                        f"the API server sent a body over {limit // (1024 * 1024)} MiB for {url}",
                        None,
                        "Oversized",
                    )
                pieces.append(piece)
        except ApiError:
            raw.close()
            raise
        except Exception as err:
            raw.close()
            if _is_transport(err):
                if deadline is not None and isinstance(err, _timeout_errors()):
                    raise self._timed_out(url) from err
                raise transport_error(err, url, self.timeout) from err
            raise
        raw.release_conn()
        return b"".join(pieces)

    def _record(self, method: str, url: str, status: int | None, started: float) -> None:
        millis = (time.perf_counter() - started) * 1000
        self.requests.append(RequestRecord(method, url, status, millis))
        if self.log:
            shown = "-" if status is None else str(status)
            self.log(f"{method} {url} {shown} in {millis:.0f} ms")

    def _json(self, method: str, path: str, target: Target, **kwargs: Any) -> Any:
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        raw = self._open(method, path, target, deadline=deadline, **kwargs)
        data = self._body(raw, path, deadline, MAX_BODY)
        try:
            # Invalid UTF-8 and lone surrogates become U+FFFD, as Go's decoder makes them.
            return text_only(json.loads(data.decode("utf-8", "replace") or "null"), data)
        except (ValueError, RecursionError) as err:
            raise ApiError(
                f"the API server sent a body that is not JSON for {method} {path}"
            ) from err

    def _json_object(self, method: str, path: str, target: Target, **kwargs: Any) -> dict[str, Any]:
        """A JSON object whose metadata, spec and status are objects (or absent)."""
        obj = self._json(method, path, target, **kwargs)
        if isinstance(obj, dict) and all(
            isinstance(obj.get(key), dict | None) for key in ("metadata", "spec", "status")
        ):
            check_metadata(obj, _what(target))
            return obj
        raise ApiError(
            f"the API server sent JSON of the wrong shape for {method} {path} (want an object)",
            None,
            "BadBody",
        )

    def _explain_not_found(self, error: DgdError, target: Target) -> DgdError:
        """404: say whether the object is missing or the whole CRD is (one discovery call, once)."""
        if target.resource != CRD_NAME:
            return error
        what = target.describe()
        if not self.crd_installed():
            return NotFoundError(f"{what} not found: {CRD_MISSING}")
        return NotFoundError(
            f"{what} not found (the {KIND} CRD is installed; check the name and -n)"
        )

    def server_version(self) -> dict[str, Any]:
        """The API server's ``/version`` (gitVersion, major, minor, platform...), as sent; any
        account may read it (system:public-info-viewer), as ``kubectl version`` does."""
        return self._json_object("GET", "/version", Target("get", "/version"))

    def crd_installed(self) -> bool:
        """Whether the API serves DGDs (discovery, asked at most once)."""
        if self._crd_installed is None:
            self._crd_installed = self._discover_crd()
        return self._crd_installed

    def _discover_crd(self) -> bool:
        try:
            doc = self._json("GET", f"/apis/{GROUP}/{VERSION}", Target("get", "/discovery"))
        except NotFoundError:
            return False
        resources = doc.get("resources", []) if isinstance(doc, dict) else []
        return any(isinstance(r, dict) and r.get("name") == PLURAL for r in resources)

    def served_versions(self, group: str, plural: str) -> list[str] | None:
        """The versions at which the API serves ``plural`` of ``group`` (not the core group),
        the group's preferred version first; [] when it is not served; None when discovery
        could not be read (the caller then asks and sees). Discovery is readable by every
        account (system:discovery), so a namespace-scoped user learns here that Grove is not
        installed instead of being refused a LIST of it."""
        if self._served is None:
            try:
                self._served = self._discover()
            except DgdError:  # asked once: without it, each kind is asked for and seen
                self._served = UNKNOWN_DISCOVERY
        if self._served is UNKNOWN_DISCOVERY:
            return None
        try:
            versions = self._served.get(group, {})
            for version, plurals in versions.items():
                if plurals is None:  # no aggregated discovery: this group's list, once
                    versions[version] = self._group_version_resources(group, version)
        except DgdError:
            return None
        return [version for version, plurals in versions.items() if plural in (plurals or [])]

    def _discover(self) -> dict[str, dict[str, list[str] | None]]:
        """group -> version (preferred first) -> plurals, from aggregated discovery (one GET of
        /apis, kubectl's way since 1.30); from a server without it, the group list, each
        version's plurals left None until asked for (one GET per version of that group)."""
        target = Target("get", "/apis")
        doc = self._json_object("GET", "/apis", target, accept=AGGREGATED_DISCOVERY)
        served: dict[str, dict[str, list[str] | None]] = {}
        if doc.get("kind") == "APIGroupDiscoveryList":
            for group in check_list(doc, _what(target)):
                versions = served.setdefault(str(group["metadata"].get("name") or ""), {})
                found = group.get("versions")
                for entry in found if isinstance(found, list) else []:
                    resources = _dig(entry).get("resources")
                    versions[str(_dig(entry).get("version"))] = [
                        str(r.get("resource"))
                        for r in (resources if isinstance(resources, list) else [])
                        if isinstance(r, dict)
                    ]
            return served
        groups = doc.get("groups")
        for group in groups if isinstance(groups, list) else []:
            found = _dig(group).get("versions")
            preferred = _dig(group, "preferredVersion").get("version")
            names = [
                str(_dig(v).get("version")) for v in (found if isinstance(found, list) else [])
            ]
            names.sort(key=lambda version: version != preferred)
            served[str(_dig(group).get("name") or "")] = dict.fromkeys(names)
        return served

    def _group_version_resources(self, group: str, version: str) -> list[str]:
        path = f"/apis/{segment(group)}/{segment(version)}"
        try:
            listing = self._json_object("GET", path, Target("get", path))
        except NotFoundError:
            return []
        resources = listing.get("resources")
        return [
            str(r.get("name"))
            for r in (resources if isinstance(resources, list) else [])
            if isinstance(r, dict)
        ]

    # ---- DynamoGraphDeployments ------------------------------------------------------------

    @staticmethod
    def _collection(namespace: str | None) -> str:
        if namespace is None:
            return f"/apis/{GROUP}/{VERSION}/{PLURAL}"
        ns = segment(check_namespace(namespace))
        return f"/apis/{GROUP}/{VERSION}/namespaces/{ns}/{PLURAL}"

    @classmethod
    def _object(cls, namespace: str, name: str) -> str:
        return f"{cls._collection(namespace)}/{segment(check_name(name))}"

    def get_graph(self, name: str, namespace: str | None = None) -> dict[str, Any]:
        ns = namespace or self.namespace
        target = Target("get", name=name, namespace=ns)
        return _graph(self._json_object("GET", self._object(ns, name), target), target)

    def list_graphs(
        self, namespace: str | None, selector: str | None = None, fields: str | None = None
    ) -> dict[str, Any]:
        """LIST in pages of PAGE_SIZE (``namespace`` None = all namespaces), as kubectl's
        --chunk-size does; returns one List object with every page's items. ``fields`` is a
        field selector, judged by the server (it supports metadata.name and .namespace)."""
        target = Target("list", namespace=namespace or "")
        path = self._collection(namespace)
        return self._list_pages(path, target, _selectors(selector, fields))

    def _list_pages(
        self, path: str, target: Target, base: dict[str, str], accept: str | None = None
    ) -> dict[str, Any]:
        """One LIST in pages of PAGE_SIZE, as one List object with every page's items."""
        items: list[Any] = []
        token, seen = "", set()
        while True:
            query = {**base, "limit": str(PAGE_SIZE)}
            if token:
                query["continue"] = token
            try:
                page = self._json_object("GET", path, target, query=query, accept=accept)
            except ApiError as err:
                if err.status != 410 or not token:
                    raise
                # the continue token expired mid-list: one full list, as client-go's pager does
                page = self._json_object("GET", path, target, query=base or None, accept=accept)
                return {**page, "items": _with_kind(page, check_list(page, _what(target)))}
            items.extend(_with_kind(page, check_list(page, _what(target))))
            token = str((page.get("metadata") or {}).get("continue") or "")
            if not token:
                return {**page, "items": items}
            if token in seen:
                raise ApiError(
                    "the API server repeated a continue token while listing", None, "BadBody"
                )
            seen.add(token)

    def list_namespaces(self) -> list[str]:
        """The names of the cluster's namespaces (for completion)."""
        target = Target("list", "namespaces")
        found = self._list_pages("/api/v1/namespaces", target, {}).get("items") or []
        names = [
            (item.get("metadata") or {}).get("name") for item in found if isinstance(item, dict)
        ]
        return [str(name) for name in names if name]

    def list_objects(
        self,
        api_version: str,
        plural: str,
        namespace: str | None,
        selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every object of one kind in a namespace, or cluster-wide when ``namespace`` is None
        (see the port); items that are not objects are dropped."""
        group = api_version.split("/", maxsplit=1)[0] if "/" in api_version else ""
        prefix = f"/apis/{api_version}" if group else f"/api/{api_version}"
        if namespace is None:
            path = f"{prefix}/{segment(plural)}"
        else:
            path = f"{prefix}/namespaces/{segment(check_namespace(namespace))}/{segment(plural)}"
        resource = f"{plural}.{group}" if group else plural
        target = Target("list", resource, namespace=namespace or "")
        base = {"labelSelector": selector} if selector else {}
        if field_selector:
            base["fieldSelector"] = field_selector
        found = self._list_pages(path, target, base).get("items") or []
        return [item for item in found if isinstance(item, dict)]

    def watch_graphs(
        self,
        namespace: str,
        name: str,
        resource_version: str,
        timeout: float | None = None,
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """A watch stream of one graph from ``resource_version``: (type, object) per event.

        The stream ends when the server closes it (``timeoutSeconds``); the caller re-watches.
        """
        query = {"fieldSelector": f"metadata.name={check_name(name)}"}
        target = Target("watch", name=name, namespace=namespace)
        for kind, obj in self._watch(namespace, resource_version, query, target, timeout):
            if (obj.get("metadata") or {}).get("name", name) == name:
                yield kind, obj

    def watch_list(
        self,
        namespace: str | None,
        resource_version: str,
        selector: str | None = None,
        fields: str | None = None,
        timeout: float | None = None,
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """A watch stream of the graphs of a namespace (None: all) from ``resource_version``,
        as ``kubectl get -w``: (type, object) per event, BOOKMARKs included. The stream ends
        when the server closes it (``timeoutSeconds``); the caller re-watches."""
        target = Target("watch", namespace=namespace or "")
        query = _selectors(selector, fields)
        yield from self._watch(namespace, resource_version, query, target, timeout)

    def _watch(
        self,
        namespace: str | None,
        resource_version: str,
        query: dict[str, str],
        target: Target,
        timeout: float | None,
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """The events of one watch of the graphs' collection; an ERROR event is raised as the
        API error it carries."""
        query = {
            **query,
            "watch": "true",
            "resourceVersion": resource_version,
            "allowWatchBookmarks": "true",
        }
        read_timeout = ends = None
        if timeout is not None:
            query["timeoutSeconds"] = str(max(1, int(timeout + 0.999)))
            read_timeout = timeout + 5  # the server ends the stream first; this catches a hang
            # ... and a server that holds the stream open past it is cut off at the window's
            # end, as if it had closed it: a caller's deadline is never overrun.
            ends = time.monotonic() + timeout
        raw = self._open(
            "GET", self._collection(namespace), target, query=query, timeout=read_timeout
        )
        try:
            for line in _lines(raw, MAX_EVENT_BYTES, ends):
                kind, obj = _event(line)
                if kind == "ERROR":
                    code = obj.get("code")
                    status = code if isinstance(code, int) and 400 <= code <= 599 else 500
                    body = json.dumps(obj).encode()
                    raise api_error(
                        status, str(obj.get("reason", "")), body, target, self.resolved.server
                    )
                if kind != "BOOKMARK":  # a bookmark carries only a resourceVersion
                    where = obj_namespace(obj, namespace)
                    check_object(obj, _what(target), f"{GROUP}/{VERSION}", KIND, "", where)
                yield kind, obj
        except Exception as err:
            if ends is not None and time.monotonic() >= ends and isinstance(err, _timeout_errors()):
                raw.close()  # the window is over: the stream ends here
                return
            if _is_transport(err):
                raise transport_error(err, self.resolved.server, read_timeout) from err
            raise
        finally:
            raw.release_conn()

    def patch_restart(
        self,
        name: str,
        namespace: str,
        restart: dict[str, Any],
        resource_version: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Merge-patch only ``spec.restart``, failing with 409 if the object changed since read;
        ``dry_run``: admission runs (``dryRun=All``), nothing is stored."""
        patch = {"metadata": {"resourceVersion": resource_version}, "spec": {"restart": restart}}
        target = Target("patch", name=name, namespace=namespace)
        path = self._object(namespace, name)
        query = {"dryRun": "All"} if dry_run else None
        answer = self._json_object(
            "PATCH", path, target, body=patch, content_type=MERGE_PATCH, query=query
        )
        return _graph(answer, target)

    def patch_graph(self, name: str, namespace: str, patch: dict[str, Any]) -> dict[str, Any]:
        """One merge patch of the graph, sent as given (no retry: a stale
        ``metadata.resourceVersion`` in it is a 409 the caller reports)."""
        target = Target("patch", name=name, namespace=namespace)
        path = self._object(namespace, name)
        answer = self._json_object("PATCH", path, target, body=patch, content_type=MERGE_PATCH)
        return _graph(answer, target)

    def dry_run_apply(self, obj: dict[str, Any], namespace: str, exists: bool) -> dict[str, Any]:
        """Submit ``obj`` with ``dryRun=All`` (update if it exists, else create): the real admission."""
        name = str((obj.get("metadata") or {}).get("name", ""))
        query = {"dryRun": "All", "fieldManager": "kubectl-dgd"}
        if exists:
            target = Target("update", name=name, namespace=namespace)
            path = self._object(namespace, name)
            return _graph(self._json_object("PUT", path, target, body=obj, query=query), target)
        target = Target("create", name=name, namespace=namespace)
        path = self._collection(namespace)
        return _graph(self._json_object("POST", path, target, body=obj, query=query), target)

    # ---- other objects -------------------------------------------------------------------------

    def get_crd(self) -> dict[str, Any] | None:
        """The installed DGD CRD, or None when it cannot be read (missing, or no RBAC to read it)."""
        path = f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{CRD_NAME}"
        target = Target("get", "customresourcedefinitions.apiextensions.k8s.io", CRD_NAME)
        try:
            return self._json_object("GET", path, target)
        except NotFoundError:
            return None
        except ApiError as err:
            if err.status == 403:
                return None
            raise

    def dgd_admission_webhooks(self) -> list[str] | None:
        """Names of the validating and mutating webhooks whose rules cover DGDs (the operator's,
        when it is installed), or None when the configurations cannot be listed (no RBAC)."""
        found: list[str] = []
        for kind in ("validatingwebhookconfigurations", "mutatingwebhookconfigurations"):
            target = Target("list", f"{kind}.admissionregistration.k8s.io")
            try:
                data = self._json("GET", f"/apis/admissionregistration.k8s.io/v1/{kind}", target)
            except (NotFoundError, ApiError):
                return None
            for item in (data or {}).get("items", []) or []:
                for hook in (item or {}).get("webhooks") or []:
                    if any(_covers_dgds(rule) for rule in (hook or {}).get("rules") or []):
                        found.append(str((hook or {}).get("name", "")))
        return found

    def operator_images(self) -> list[str]:
        """Images of the Dynamo operator's ``manager`` containers in any namespace, or [] when the
        Deployments cannot be listed (no RBAC for them is common; callers fall back)."""
        target = Target("list", "deployments.apps")
        try:
            data = self._json_object("GET", "/apis/apps/v1/deployments", target)
            items = check_list(data, _what(target))
        except (NotFoundError, ApiError):
            return []
        images: list[str] = []
        for item in items:
            containers = _dig(item, "spec", "template", "spec").get("containers")
            for container in containers if isinstance(containers, list) else []:
                if not isinstance(container, dict):
                    continue
                image = str(container.get("image") or "")
                if container.get("name") == "manager" and OPERATOR_IMAGE in image:
                    images.append(image)
        return images

    def pod_log(
        self,
        namespace: str,
        pod: str,
        container: str | None = None,
        *,
        follow: bool = False,
        previous: bool = False,
        tail: int | None = None,
        since_seconds: int | None = None,
        timestamps: bool = False,
    ) -> Iterator[str]:
        """One container's log through ``pods/log``, line by line as it arrives."""
        query: dict[str, str] = {}
        if container:
            query["container"] = container
        if follow:
            query["follow"] = "true"
        if previous:
            query["previous"] = "true"
        if tail is not None:
            query["tailLines"] = str(tail)
        if since_seconds is not None:
            query["sinceSeconds"] = str(since_seconds)
        if timestamps:
            query["timestamps"] = "true"
        ns = segment(check_namespace(namespace))
        path = f"/api/v1/namespaces/{ns}/pods/{segment(check_name(pod))}/log"
        target = Target("get", "pods/log", pod, namespace)
        deadline = None if follow or self.timeout is None else time.monotonic() + self.timeout
        raw = self._open("GET", path, target, query=query, deadline=deadline)
        try:
            for line in _lines(raw, MAX_LOG_LINE):
                yield line.decode("utf-8", "replace").rstrip("\r")
        except Exception as err:
            if _is_transport(err):
                raise transport_error(err, self.resolved.server, None) from err
            raise
        finally:
            raw.release_conn()

    def list_events(self, name: str, namespace: str) -> list[dict[str, Any]]:
        """The Events about one graph, oldest first."""
        query = {
            "fieldSelector": f"involvedObject.kind={KIND},involvedObject.name={check_name(name)}"
        }
        target = Target("list", "events", namespace=namespace)
        path = f"/api/v1/namespaces/{segment(check_namespace(namespace))}/events"
        found = check_list(self._json_object("GET", path, target, query=query), _what(target))
        items = [
            e
            for e in found
            if isinstance(e, dict)
            and isinstance(e.get("involvedObject"), dict)
            and (e.get("involvedObject") or {}).get("name") == name
            and (e.get("involvedObject") or {}).get("kind") == KIND
        ]
        return sorted(items, key=_event_time)

    def list_names(self, api_version: str, plural: str, namespace: str) -> list[str]:
        """The names of one kind's objects in a namespace, from a metadata-only LIST (the API
        server then sends no Secret data at all); only the names are kept, whatever came."""
        group = api_version.split("/", maxsplit=1)[0] if "/" in api_version else ""
        prefix = f"/apis/{api_version}" if group else f"/api/{api_version}"
        path = f"{prefix}/namespaces/{segment(check_namespace(namespace))}/{segment(plural)}"
        target = Target("list", f"{plural}.{group}" if group else plural, namespace=namespace)
        found = self._list_pages(path, target, {}, accept=METADATA_ONLY).get("items") or []
        return sorted(
            str((item.get("metadata") or {}).get("name") or "")
            for item in found
            if isinstance(item, dict) and isinstance(item.get("metadata"), dict)
        )


MAX_LOG_LINE = 16 * 1024 * 1024


def _with_kind(page: dict[str, Any], items: list[Any]) -> list[Any]:
    """A real API server leaves ``apiVersion`` and ``kind`` out of a List's items (they are the
    List's, ``PodList`` -> ``Pod``); kubectl puts them back, and so do we, so that every item
    says what it is wherever it goes next (tree, why, -o json)."""
    list_kind = str(page.get("kind") or "")
    if not list_kind.endswith("List") or list_kind == "List":
        return items
    stamp = {"apiVersion": page.get("apiVersion"), "kind": list_kind[: -len("List")]}
    return [
        {**stamp, **item} if isinstance(item, dict) and "kind" not in item else item
        for item in items
    ]


def _dig(obj: Any, *keys: str) -> dict[str, Any]:
    """``obj[k1][k2]...`` where each is an object, else {} (what a junk answer leaves)."""
    for key in keys:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj if isinstance(obj, dict) else {}


def obj_namespace(obj: dict[str, Any], namespace: str | None) -> str:
    """The namespace an object of a watch must be in (any, when the watch spans them all)."""
    if namespace is None:
        return str(_dig(obj, "metadata").get("namespace") or "")
    return namespace


def _what(target: Target) -> str:
    return f"{target.verb} {target.describe()}"


def _graph(obj: dict[str, Any], target: Target) -> dict[str, Any]:
    """The answer if it is the graph asked for (a proxy or a broken server may send another
    object, or ``{}``: never shown as the graph, never patched)."""
    return check_object(
        obj, _what(target), f"{GROUP}/{VERSION}", KIND, target.name, target.namespace
    )


def _on_the_wire(headers: Any) -> Any:
    """The headers as kubectl (Go's net/http) sends them: a value with a control character
    (a line break from a ``token: |`` block scalar, ``--as $'a\\nb'``) is refused before
    anything is sent, naming the header and never its value; other values go as their UTF-8
    bytes (http.client would send Latin-1, or fail on other characters)."""
    if all(value.isascii() and value.isprintable() for value in headers.values()):
        return headers  # the common case, nothing to change
    from urllib3 import HTTPHeaderDict

    out = HTTPHeaderDict()
    for name, value in headers.items():
        if any((char < " " and char != "\t") or char == "\x7f" for char in value):
            shown = "-".join(part.capitalize() for part in name.split("-"))  # Go's canonical form
            raise InputError(
                f"cannot send the {shown} header: its value holds a line break or another control "
                f'character (kubectl refuses it too: invalid header field value for "{shown}"); '
                "the value is not shown"
            )
        # surrogateescape: the bytes a command-line argument came as, as Go sends them
        out.add(name, value if value.isascii() else value.encode("utf-8", "surrogateescape"))
    return out


def _selectors(labels: str | None, fields: str | None) -> dict[str, str]:
    query = {"labelSelector": labels} if labels else {}
    if fields:
        query["fieldSelector"] = fields
    return query


def _event_time(event: dict[str, Any]) -> str:
    return str(
        event.get("lastTimestamp")
        or event.get("eventTime")
        or (event.get("metadata") or {}).get("creationTimestamp")
        or ""
    )


def _chunks(raw: Any, ends: float | None = None) -> Iterator[bytes]:
    """Bytes of a streaming response as they arrive: per HTTP chunk when chunked (urllib3's
    read1 does not decode chunked bodies), else whatever the socket has (read1). With
    ``ends`` (monotonic), no read waits past it and the stream stops there."""
    pieces = raw.read_chunked(decode_content=True) if getattr(raw, "chunked", False) else None
    while True:
        if ends is not None:
            left = ends - time.monotonic()
            if left <= 0:
                return
            _read_timeout(raw, left)
        chunk = next(pieces, None) if pieces is not None else raw.read1(65536) or None
        if chunk is None:
            return
        if chunk:
            yield chunk


def _lines(raw: Any, limit: int, ends: float | None = None) -> Iterator[bytes]:
    """Complete lines of a streaming response, each as soon as it arrives, none over ``limit``.

    Pieces are kept in a list and joined once per line (appending to one bytes object is
    quadratic), and a line that grows past ``limit`` ends the stream instead of the memory.
    """
    pieces: list[bytes] = []
    held = 0
    for chunk in _chunks(raw, ends):
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            if held + end - start > limit:
                raise _oversized(limit)
            pieces.append(chunk[start:end])
            line = b"".join(pieces)
            pieces, held, start = [], 0, end + 1
            if line.strip():
                yield line
        if start < len(chunk):
            held += len(chunk) - start
            if held > limit:
                raise _oversized(limit)
            pieces.append(chunk[start:])
    line = b"".join(pieces)
    if line.strip():
        yield line


def _oversized(limit: int) -> ApiError:
    return ApiError(
        f"the API server sent a watch event over {limit // (1024 * 1024)} MiB (no end of line); "
        "gave up on the stream",
        None,
        "Oversized",
    )


def _event(line: bytes) -> tuple[str, dict[str, Any]]:
    """One watch event line as (type, object); anything else is one ApiError line."""
    try:
        event = text_only(json.loads(line.decode("utf-8", "replace")), line)  # as _json
    except (ValueError, RecursionError):
        raise ApiError(
            f"the API server sent a watch event that is not JSON ({len(line)} bytes)",
            None,
            "BadEvent",
        ) from None
    if isinstance(event, dict):
        kind, obj = event.get("type"), event.get("object")
        if isinstance(kind, str) and isinstance(obj, dict):
            meta = obj.get("metadata")
            if meta is None or isinstance(meta, dict):
                return kind, obj
    raise ApiError(
        'the API server sent a watch event that is not {"type": ..., "object": {...}}',
        None,
        "BadEvent",
    )


def _read_timeout(raw: Any, seconds: float) -> None:
    """Bound the next socket read of a streaming response (no-op once it is released)."""
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    if sock is not None:
        sock.settimeout(max(seconds, 0.001))


def _timeout_errors() -> tuple[type[BaseException], ...]:
    import urllib3

    return (urllib3.exceptions.TimeoutError, TimeoutError)


def _is_transport(err: BaseException) -> bool:
    import urllib3

    return isinstance(err, urllib3.exceptions.HTTPError | OSError)


def _covers_dgds(rule: Any) -> bool:
    if not isinstance(rule, dict):
        return False
    groups = rule.get("apiGroups") or []
    resources = rule.get("resources") or []
    return any(g in (GROUP, "*") for g in groups) and any(
        r in (PLURAL, "*", "*/*", f"{PLURAL}/*") for r in resources
    )
