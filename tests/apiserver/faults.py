"""Fault injection for the test API server: forbid, fail, delay, run code between requests, and
take over a response with one of the misbehaving answers at the end of this module."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RequestRecord:
    """One request as the server saw it (for counting and for fault matching)."""

    method: str
    path: str
    query: dict[str, list[str]]
    verb: str  # get, list, watch, create, update, patch, delete, discovery, unknown
    resource: str = ""
    subresource: str = ""
    group: str = ""  # the API group of the path (also for a kind that is not served)
    namespace: str | None = None
    name: str = ""
    content_type: str = ""
    accept: str = ""
    user_agent: str = ""
    # Every header as sent, repeated ones kept in order (Impersonate-Group comes once per group).
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""  # as sent (a PATCH's patch, as the client computed it)

    def header_values(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]

    @property
    def is_discovery(self) -> bool:
        return self.verb == "discovery"


Match = Callable[[RequestRecord], bool]
# Writes a whole (mis)answer on a BaseHTTPRequestHandler; see "misbehaving responses" below.
Responder = Callable[[Any], None]


def resource_requests(record: RequestRecord) -> bool:
    return not record.is_discovery


def matching(
    verb: str | None = None, resource: str | None = None, name: str | None = None
) -> Match:
    """A matcher on verb, resource plural and object name (None: any)."""

    def match(record: RequestRecord) -> bool:
        return (
            (verb is None or record.verb == verb)
            and (resource is None or record.resource == resource)
            and (name is None or record.name == name)
        )

    return match


@dataclass(frozen=True)
class Rule:
    """One rule of a Role, as its manifest writes it (``resources`` may name a subresource:
    ``pods/log``). A real-cluster test creates the Role from the same data."""

    api_groups: tuple[str, ...]
    resources: tuple[str, ...]
    verbs: tuple[str, ...]

    def allows(self, record: RequestRecord) -> bool:
        resource = (
            f"{record.resource}/{record.subresource}" if record.subresource else record.resource
        )
        return (
            record.group in self.api_groups
            and resource in self.resources
            and (record.verb in self.verbs or "*" in self.verbs)
        )

    def to_manifest(self) -> dict[str, Any]:
        return {
            "apiGroups": list(self.api_groups),
            "resources": list(self.resources),
            "verbs": list(self.verbs),
        }


@dataclass(frozen=True)
class Access:
    """What the test user may do, as RBAC grants it: ``rules`` of a Role bound in ``namespace``
    and nothing at the cluster scope. Discovery stays open, as system:discovery grants it to
    every account; everything else, kinds that are not served included, is a 403 (RBAC runs
    before the server looks the resource up)."""

    namespace: str
    rules: tuple[Rule, ...]

    def allows(self, record: RequestRecord) -> bool:
        return record.namespace == self.namespace and any(r.allows(record) for r in self.rules)

    def role(self, name: str) -> dict[str, Any]:
        """The Role that grants this on a real cluster (bind it to the test's user)."""
        return {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "Role",
            "metadata": {"name": name, "namespace": self.namespace},
            "rules": [rule.to_manifest() for rule in self.rules],
        }

    def without(self, *resources: str) -> Access:
        """The same grants less ``resources`` (``events``, ``dynamocomponentdeployments``)."""
        rules = tuple(
            Rule(r.api_groups, tuple(x for x in r.resources if x not in resources), r.verbs)
            for r in self.rules
        )
        return Access(self.namespace, tuple(r for r in rules if r.resources))


@dataclass
class _Failure:
    remaining: int
    code: int
    match: Match


@dataclass
class _Hook:
    callback: Callable[[RequestRecord], Any]
    match: Match
    remaining: int


@dataclass
class _Takeover:
    responder: Responder
    match: Match
    remaining: int | None  # None: every matching request


@dataclass
class Faults:
    """Everything a test can make the server do wrong. Thread-safe; cleared per test."""

    forbidden: list[tuple[str, str, str | None]] = field(default_factory=list)
    access: Access | None = None  # None: everything not forbidden is allowed
    _failures: list[_Failure] = field(default_factory=list)
    _delays: list[tuple[float, Match]] = field(default_factory=list)
    _hooks: list[_Hook] = field(default_factory=list)
    _takeovers: list[_Takeover] = field(default_factory=list)
    _warnings: list[tuple[str, Match]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def forbid(
        self, verb: str, resource: str = "dynamographdeployments", namespace: str | None = None
    ) -> None:
        """RBAC says no: ``verb`` on ``resource`` (in ``namespace``, or anywhere) is a 403."""
        with self._lock:
            self.forbidden.append((verb, resource, namespace))

    def warn(self, text: str, match: Match) -> None:
        """Answers to matching requests carry ``Warning: 299 - "text"``, as kube-apiserver's
        for a deprecated version or an admission warning."""
        with self._lock:
            self._warnings.append((text, match))

    def warnings_for(self, record: RequestRecord) -> list[str]:
        with self._lock:
            return [text for text, match in self._warnings if match(record)]

    def grant_only(self, access: Access) -> None:
        """RBAC as a namespace-scoped user has it: only what ``access`` grants."""
        with self._lock:
            self.access = access

    def fail_next(self, count: int, code: int = 500, match: Match = resource_requests) -> None:
        """The next ``count`` matching requests answer ``code`` (500, 503, 504, or 429 with
        Retry-After) with a Status."""
        with self._lock:
            self._failures.append(_Failure(count, code, match))

    def delay(self, seconds: float, match: Match = resource_requests) -> None:
        with self._lock:
            self._delays.append((seconds, match))

    def before(
        self, callback: Callable[[RequestRecord], Any], match: Match, times: int = 1
    ) -> None:
        """Run ``callback`` just before the server handles the next ``times`` matching
        requests: e.g. another writer changes the graph between our read and our patch."""
        with self._lock:
            self._hooks.append(_Hook(callback, match, times))

    def respond(self, responder: Responder, match: Match, times: int | None = None) -> None:
        """Answer the next ``times`` matching requests (None: all of them) with ``responder``
        instead of the real handler, e.g. ``respond(empty_watch, matching(verb="watch"))``."""
        with self._lock:
            self._takeovers.append(_Takeover(responder, match, times))

    def clear(self) -> None:
        with self._lock:
            self._takeovers.clear()
            self.access = None
            self._warnings.clear()
            self.forbidden.clear()
            self._failures.clear()
            self._delays.clear()
            self._hooks.clear()

    # -- used by the server ---------------------------------------------------------------------

    def is_forbidden(self, record: RequestRecord) -> bool:
        with self._lock:
            if self.access is not None and not self.access.allows(record):
                return True
            return any(
                verb == record.verb
                and resource == record.resource
                and (namespace is None or namespace == record.namespace)
                for verb, resource, namespace in self.forbidden
            )

    def failure_for(self, record: RequestRecord) -> int | None:
        with self._lock:
            for failure in self._failures:
                if failure.remaining > 0 and failure.match(record):
                    failure.remaining -= 1
                    return failure.code
        return None

    def apply_delay(self, record: RequestRecord) -> None:
        with self._lock:
            total = sum(seconds for seconds, match in self._delays if match(record))
        if total > 0:
            time.sleep(total)

    def responder_for(self, record: RequestRecord) -> Responder | None:
        with self._lock:
            for takeover in self._takeovers:
                if takeover.remaining != 0 and takeover.match(record):
                    if takeover.remaining is not None:
                        takeover.remaining -= 1
                    return takeover.responder
        return None

    def run_hooks(self, record: RequestRecord) -> None:
        with self._lock:
            due = [h for h in self._hooks if h.remaining > 0 and h.match(record)]
            for hook in due:
                hook.remaining -= 1
        for hook in due:  # outside the lock: a hook may write through the store
            hook.callback(record)


# -- misbehaving responses ----------------------------------------------------------------------
# A responder takes over one request after authentication: it writes whatever bytes it likes on
# ``handler.wfile`` (a BaseHTTPRequestHandler) and may hang up. These are the shapes of failure
# seen behind proxies and broken servers; each one is something a client must survive or report
# in one line.


def _chunk(handler: Any, data: bytes) -> None:
    handler.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    handler.wfile.flush()


def _stream_headers(handler: Any) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    handler.close_connection = True


def _serving(handler: Any) -> bool:
    return not handler.api.store.closed


def empty_watch(handler: Any) -> None:
    """A 200 with an empty body: the watch ends as soon as it starts (an idle-closing proxy)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def dropped_stream(after: bytes = b"") -> Responder:
    """A chunked 200 that sends ``after`` and hangs up without the last chunk (the client sees
    "Response ended prematurely")."""

    def respond(handler: Any) -> None:
        _stream_headers(handler)
        if after:
            _chunk(handler, after)
        handler.wfile.write(b'5\r\n{"ty')  # half a chunk, then the connection is gone
        handler.wfile.flush()

    return respond


def endless_line(seconds: float = 60.0, piece: bytes = b"x" * 65536) -> Responder:
    """A watch stream whose first line never ends: bytes without a newline, as fast as the
    client reads, for ``seconds`` (or until the client hangs up or the server stops)."""

    def respond(handler: Any) -> None:
        _stream_headers(handler)
        deadline = time.monotonic() + seconds
        _chunk(handler, b'{"type":"MODIFIED","object":{"x":"')
        while time.monotonic() < deadline and _serving(handler):
            _chunk(handler, piece)
        handler.wfile.write(b"0\r\n\r\n")

    return respond


def watch_lines(*lines: bytes, then_hold: float = 0.0) -> Responder:
    """A chunked watch stream of exactly these lines (malformed or wrong-shaped events), then,
    after holding the stream open ``then_hold`` seconds, its normal end."""

    def respond(handler: Any) -> None:
        _stream_headers(handler)
        for line in lines:
            _chunk(handler, line + b"\n")
        deadline = time.monotonic() + then_hold
        while time.monotonic() < deadline and _serving(handler):
            time.sleep(0.05)
        handler.wfile.write(b"0\r\n\r\n")

    return respond


def body(payload: bytes, code: int = 200, headers: dict[str, str] | None = None) -> Responder:
    """An answer with exactly this status, these headers and this body (wrong-shaped JSON,
    ``Retry-After: nan`` and the like)."""

    def respond(handler: Any) -> None:
        handler.send_response(code)
        for key, value in {"Content-Type": "application/json", **(headers or {})}.items():
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)

    return respond


def drip(payload: bytes, interval: float = 0.5) -> Responder:
    """Headers at once, then the body one byte every ``interval`` seconds: each read succeeds,
    so only a deadline for the whole call cuts it off."""

    def respond(handler: Any) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.flush()
        for byte in payload:
            if not _serving(handler):
                return
            time.sleep(interval)
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()

    return respond


def drip_headers(payload: bytes, interval: float = 0.5) -> Responder:
    """The status line and headers one byte every ``interval`` seconds (then the body): each
    read succeeds, so only a deadline for the whole call cuts the wait for the headers off."""

    def respond(handler: Any) -> None:
        head = (
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(payload)}\r\n".encode()
            + b"X-Padding: "
            + b"x" * 200
            + b"\r\n\r\n"
        )
        handler.close_connection = True
        for byte in head:
            if not _serving(handler):
                return
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except OSError:  # the client hung up
                return
            time.sleep(interval)
        handler.wfile.write(payload)

    return respond


def stall_after_headers(seconds: float = 60.0) -> Responder:
    """Headers announcing a body that never comes (for ``seconds``, or until the server stops)."""

    def respond(handler: Any) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "100")
        handler.end_headers()
        handler.wfile.flush()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and _serving(handler):
            time.sleep(0.05)
        handler.close_connection = True

    return respond


class SilentListener:
    """A port that accepts connections and never says a word (not even a TLS handshake): a
    hung server or a black-holing load balancer. Use as a context manager; ``.url`` is https."""

    def __init__(self) -> None:
        import socket

        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._accepted: list[Any] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._sock.getsockname()[:2]
        return f"https://{host}:{port}"

    def _accept(self) -> None:
        self._sock.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self._accepted.append(conn)

    def __enter__(self) -> SilentListener:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for conn in self._accepted:
            conn.close()
        self._sock.close()
