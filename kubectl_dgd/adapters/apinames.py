"""Object names and namespaces as the API server accepts them, checked before they reach a URL.

A name is a path segment: ``restart ../../../api/v1/namespaces/default/secrets/x`` must not turn
into a PATCH of a Secret. DGD names are DNS subdomains (RFC 1123, at most 253 characters) and
namespaces DNS labels (at most 63), as apimachinery's validation says; anything else is refused
(exit 2) before any request, and every segment is percent-escaped anyway.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from kubectl_dgd.errors import UsageError

_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_LABEL = re.compile(_LABEL)
_DNS_SUBDOMAIN = re.compile(rf"{_LABEL}(\.{_LABEL})*")
MAX_SUBDOMAIN = 253
MAX_LABEL = 63


def _shown(value: str) -> str:
    """The value quoted with every control and non-ASCII character escaped, and shortened."""
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:76] + '..."'


def check_name(name: str, what: str = "dynamographdeployment") -> str:
    if len(name) > MAX_SUBDOMAIN or not _DNS_SUBDOMAIN.fullmatch(name):
        raise UsageError(
            f"invalid {what} name {_shown(name)}: must be a DNS subdomain (lowercase letters, "
            f"digits, '-' and '.', starting and ending with a letter or digit, at most "
            f"{MAX_SUBDOMAIN} characters)"
        )
    return name


def check_namespace(namespace: str) -> str:
    if len(namespace) > MAX_LABEL or not _DNS_LABEL.fullmatch(namespace):
        raise UsageError(
            f"invalid namespace {_shown(namespace)}: must be a DNS label (lowercase letters, "
            f"digits and '-', starting and ending with a letter or digit, at most {MAX_LABEL} "
            "characters)"
        )
    return namespace


def segment(value: str) -> str:
    """One URL path segment: nothing in it can add a segment or a query."""
    return quote(value, safe="")
