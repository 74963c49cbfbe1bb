"""An HTTP proxy for tests (loopback only): it records every request line it is sent and
tunnels ``CONNECT host:port`` to one fixed loopback address (the test API server), whatever
host was asked for, so that a client can reach a made-up host name through it. Without a
target it answers 502. Use as a context manager; ``.url`` is its http:// address."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from typing import Any


class RecordingProxy:
    def __init__(self, target: tuple[str, int] | None = None) -> None:
        self.target = target
        self.seen: list[str] = []  # the first line of every request, e.g. "CONNECT h:443 HTTP/1.1"
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        host, port = self._sock.getsockname()[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> RecordingProxy:
        self._spawn(self._accept)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._sock.close()
        for thread in self._threads:
            thread.join(timeout=5)

    def _spawn(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        self._sock.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                continue
            self._spawn(self._serve, conn)

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(10)
            head = b""
            with contextlib.suppress(OSError):
                while b"\r\n\r\n" not in head and len(head) < 65536:
                    piece = conn.recv(4096)
                    if not piece:
                        break
                    head += piece
            line = head.split(b"\r\n", 1)[0].decode("latin-1")
            self.seen.append(line)
            if not line.startswith("CONNECT ") or self.target is None:
                with contextlib.suppress(OSError):
                    conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            with socket.create_connection(self.target, timeout=10) as upstream:
                conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                self._pump(conn, upstream)

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([a, b], [], [], 0.1)
            for sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                (b if sock is a else a).sendall(data)
