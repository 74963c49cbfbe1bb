"""The parts of the official ``kubernetes`` client a live command uses, without the rest of it.

``import kubernetes`` runs ``kubernetes/__init__.py``, which imports every sub-package: the API
classes and models (and pydantic for them), the dynamic client, watch, stream, leader election,
and the kubeconfig loader's OIDC stack (requests, oauthlib) and PyYAML: about 200 ms, two
thirds of a ``status NAME``. A live command needs five modules of the package:
``client.configuration`` (the Configuration object), ``client.rest`` (the urllib3 transport),
``client.exceptions``, and ``config.kube_config`` / ``config.incluster_config`` (tokens, token
files, client certificates, basic auth, OIDC, in-cluster service accounts; exec plugins are run
by ``credentials`` first). They are loaded as the package has them, with two indirections:

- The package modules on their way (``kubernetes``, ``kubernetes.client``, ``kubernetes.config``,
  ``kubernetes.utils``) go into ``sys.modules`` deferred (``kubectl_dgd.startup.deferred``): the real module
  objects, with their ``__path__`` and spec, whose ``__init__`` runs in place at the first name
  asked of them that is not yet there. Code that later uses the package in full (a test, a
  plugin in the same process) sees the same modules; only the cost moves to that moment.
- ``config.kube_config`` imports, at its top, names it uses only to refresh an OIDC token or to
  read and write kubeconfig files (``ApiClient``, ``OAuth2Session``, ``oauthlib``, ``yaml``;
  our kubeconfig adapter hands it a dict). Its own import statements get stand-ins for those
  that import the real object at first use (`_Deferred`); nothing else sees them.

If any of these modules is already in ``sys.modules`` (the whole package imported first), that
module is used as it is. With ``DGD_PLAIN_STARTUP=1`` (kubectl_dgd/startup/) none of this is
done: the modules are imported as ``import kubernetes.client.rest`` would, package ``__init__``
modules and all; ``tests/cluster/test_kubeclient.py`` runs the live commands both ways.

Standard modules that the client, urllib3 and http.client import at their top only for what a
live command never does here are deferred too (``_UNUSED_STANDARD``, each with its reason), so
``multiprocessing`` is not loaded for the default pool size (``pool_size`` gives it instead)
nor ``subprocess`` for the exec and gcp-command providers (``credentials`` runs exec plugins
itself; gcp is refused). Whatever later asks one of them for a name gets it loaded then.

urllib3 itself is imported whole, with one module deferred the same way: ``urllib3.http2``,
whose ``__init__`` imports ``importlib.metadata`` (zipfile, csv, email parsing: several ms) only
to check h2's version when HTTP/2 is injected, which nothing here does. ``urllib3.connection``
imports just its ``probe`` submodule, which loads before urllib3's ``__init__`` runs (`_urllib3`).
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import importlib.util
import os
import re
import sys
import threading
import time
import types
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.startup import plain
from kubectl_dgd.startup.deferred import defer, is_deferred

_PACKAGES = ("kubernetes", "kubernetes.client", "kubernetes.config", "kubernetes.utils")
# Imported at the top of the transport stack for these uses only (none in a live command).
_UNUSED_STANDARD = (
    "multiprocessing",  # kubernetes' Configuration: the default pool size (see pool_size)
    "subprocess",  # kubernetes' exec and gcp-command credential providers
    "shutil",  # tempfile (the client writes *-data fields to files): TemporaryDirectory
    "selectors",  # socket: sendfile()
    "traceback",  # logging: formatting an exception
    "hmac",  # urllib3: pinned certificate fingerprints
    "mimetypes",  # urllib3 and urllib.request: multipart uploads, file: URLs
    "calendar",  # email (http.client's header parsing): date conversions
    "email.header",  # email: encoded (RFC 2047) header words
    "email.base64mime",  # email: encoded bodies and header words
    "email.quoprimime",  # email: encoded bodies and header words
    "stringprep",  # the idna codec: non-ASCII host names
)
# What urllib3's own modules import of its http2 package (no name of the package's __init__).
_HTTP2_IMPORTED = "urllib3.http2.probe"
_LOCK = threading.RLock()  # a worker thread may open the first connection


class _Deferred:
    """Stands for an object ``kube_config`` imports: the real one is imported at first use."""

    def __init__(self, module: str, attribute: str = "", bound: str = "") -> None:
        self._module, self._attribute, self._bound = module, attribute, bound

    def _target(self) -> Any:
        module = importlib.import_module(self._module)
        if self._attribute:
            return getattr(module, self._attribute)
        return sys.modules[self._bound] if self._bound else module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._target()(*args, **kwargs)


# What kube_config's import statements get instead of the real thing: module -> names.
_OIDC_AND_FILES = {
    "yaml": (),
    "oauthlib.oauth2": (),
    "requests_oauthlib": ("OAuth2Session",),
    "kubernetes.client": ("ApiClient",),
}


def _kube_config_import(
    name: str,
    globals_: Any = None,
    locals_: Any = None,
    fromlist: Any = (),
    level: int = 0,
) -> Any:
    deferred = _OIDC_AND_FILES.get(name) if level == 0 else None
    if deferred is None:
        return builtins.__import__(name, globals_, locals_, fromlist, level)
    if not fromlist:  # `import a.b` binds `a`, with `a.b` imported
        return _Deferred(name, bound=name.partition(".")[0])
    names = {n: _Deferred(name, n) for n in fromlist if n in deferred}
    if len(names) < len(fromlist):  # e.g. Configuration: the real one, already loaded
        real = importlib.import_module(name)
        names.update({n: getattr(real, n) for n in fromlist if n not in names})
    return types.SimpleNamespace(**names)


def load_transport() -> types.ModuleType:
    """urllib3 as ``kube`` loads it (the first half of ``kube``, apart for the benchmark's
    phases): the unused standard modules and the package modules entered deferred, then
    urllib3 with ``urllib3.http2`` deferred."""
    if plain():
        return importlib.import_module("urllib3")
    with _LOCK:
        for name in _UNUSED_STANDARD:
            with contextlib.suppress(ImportError):  # not in this Python: nothing to defer
                defer(name)
        for name in _PACKAGES:
            defer(name)
        return _urllib3()


def _urllib3() -> types.ModuleType:
    """urllib3, run as ``import urllib3`` runs it, with ``urllib3.http2`` deferred (see the
    module docstring): the package and ``urllib3.http2`` are entered deferred, the probe module
    loads (a submodule import runs neither ``__init__``), then urllib3's ``__init__`` runs in
    place at once, finding the probe there. Anything that later asks ``urllib3.http2`` for a
    name (``inject_into_urllib3``) runs its ``__init__`` then."""
    loaded = sys.modules.get("urllib3")
    if loaded is not None:
        return loaded
    package = defer("urllib3")
    try:
        defer("urllib3.http2")
        importlib.import_module(_HTTP2_IMPORTED)
    except ImportError:  # another layout: urllib3.http2 then runs when urllib3 imports it
        pass
    getattr(package, "__version__")  # noqa: B009 - a name of its __init__: that runs now, in place
    return package


def _load_kube_config() -> types.ModuleType:
    name = "kubernetes.config.kube_config"
    module = sys.modules.get(name)
    if module is not None:
        return module
    if plain():
        return importlib.import_module(name)
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module {name}")
    module = importlib.util.module_from_spec(spec)
    # The module's own import statements look up __import__ in its builtins.
    module.__builtins__ = {**builtins.__dict__, "__import__": _kube_config_import}  # type: ignore[attr-defined]
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    setattr(sys.modules["kubernetes.config"], "kube_config", module)  # noqa: B010 - for mypy
    return module


@dataclass(frozen=True)
class Kube:
    """The classes and functions of the client that the adapters use."""

    Configuration: Any
    RESTClientObject: Any
    ApiException: Any
    ConfigException: Any
    KubeConfigLoader: Any
    load_incluster_config: Any


_LOADED: list[Kube] = []


def kube() -> Kube:
    """Load (once) and return the parts of ``kubernetes`` a live command uses."""
    with _LOCK:
        if not _LOADED:
            load_transport()
            configuration = importlib.import_module("kubernetes.client.configuration")
            client = sys.modules["kubernetes.client"]
            if is_deferred(
                client
            ):  # not in plain mode: the package's __init__ ran  # what the loaders import from it
                setattr(client, "Configuration", configuration.Configuration)  # noqa: B010
            rest = importlib.import_module("kubernetes.client.rest")
            exceptions = importlib.import_module("kubernetes.client.exceptions")
            config_exception = importlib.import_module("kubernetes.config.config_exception")
            kube_config = _load_kube_config()
            incluster = importlib.import_module("kubernetes.config.incluster_config")
            _LOADED.append(
                Kube(
                    configuration.Configuration,
                    rest.RESTClientObject,
                    exceptions.ApiException,
                    config_exception.ConfigException,
                    kube_config.KubeConfigLoader,
                    incluster.load_incluster_config,
                )
            )
        return _LOADED[0]


def pool_size() -> int:
    """The Configuration's default pool size, ``multiprocessing.cpu_count() * 5``, computed
    as that does (``os.cpu_count()``) without importing ``multiprocessing``."""
    return (os.cpu_count() or 1) * 5


def user_agent(configuration: Any) -> str:
    """The User-Agent the client's ApiClient sends (``OpenAPI-Generator/<version>/python``),
    its version read from the configuration's debug report rather than the package."""
    found = re.search(r"SDK Package Version: (\S+)", configuration.to_debug_report())
    if found:
        version = found.group(1)
    else:  # pragma: no cover - every release so far has the line
        from importlib.metadata import version as installed

        version = installed("kubernetes")
    return f"OpenAPI-Generator/{version}/python"


_DEADLINE = threading.local()  # the monotonic deadline of this thread's request, if any


def _deadline_bound(connection_class: Any) -> Any:
    """``connection_class`` whose wait for the response's status line and headers ends at the
    request's deadline: a timer shuts the socket down, as Go's context deadline does for
    kubectl. urllib3's read timeout cannot: it bounds each read, and a server dripping the
    headers a byte every half second never lets one read wait that long."""

    class DeadlineBound(connection_class):  # type: ignore[misc]
        def getresponse(self, *args: Any, **kwargs: Any) -> Any:
            deadline = getattr(_DEADLINE, "value", None)
            if deadline is None:
                return super().getresponse(*args, **kwargs)
            timer = threading.Timer(max(deadline - time.monotonic(), 0.0), self._cut)
            timer.daemon = True
            timer.start()
            try:
                return super().getresponse(*args, **kwargs)
            finally:
                timer.cancel()

        def _cut(self) -> None:
            import socket  # here: imported at the top, it would load selectors (deferred)

            sock = getattr(self, "sock", None)
            if sock is not None:
                # socket.socket's own shutdown: an SSLSocket's would drop its TLS state under
                # the reading thread.
                with contextlib.suppress(OSError):
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)

    DeadlineBound.__name__ = DeadlineBound.__qualname__ = (
        f"DeadlineBound{connection_class.__name__}"
    )
    return DeadlineBound


class Transport:
    """One cluster's requests over the client's RESTClientObject (urllib3), with what the
    ApiClient added to each: its User-Agent, the bearer token (or basic credentials) of the
    configuration, asked for per request so that its refresh hook runs, and the host. The
    host's connection pool makes deadline-bound connections (``_deadline_bound``)."""

    def __init__(self, configuration: Any) -> None:
        self.configuration = configuration
        self.rest = kube().RESTClientObject(configuration)
        self.user_agent = user_agent(configuration)
        # One host per Transport: its pool is made now and kept by the manager for every request.
        pool = self.rest.pool_manager.connection_from_url(str(configuration.host))
        pool.ConnectionCls = _deadline_bound(pool.ConnectionCls)

    def url(self, path: str) -> str:
        return str(self.configuration.host) + path

    def headers(self, headers: dict[str, str]) -> dict[str, str]:
        out = {**headers, "User-Agent": self.user_agent}
        bearer = self.configuration.auth_settings().get("BearerToken")
        if bearer and bearer.get("in") == "header":
            out[bearer["key"]] = bearer["value"]
        return out

    def request(
        self,
        method: str,
        url: str,
        headers: Any,
        body: Any,
        timeout: Any,
        deadline: float | None = None,
    ) -> Any:
        """The RESTResponse (its ``.response`` is the urllib3 response, unread); ``deadline``
        (monotonic) bounds the wait for the status line and headers."""
        _DEADLINE.value = deadline
        try:
            return self.rest.request(
                method, url, headers=headers, body=body, post_params=None, _request_timeout=timeout
            )
        finally:
            _DEADLINE.value = None
