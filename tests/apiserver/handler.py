"""HTTP handling for the test API server: routing, authentication, faults, the REST verbs.

The behaviour it emulates is listed in server.py.
"""

from __future__ import annotations

import base64
import contextlib
import json
import selectors
import socket
import ssl
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import yaml  # type: ignore[import-untyped]

from tests.apiserver import discovery, errors, openapi, watch
from tests.apiserver.errors import ApiError
from tests.apiserver.eventsv1 import to_v1
from tests.apiserver.faults import RequestRecord
from tests.apiserver.patch import BadPatch, PatchError, json_patch, merge_patch
from tests.apiserver.resources import CRDS, EVENTS, EVENTS_V1, PODS, ResourceType
from tests.apiserver.selectors import field_matcher, label_matcher
from tests.apiserver.store import Obj
from tests.apiserver.table import to_table

if TYPE_CHECKING:
    from tests.apiserver.server import ApiServer

MERGE = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"
APPLY = "application/apply-patch+yaml"
DEFAULT_WATCH_SECONDS = 1800.0

_VERB_FOR_METHOD = {"POST": "create", "PUT": "update", "PATCH": "patch", "DELETE": "delete"}

# A client that goes away mid-request or mid-response (a stopped watch, Ctrl-C, a closed TLS
# session): over TLS it surfaces as ssl.SSLError (EOF, bad length), else as ConnectionError.
DISCONNECTED = (ConnectionError, ssl.SSLError, TimeoutError)


class HttpServer(ThreadingHTTPServer):
    """Threads per connection; the TLS handshake happens in the connection's thread.

    ``serve()``/``stop()`` replace ``serve_forever()``/``shutdown()``: those poll a flag every
    0.5 s, which every test paid on teardown; here a self-pipe wakes the accept loop at once.
    """

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[BaseHTTPRequestHandler],
        context: ssl.SSLContext | None,
    ) -> None:
        super().__init__(address, handler)
        self.context = context
        self._wake_read, self._wake_write = socket.socketpair()
        self._stopping = False

    def serve(self) -> None:
        """Accept connections until ``stop()``."""
        with selectors.DefaultSelector() as selector:
            selector.register(self, selectors.EVENT_READ)
            selector.register(self._wake_read, selectors.EVENT_READ)
            while not self._stopping:
                for key, _ in selector.select():
                    if key.fileobj is self and not self._stopping:
                        self.handle_request()  # readable: accepts without waiting

    def stop(self) -> None:
        """Wake the accept loop (it ends at once); the caller joins the serving thread."""
        self._stopping = True
        with contextlib.suppress(OSError):
            self._wake_write.send(b"x")

    def server_close(self) -> None:
        super().server_close()
        self._wake_read.close()
        self._wake_write.close()

    def finish_request(self, request: Any, client_address: Any) -> None:
        if self.context is not None:
            request.settimeout(30)
            try:
                request = self.context.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return
            request.settimeout(None)
        super().finish_request(request, client_address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up is normal for a server: no traceback. Anything else is a bug."""
        if isinstance(sys.exc_info()[1], DISCONNECTED):
            return
        super().handle_error(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with contextlib.suppress(OSError):
            request.shutdown(socket.SHUT_WR)
        request.close()


def paginate(
    items: list[Obj], rv: str, query: dict[str, list[str]]
) -> tuple[list[Obj], dict[str, Any]]:
    """``limit``/``continue`` as kube-apiserver: a page, and a continue token (opaque base64 of
    the list's resourceVersion and offset) while items remain."""
    meta: dict[str, Any] = {"resourceVersion": rv}
    limit = int(query.get("limit", ["0"])[0] or 0)
    token = query.get("continue", [""])[0]
    offset = 0
    if token:
        try:
            state = json.loads(base64.b64decode(token))
            rv, offset = str(state["rv"]), int(state["offset"])
        except (ValueError, KeyError, TypeError) as error:
            raise errors.bad_request(f"continue key is not valid: {error}") from error
        meta["resourceVersion"] = rv
    if limit <= 0:
        return items[offset:], meta
    page = items[offset : offset + limit]
    if offset + limit < len(items):
        next_state = json.dumps({"rv": rv, "offset": offset + limit}).encode()
        meta["continue"] = base64.b64encode(next_state).decode()
        meta["remainingItemCount"] = len(items) - offset - limit
    return page, meta


class _Route:
    def __init__(self) -> None:
        self.rt: ResourceType | None = None
        self.namespace: str | None = None
        self.name = ""
        self.subresource = ""
        self.discovery: dict[str, Any] | None = None
        self.group = ""
        self.plural = ""  # as the path names it, served or not
        self.content_type = "application/json"
        self.unknown = False


class Handler(BaseHTTPRequestHandler):
    api: ApiServer
    protocol_version = "HTTP/1.1"
    server_version = "dgd-test-apiserver"
    # TCP_NODELAY, as Go's net/http has it: headers and body leave in separate writes, and with
    # Nagle the body waited for the client's delayed ACK, 40 ms on every answer.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests read the request log instead."""

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    # -- routing --------------------------------------------------------------------------------

    def _route(self, path: str) -> _Route:
        route = _Route()
        api = self.api
        types = api.visible_types()
        parts = [p for p in path.split("/") if p]
        if path in ("/healthz", "/livez", "/readyz"):
            route.discovery = {"text": "ok"}
            return route
        if parts == ["version"]:
            route.discovery = discovery.SERVER_VERSION
            return route
        if parts in (["api"], ["apis"]) and discovery.wants_aggregated(
            self.headers.get("Accept", "")
        ):
            route.discovery = discovery.aggregated(types, core=parts == ["api"])
            route.content_type = discovery.AGGREGATED_V2
            return route
        if parts == ["api"]:
            route.discovery = discovery.api_versions(api.address)
            return route
        if parts == ["apis"]:
            route.discovery = discovery.api_group_list(types)
            return route
        if parts == ["openapi", "v3"]:
            route.discovery = openapi.index(types)
            return route
        if parts[:2] == ["openapi", "v3"]:
            route.discovery = openapi.group_version(types, "/".join(parts[2:]), self._schemas())
            route.unknown = route.discovery is None
            return route
        if parts[:1] == ["api"] and len(parts) >= 2:
            group, version, rest = "", parts[1], parts[2:]
        elif parts[:1] == ["apis"] and len(parts) >= 2:
            group = parts[1]
            if len(parts) == 2:
                route.discovery = discovery.api_group(types, group)
                route.unknown = route.discovery is None
                return route
            version, rest = parts[2], parts[3:]
        else:
            route.unknown = True
            return route
        if not rest:
            gv = f"{group}/{version}" if group else version
            route.discovery = discovery.resource_list(types, gv)
            route.unknown = route.discovery is None
            return route
        if rest[0] == "namespaces" and len(rest) >= 3:
            route.namespace, rest = rest[1], rest[2:]
        plural = rest[0]
        route.group, route.plural = group, plural
        route.name = rest[1] if len(rest) > 1 else ""
        route.subresource = rest[2] if len(rest) > 2 else ""
        route.rt = api.store.type_for(group, version, plural)
        if route.rt is None or (route.namespace is not None and not route.rt.namespaced):
            route.unknown = True
            return route
        route.name = rest[1] if len(rest) > 1 else ""
        route.subresource = rest[2] if len(rest) > 2 else ""
        allowed = ("status", "log") if route.rt.key == PODS.key else ("status",)
        if len(rest) > 3 or (route.subresource and route.subresource not in allowed):
            route.unknown = True
        if route.subresource == "status" and not route.rt.status_subresource:
            route.unknown = True
        if route.name and route.rt.namespaced and route.namespace is None:
            route.unknown = True  # a namespaced object has no cluster-scoped path
        return route

    def _schemas(self) -> dict[str, dict[str, Any]]:
        """openAPIV3Schema per kind from the installed CRD objects (their stored version)."""
        items, _ = self.api.store.list(CRDS, None)
        schemas: dict[str, dict[str, Any]] = {}
        for crd in items:
            for version in crd["spec"].get("versions", []):
                if version.get("storage"):
                    schema = (version.get("schema") or {}).get("openAPIV3Schema")
                    if schema:
                        schemas[crd["spec"]["names"]["kind"]] = schema
        return schemas

    # -- request handling -----------------------------------------------------------------------

    def _serve(self, method: str) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
        body = self._read_body()
        route = self._route(parsed.path)
        verb = self._verb(method, route, query)
        record = RequestRecord(
            method=method,
            path=parsed.path,
            query=query,
            verb=verb,
            resource=route.rt.plural if route.rt else route.plural,
            subresource=route.subresource,
            group=route.group,
            namespace=route.namespace,
            name=route.name,
            content_type=self.headers.get("Content-Type", ""),
            accept=self.headers.get("Accept", ""),
            user_agent=self.headers.get("User-Agent", ""),
            headers=tuple(self.headers.items()),
            body=body,
        )
        self.api._log(record)
        self._record = record
        try:
            self._check_auth()
            faults = self.api.faults
            faults.apply_delay(record)
            responder = faults.responder_for(record)
            if responder is not None:
                responder(self)
                return
            code = faults.failure_for(record)
            if code is not None:
                raise errors.injected(code)
            if route.plural and route.discovery is None and faults.is_forbidden(record):
                raise errors.forbidden_path(
                    route.group, route.plural, verb, self.api.user, route.namespace, route.name
                )
            if route.unknown:
                raise errors.unknown_resource()
            if route.discovery is not None:
                if method != "GET":
                    raise errors.method_not_allowed(method)
                if "text" in route.discovery:
                    self._send_text(200, route.discovery["text"])
                else:
                    self._send_json(200, route.discovery, {"Content-Type": route.content_type})
                return
            assert route.rt is not None
            if faults.is_forbidden(record):
                raise errors.forbidden(route.rt, verb, self.api.user, route.namespace, route.name)
            faults.run_hooks(record)
            self._dispatch(method, verb, route, query, body)
        except ApiError as error:
            extra = {}
            if error.retry_after is not None:
                extra["Retry-After"] = str(error.retry_after)
            self._send_json(error.code, error.status(), extra)
        except DISCONNECTED:
            self.close_connection = True
        except Exception as error:  # an emulator bug must still answer like a server
            failure = errors.internal_error(f"{type(error).__name__}: {error}")
            self._send_json(500, failure.status())

    def _verb(self, method: str, route: _Route, query: dict[str, list[str]]) -> str:
        if route.discovery is not None:
            return "discovery"
        if route.rt is None and not route.plural:
            return "unknown"
        if method == "GET":
            if route.name:
                return "get"
            watching = query.get("watch", [""])[0].lower() in ("true", "1")
            return "watch" if watching else "list"
        if method == "DELETE" and not route.name:
            return "deletecollection"
        return _VERB_FOR_METHOD.get(method, "unknown")

    def _check_auth(self) -> None:
        if self.path.split("?")[0] in ("/healthz", "/livez", "/readyz"):
            return
        if not self.api.use_tls:
            return  # kubectl sends no credentials over plain HTTP
        if self.headers.get("Authorization", "") != f"Bearer {self.api.token}":
            raise errors.unauthorized()

    def _dispatch(
        self, method: str, verb: str, route: _Route, query: dict[str, list[str]], body: bytes
    ) -> None:
        rt = route.rt
        assert rt is not None
        store = self.api.store
        namespace = route.namespace or ""
        dry_run = "All" in query.get("dryRun", [])
        if route.subresource == "log":
            if verb != "get":
                raise errors.method_not_allowed(method)
            self._send_log(namespace, route.name, query)
            return
        if rt.key == EVENTS_V1.key:
            if verb not in ("get", "list"):
                raise errors.method_not_allowed(method)
            self._events_v1(verb, route, query)
            return
        if verb == "get":
            obj = store.get(rt, namespace, route.name)
            if self._wants_table():
                obj = to_table(rt, [obj], obj["metadata"]["resourceVersion"], store.clock())
            self._send_json(200, obj)
        elif verb in ("list", "watch"):
            labels = label_matcher(query.get("labelSelector", [""])[0])
            fields = field_matcher(query.get("fieldSelector", [""])[0], rt.field_labels)

            def matches(obj: Obj) -> bool:
                return labels(obj.get("metadata", {}).get("labels") or {}) and fields(obj)

            if verb == "watch":
                self._watch(rt, route.namespace, matches, query)
                return
            items, rv = store.list(rt, route.namespace, matches)
            if self._wants_table():
                self._send_json(200, to_table(rt, items, rv, store.clock()))
                return
            items, meta = paginate(items, rv, query)
            if self._wants_metadata_only():  # metadata only: a Secret's data is never sent
                self._send_json(200, metadata_only_list(items, meta))
                return
            self._send_json(
                200,
                {
                    "apiVersion": rt.group_version,
                    "kind": rt.list_kind,
                    "metadata": meta,
                    "items": items,
                },
            )
        elif verb == "create":
            if route.subresource:
                raise errors.method_not_allowed("POST")
            self._send_json(201, store.create(rt, namespace, self._json(body), dry_run=dry_run))
        elif verb == "update":
            obj = store.replace(
                rt,
                namespace,
                route.name,
                self._json(body),
                subresource=route.subresource,
                dry_run=dry_run,
            )
            self._send_json(200, obj)
        elif verb == "patch":
            self._patch(rt, route, body, query, dry_run)
        elif verb == "delete":
            options = self._json(body) if body else {}
            preconditions = (options or {}).get("preconditions")
            self._send_json(200, store.delete(rt, namespace, route.name, preconditions))
        else:
            raise errors.method_not_allowed(method)

    def _patch(
        self,
        rt: ResourceType,
        route: _Route,
        body: bytes,
        query: dict[str, list[str]],
        dry_run: bool,
    ) -> None:
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip()
        accepted = (
            [JSON_PATCH, MERGE, APPLY] if rt.custom else [JSON_PATCH, MERGE, STRATEGIC, APPLY]
        )
        if content_type not in accepted:
            raise errors.unsupported_media_type(content_type, accepted)
        store = self.api.store
        namespace = route.namespace or ""
        if content_type == APPLY:
            if not query.get("fieldManager", [""])[0]:
                raise errors.ApiError(
                    422,
                    "Invalid",
                    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: '
                    "is required for apply patch",
                    {"group": "meta.k8s.io", "kind": "PatchOptions"},
                )
            document = yaml.safe_load(body.decode() or "{}")
            try:
                store.get(rt, namespace, route.name)
            except ApiError as error:
                if error.code != 404 or route.subresource:
                    raise
                self._send_json(201, store.create(rt, namespace, document, dry_run=dry_run))
                return
            operations: Any = document
        else:
            operations = self._json(body)

        def apply(current: Obj) -> Obj:
            try:
                if content_type == JSON_PATCH:
                    result = json_patch(current, operations)
                else:
                    result = merge_patch(current, operations)
            except PatchError as error:
                raise errors.patch_rejected() from error
            except BadPatch as error:
                raise errors.bad_request(str(error)) from error
            if not isinstance(result, dict):
                raise errors.bad_request("the patch did not produce an object")
            return result

        obj = store.patch(
            rt, namespace, route.name, apply, subresource=route.subresource, dry_run=dry_run
        )
        self._send_json(200, obj)

    def _watch(
        self,
        rt: ResourceType,
        namespace: str | None,
        matches: watch.Predicate,
        query: dict[str, list[str]],
    ) -> None:
        timeout = float(query.get("timeoutSeconds", [DEFAULT_WATCH_SECONDS])[0])
        bookmarks = query.get("allowWatchBookmarks", [""])[0].lower() in ("true", "1")
        since = query.get("resourceVersion", [""])[0] or None
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        # the stream ends with the connection: say so, or a client reuses a closed socket
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        stream = watch.events(
            self.api.store,
            rt,
            namespace,
            matches,
            since=since,
            timeout=timeout,
            bookmarks=bookmarks,
        )
        as_table, headers_sent = self._wants_table(), False
        for change in stream:
            event = change
            if as_table and event["type"] in ("ADDED", "MODIFIED", "DELETED"):
                # as the real server: each object as a one-row Table, columns in the first only
                table = to_table(
                    rt,
                    [event["object"]],
                    event["object"]["metadata"]["resourceVersion"],
                    self.api.store.clock(),
                )
                if headers_sent:
                    table["columnDefinitions"] = []
                headers_sent = True
                event = {"type": change["type"], "object": table}
            line = json.dumps(event).encode() + b"\n"
            self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _events_v1(self, verb: str, route: _Route, query: dict[str, list[str]]) -> None:
        """events.k8s.io/v1 from the core Events' storage (read-only here)."""
        store = self.api.store
        if verb == "get":
            self._send_json(200, to_v1(store.get(EVENTS, route.namespace or "", route.name)))
            return
        labels = label_matcher(query.get("labelSelector", [""])[0])
        fields = field_matcher(query.get("fieldSelector", [""])[0], EVENTS_V1.field_labels)
        items, rv = store.list(
            EVENTS,
            route.namespace,
            lambda obj: labels(obj.get("metadata", {}).get("labels") or {}) and fields(obj),
        )
        page, meta = paginate([to_v1(item) for item in items], rv, query)
        self._send_json(
            200,
            {
                "apiVersion": "events.k8s.io/v1",
                "kind": "EventList",
                "metadata": meta,
                "items": page,
            },
        )

    def _send_log(self, namespace: str, pod: str, query: dict[str, list[str]]) -> None:
        """pods/log: text/plain, chunked so that ``follow`` streams line by line."""
        lines = self.api.logs.stream(namespace, pod, query)  # errors before any byte is sent
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()  # the terminated chunked body keeps the connection reusable
        for line in lines:
            data = line.encode()
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # -- I/O ------------------------------------------------------------------------------------

    def _wants_table(self) -> bool:
        return "as=Table" in self.headers.get("Accept", "")

    def _wants_metadata_only(self) -> bool:
        return "as=PartialObjectMetadataList" in self.headers.get("Accept", "")

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            body = b""
            for _ in range(100_000):  # bounded: a request body of at most that many chunks
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()  # the blank line after the last chunk
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
            raise errors.bad_request("request body has too many chunks")
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    @staticmethod
    def _json(body: bytes) -> Any:
        try:
            return json.loads(body or b"null")
        except ValueError as error:
            raise errors.bad_request(f"error decoding request body: {error}") from error

    def _send_json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        headers = {"Content-Type": "application/json", **(headers or {})}
        for key, value in headers.items():
            self.send_header(key, value)
        record = getattr(self, "_record", None)
        for text in self.api.faults.warnings_for(record) if record is not None else []:
            escaped = text.replace("\\", "\\\\").replace('"', '\\"')
            self.send_header("Warning", f'299 - "{escaped}"')
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_text(self, code: int, text: str) -> None:
        data = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def metadata_only_list(items: list[Obj], meta: Obj) -> Obj:
    """A ``PartialObjectMetadataList`` (meta.k8s.io/v1): each item's kind and metadata only."""
    return {
        "apiVersion": "meta.k8s.io/v1",
        "kind": "PartialObjectMetadataList",
        "metadata": meta,
        "items": [
            {
                "apiVersion": "meta.k8s.io/v1",
                "kind": "PartialObjectMetadata",
                "metadata": i["metadata"],
            }
            for i in items
        ],
    }
