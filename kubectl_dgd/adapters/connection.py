"""What the user asked for on the command line about the cluster connection, and kubectl's
``--request-timeout`` parsing. Apart from the kubeconfig adapter: every command carries the
connection flags, and an offline one reads them without loading the kubeconfig rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubectl_dgd.errors import InputError


@dataclass(frozen=True)
class ConnectionSettings:
    """What the user asked for on the command line."""

    kubeconfig: str | None = None
    context: str | None = None
    namespace: str | None = None
    request_timeout: float | None = None
    verbose: bool = False
    # kubectl's connection overrides (None / empty: the kubeconfig's value)
    cluster: str | None = None
    user: str | None = None
    server: str | None = None
    certificate_authority: str | None = None
    insecure_skip_tls_verify: bool = False
    tls_server_name: str | None = None
    token: str | None = None
    client_certificate: str | None = None
    client_key: str | None = None
    impersonate: str | None = None
    impersonate_groups: tuple[str, ...] = ()
    impersonate_uid: str | None = None

    def __repr__(self) -> str:  # never show a token, even in a traceback or a debug line
        shown = "<redacted>" if self.token else None
        return (
            f"ConnectionSettings(context={self.context!r}, server={self.server!r}, token={shown})"
        )


def parse_timeout(value: str | None) -> float | None:
    """kubectl's --request-timeout: ``0`` = none, a bare number = seconds, else a Go duration."""
    if value is None or value.strip() in ("", "0"):
        return None
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    units = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise InputError(
            f"invalid duration {value!r}: use a number of seconds or a duration such as 30s, 2m, 1h"
        )
    seconds = sum(float(n) * units[u] for n, u in parts)
    return seconds or None
