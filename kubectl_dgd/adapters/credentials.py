"""The credentials of a kubeconfig user, settled before the first request.

The Python client logs a failing exec plugin or an unreadable client certificate and then sends
the request without credentials; kubectl stops ("unable to read client-cert"). Here every
credential is checked or obtained first, and any failure is one line (never with a token or key
in it). Over plain ``http://`` no credential is sent at all, as kubectl does.
"""

from __future__ import annotations

import base64
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
    import subprocess  # here: most kubeconfigs have no exec plugin (start-up time)

    try:
        # The kubeconfig names the plugin and its arguments, as for kubectl (no shell).
        proc = subprocess.run(
            [command, *[str(a) for a in args]],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env=env,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ApiError(
            f"getting credentials: {where} {command!r} did not answer within {timeout:g}s",
            None,
            "Auth",
        ) from None
    except OSError as err:
        raise ApiError(
            f"getting credentials: {where} {command!r}: {err.strerror or err}", None, "Auth"
        ) from None
    if proc.returncode != 0:
        raise ApiError(
            f"getting credentials: {where} {command!r} failed with exit code {proc.returncode}",
            None,
            "Auth",
        )
    try:
        status = json.loads(proc.stdout).get("status") or {}
    except (ValueError, AttributeError, RecursionError):
        status = None
    if not isinstance(status, dict):
        raise ApiError(
            f"getting credentials: {where} did not print an ExecCredential", None, "Auth"
        )
    if isinstance(status.get("token"), str) and status["token"]:
        return {"token": status["token"]}
    cert, key = status.get("clientCertificateData"), status.get("clientKeyData")
    if isinstance(cert, str) and isinstance(key, str) and cert and key:
        return {
            "client-certificate-data": base64.b64encode(cert.encode()).decode(),
            "client-key-data": base64.b64encode(key.encode()).decode(),
        }
    raise ApiError(
        f"getting credentials: {where} gave neither a token nor a client certificate and key",
        None,
        "Auth",
    )
