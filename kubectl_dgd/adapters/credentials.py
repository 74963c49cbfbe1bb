"""The credentials of a kubeconfig user, settled before the first request.

The Python client logs a failing exec plugin or an unreadable client certificate and then sends
the request without credentials; kubectl stops ("unable to read client-cert"). Here every
credential is checked or obtained first, and any failure is one line (never with a token or key
in it). Over plain ``http://`` no credential is sent at all, as kubectl does.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
from typing import Any

from kubectl_dgd.errors import ApiError, InputError

# What a user entry may carry that authenticates; stripped for an http:// server.
CREDENTIAL_KEYS = (
    "token",
    "tokenFile",
    "exec",
    "auth-provider",
    "username",
    "password",
    "client-certificate",
    "client-certificate-data",
    "client-key",
    "client-key-data",
)
# kubectl has no limit for an exec plugin; a plugin that never answers would hang every command.
EXEC_TIMEOUT = 60.0
SUPPORTED_PROVIDERS = ("oidc",)
MAX_REASON = 300  # characters of a failing plugin's last stderr line shown in our message
MAX_WARNING_LINES = 20  # lines of a working plugin's stderr passed on


def _readable(path: str, what: str, user: str) -> None:
    try:
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise InputError(f'unable to read {what} {path} for user "{user}": {reason}') from None


def check_cluster(cluster: dict[str, Any], name: str) -> None:
    """The cluster's TLS settings, checked as kubectl checks them for an https:// server (the
    types and base64 were checked when the file was read: ``kubeconfigtypes``)."""
    has_ca = cluster.get("certificate-authority-data") or cluster.get("certificate-authority")
    if has_ca and cluster.get("insecure-skip-tls-verify") is True:
        # client-go's TLSConfigFor, word for word.
        raise InputError(
            f'cluster "{name}": specifying a root certificates file with the insecure flag is '
            "not allowed (certificate-authority with insecure-skip-tls-verify: true)"
        )
    if not cluster.get("certificate-authority-data") and cluster.get("certificate-authority"):
        _readable(str(cluster["certificate-authority"]), "certificate-authority", name)


def settle_user(
    user: dict[str, Any], name: str, secure: bool, timeout: float | None
) -> dict[str, Any]:
    """The user entry to hand to the client: checked, with an exec plugin already run. A
    client certificate's files are checked even for an http:// server, which is then sent
    none, as kubectl validates the user before it knows the scheme."""
    for key, what in (("client-certificate", "client-cert"), ("client-key", "client-key")):
        if user.get(key) and not user.get(f"{key}-data"):
            _readable(str(user[key]), what, name)
    certificate = user.get("client-certificate") or user.get("client-certificate-data")
    if certificate and not user.get("client-key") and not user.get("client-key-data"):
        raise InputError(
            f'user "{name}": client-key-data or client-key must be specified to use the '
            "clientCert authentication method"
        )
    if not secure:
        return {k: v for k, v in user.items() if k not in CREDENTIAL_KEYS}
    settled = dict(user)
    provider = user.get("auth-provider")
    if provider is not None:
        kind = provider.get("name") if isinstance(provider, dict) else None
        if kind not in SUPPORTED_PROVIDERS:
            raise InputError(
                f'user "{name}": auth provider {json.dumps(kind)} is not supported (kubectl '
                "removed the gcp and azure providers): use an exec credential plugin"
            )
    if not user.get("token") and user.get("tokenFile"):
        _readable(str(user["tokenFile"]), "tokenFile", name)
    if "exec" in user and not user.get("token") and not user.get("tokenFile"):
        settled.pop("exec")
        settled.update(run_exec(user["exec"], name, timeout or EXEC_TIMEOUT))
    return settled


def run_exec(spec: Any, user: str, timeout: float) -> dict[str, Any]:
    """Run an exec credential plugin (client.authentication.k8s.io) once: a token or a
    client certificate and key, as user-entry fields."""
    where = f'user "{user}": exec plugin'
    if not isinstance(spec, dict) or not isinstance(spec.get("command"), str):
        raise InputError(f"{where}: no command")
    command = spec["command"]
    args = spec.get("args") or []
    env = dict(os.environ)
    for item in spec.get("env") or []:
        if isinstance(item, dict) and "name" in item:
            env[str(item["name"])] = str(item.get("value", ""))
    api_version = str(spec.get("apiVersion") or "client.authentication.k8s.io/v1")
    env["KUBERNETES_EXEC_INFO"] = json.dumps(
        {"apiVersion": api_version, "kind": "ExecCredential", "spec": {"interactive": False}}
    )
    named = f"{where} {command!r}"
    stdout, stderr, code = _run_plugin([command, *[str(a) for a in args]], env, timeout, named)
    if code != 0:
        reason = _last_line(stderr)
        raise _auth(f"{named} failed with exit code {code}" + (f": {reason}" if reason else ""))
    _pass_through(stderr)  # what the plugin said on success (a warning), as kubectl shows it
    return _credential(stdout, where, api_version)


def _auth(message: str) -> ApiError:
    return ApiError(f"getting credentials: {message}", None, "Auth")


def _run_plugin(
    argv: list[str], env: dict[str, str], timeout: float, named: str
) -> tuple[bytes, bytes, int]:
    """The plugin's stdout, stderr and exit code. It runs in a process group of its own, killed
    whole when it does not answer in time (or on Ctrl-C): a child it started would otherwise
    outlive us and hold our output open."""
    import subprocess  # here: most kubeconfigs have no exec plugin (start-up time)

    try:
        # The kubeconfig names the plugin and its arguments, as for kubectl (no shell).
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            process_group=0,
        )
    except OSError as err:
        raise _auth(f"{named}: {err.strerror or err}") from None
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        raise _auth(f"{named} did not answer within {timeout:g}s") from None
    except BaseException:
        _kill_group(proc)
        raise
    return stdout, stderr, proc.returncode


def _kill_group(proc: Any) -> None:
    import signal
    import subprocess

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=2)
    except subprocess.TimeoutExpired:  # a child that left the group still holds the pipes
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait(timeout=2)


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def _last_line(stderr: bytes) -> str:
    """The plugin's last words on stderr, escaped and shortened: our one line says why."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    last = next((line for line in reversed(lines) if line), "")
    shown = _printable(last)
    return shown if len(shown) <= MAX_REASON else shown[: MAX_REASON - 3] + "..."


def _pass_through(stderr: bytes) -> None:
    import sys

    for line in stderr.decode("utf-8", "replace").splitlines()[:MAX_WARNING_LINES]:
        sys.stderr.write(_printable(line) + "\n")


def _credential(stdout: bytes, where: str, api_version: str) -> dict[str, Any]:
    """The credential of an ExecCredential answer, checked as client-go checks it."""
    try:
        answer = json.loads(stdout)
    except (ValueError, RecursionError):
        answer = None
    if not isinstance(answer, dict):
        raise _auth(f"{where} did not print an ExecCredential")
    kind, version = answer.get("kind"), answer.get("apiVersion")
    if kind != "ExecCredential":
        shown = json.dumps(kind) if isinstance(kind, str) else "no kind"
        raise _auth(f"{where} printed {_printable(shown)[:80]}, not an ExecCredential")
    if version != api_version:
        shown = version if isinstance(version, str) else ""
        raise _auth(
            f"{where} is configured to use API version {api_version}, plugin returned version "
            f"{json.dumps(_printable(shown)[:80])}"
        )
    status = answer.get("status")
    if not isinstance(status, dict):
        raise _auth(f"{where} didn't return a status field")
    token = status.get("token")
    cert, key = status.get("clientCertificateData"), status.get("clientKeyData")
    if not all(isinstance(value, str | None) for value in (token, cert, key)):
        raise _auth(f"{where} did not print an ExecCredential")
    if token:
        return {"token": token}
    if bool(cert) != bool(key):
        raise _auth(f"{where} returned only certificate or key, not both")
    if cert and key:
        return {
            "client-certificate-data": base64.b64encode(cert.encode()).decode(),
            "client-key-data": base64.b64encode(key.encode()).decode(),
        }
    raise _auth(f"{where} gave neither a token nor a client certificate and key")
