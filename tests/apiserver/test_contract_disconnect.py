"""A client that hangs up early is normal for an API server: no traceback on stderr.

kubectl-dgd stops watches as soon as it has what it waits for, and Ctrl-C drops connections
mid-response; over TLS that surfaces as ``ssl.SSLEOFError`` in the server's thread.
"""

from __future__ import annotations

import socket
import ssl
import struct

import pytest

from tests.apiserver.fixtures import sample_dgd
from tests.apiserver.resources import DGD
from tests.apiserver.server import ApiServer, wait_until

NS = "dynamo"


def _connect(server: ApiServer) -> socket.socket:
    host, port = server.address.split(":")
    raw = socket.create_connection((host, int(port)), timeout=5)
    context = server.ssl_context()
    return context.wrap_socket(raw, server_hostname=host) if context else raw


def _reset(sock: socket.socket) -> None:
    """Close with a TCP reset and no TLS close_notify: what a killed client does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def _request(path: str, token: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
        "Accept: application/json\r\n\r\n"
    ).encode()


def test_a_watch_client_that_hangs_up_leaves_no_traceback(
    apiserver: ApiServer, capsys: pytest.CaptureFixture[str]
) -> None:
    apiserver.seed(sample_dgd("alpha"))
    sock = _connect(apiserver)
    path = f"/apis/nvidia.com/v1beta1/namespaces/{NS}/dynamographdeployments?watch=true"
    sock.sendall(_request(path, apiserver.token))
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    _reset(sock)
    for state in ("a", "b", "c", "d", "e", "f"):  # writes to the dead connection
        apiserver.store.write_status(DGD, NS, "alpha", {"state": state})
    apiserver.seed(sample_dgd("beta"))
    assert wait_until(lambda: "Traceback" in capsys.readouterr().err, timeout=1.0) is False


def test_a_client_that_hangs_up_mid_request_leaves_no_traceback(
    apiserver: ApiServer, capsys: pytest.CaptureFixture[str]
) -> None:
    for _ in range(5):
        sock = _connect(apiserver)
        sock.sendall(b"GET /apis HTTP/1.1\r\nHost: x\r\n")  # headers never finished
        _reset(sock)
    # the server still answers the next client
    sock = _connect(apiserver)
    sock.sendall(_request("/version", apiserver.token))
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    sock.close()
    assert "Traceback" not in capsys.readouterr().err


def test_a_bug_in_the_server_is_still_reported(
    apiserver: ApiServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only disconnects are quiet: other errors outside a request's handling still show."""
    assert apiserver._httpd is not None
    try:
        raise ValueError("an emulator bug")
    except ValueError:
        apiserver._httpd.handle_error(None, ("127.0.0.1", 1))
    assert "ValueError: an emulator bug" in capsys.readouterr().err
    try:
        raise ssl.SSLEOFError("EOF occurred in violation of protocol")
    except ssl.SSLEOFError:
        apiserver._httpd.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""
