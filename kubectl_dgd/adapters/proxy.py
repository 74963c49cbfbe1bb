"""Which proxy a request goes through, by Go's rules (``http.ProxyFromEnvironment``, i.e.
golang.org/x/net/http/httpproxy), which kubectl uses when the cluster has no ``proxy-url``.

Where they differ from Python's (``urllib.request.getproxies``, which the official client
reads): localhost and loopback addresses are never proxied (``kubectl proxy``, a kind cluster,
an SSH tunnel); ``HTTPS_PROXY`` serves https:// and ``HTTP_PROXY`` http://, upper case before
lower case, and ``ALL_PROXY`` is not read; ``NO_PROXY`` entries are ``*``, IP addresses and
CIDR ranges (IP hosts only), and domains with an optional port, where ``example.com`` covers
the domain and its subdomains and ``.example.com`` or ``*.example.com`` the subdomains only.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from urllib.parse import urlsplit

from kubectl_dgd.errors import InputError

# What the decision reads (resolve() keeps these of its environment).
VARIABLES = (
    "HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy",
    "REQUEST_METHOD",
)  # fmt: skip
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def _first(environ: Mapping[str, str], *names: str) -> str:
    return next((environ[n] for n in names if environ.get(n)), "")


def proxy_for(url: str, environ: Mapping[str, str]) -> str | None:
    """The proxy URL for a request to ``url``, or None to connect directly."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "https":
        proxy = _parsed(_first(environ, "HTTPS_PROXY", "https_proxy"))
    elif scheme == "http":
        proxy = _parsed(_first(environ, "HTTP_PROXY", "http_proxy"))
        if proxy and environ.get("REQUEST_METHOD"):
            raise InputError(  # Go's words
                "refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy"
            )
    else:
        return None
    if proxy is None:
        return None
    host, port = _host_and_port(parts.netloc, scheme)
    if not _use_proxy(host, port, _first(environ, "NO_PROXY", "no_proxy")):
        return None
    return proxy


def _parsed(proxy: str) -> str | None:
    """Go's parseProxy: a value without a scheme or host is read as ``http://<value>``."""
    if not proxy:
        return None
    try:
        parts = urlsplit(proxy)
        if parts.scheme and parts.netloc:
            return proxy
        return "http://" + proxy
    except ValueError:  # Go drops a proxy it cannot parse
        return None


def _host_and_port(netloc: str, scheme: str) -> tuple[str, str]:
    """The host as written (Go compares "localhost" before lower-casing) and the port."""
    hostport = netloc.rpartition("@")[2]
    if hostport.startswith("["):
        host, _, rest = hostport[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = hostport.partition(":")
    return host, port or _DEFAULT_PORTS.get(scheme, "")


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _use_proxy(host: str, port: str, no_proxy: str) -> bool:
    if host == "localhost":
        return False
    ip = _ip(host)
    if ip is not None and ip.is_loopback:
        return False
    host = host.lower().strip()
    for entry in (e.strip().lower() for e in no_proxy.split(",")):
        if not entry:
            continue
        if entry == "*":
            return False
        if "/" in entry:  # a CIDR range (matches IP hosts only)
            try:
                network = ipaddress.ip_network(entry, strict=False)
            except ValueError:
                network = None
            if network is not None:
                if ip is not None and ip in network:
                    return False
                continue
        name, entry_port = _entry_host_and_port(entry)
        if not name:
            continue
        entry_ip = _ip(name)
        if entry_ip is not None:
            if ip is not None and ip == entry_ip and entry_port in ("", port):
                return False
            continue
        if ip is not None:
            continue  # a domain entry never matches an IP host
        name = name[1:] if name.startswith("*.") else name
        exact = not name.startswith(".")
        suffix = name if not exact else "." + name
        if (host.endswith(suffix) or (exact and host == name)) and entry_port in ("", port):
            return False
    return True


def _entry_host_and_port(entry: str) -> tuple[str, str]:
    """A NO_PROXY entry as Go's net.SplitHostPort splits it (no port: the whole entry)."""
    if entry.startswith("["):
        host, _, rest = entry[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else ""
    if entry.count(":") == 1:
        host, _, port = entry.partition(":")
        return host, port
    return entry, ""
