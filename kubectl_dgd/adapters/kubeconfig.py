"""Find the cluster, user and namespace exactly as kubectl does (clientcmd's loading rules).

- ``--kubeconfig``: that file only (it must exist);
- else ``KUBECONFIG``: a list of files (``os.pathsep``), missing ones skipped, merged with the first
  file to define a cluster, user, context or ``current-context`` winning;
- else ``~/.kube/config``;
- with no kubeconfig at all and ``KUBERNETES_SERVICE_HOST`` set: the pod's service account.

Context: ``--context``, else the merged ``current-context``. Namespace: ``-n``, else the
context's namespace, else ``default``. Then kubectl's connection flags override the context
(clientcmd's ConfigOverrides): ``--cluster``/``--user`` pick other entries; ``--server``,
``--certificate-authority``, ``--insecure-skip-tls-verify``, ``--tls-server-name`` patch the
cluster; ``--token`` replaces the user's credentials, ``--client-certificate``/``--client-key``
its certificate; ``--as``/``--as-group``/``--as-uid`` (else the user's ``as`` fields) impersonate.
With no kubeconfig at all, ``--server`` alone is enough, as for kubectl. File paths in a kubeconfig are relative to the file that
holds them, so they are made absolute while merging (the Python client resolves them against one
base directory only).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Re-exported (the alias is mypy's explicit form): the command-line side lives in
# adapters.connection, which offline commands load alone.
from kubectl_dgd.adapters.connection import ConnectionSettings as ConnectionSettings  # noqa: PLC0414
from kubectl_dgd.adapters.connection import parse_timeout as parse_timeout  # noqa: PLC0414
from kubectl_dgd.errors import InputError

SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
_NAMED_SECTIONS = ("clusters", "users", "contexts")
# Keys holding file paths, per section entry (clientcmd's ResolvePaths).
_PATH_KEYS = {
    "cluster": ("certificate-authority",),
    "user": ("client-certificate", "client-key", "tokenFile"),
}


@dataclass(frozen=True)
class Impersonation:
    """Who to act as (the Impersonate-* headers), from --as/--as-group/--as-uid or the user."""

    user: str = ""
    groups: tuple[str, ...] = ()
    uid: str = ""

    def headers(self) -> list[tuple[str, str]]:
        out = [("Impersonate-User", self.user)] if self.user else []
        out += [("Impersonate-Group", group) for group in self.groups]
        if self.uid:
            out.append(("Impersonate-Uid", self.uid))
        return out


@dataclass
class ResolvedConfig:
    """The merged kubeconfig and the choices made from it."""

    config: dict[str, Any] = field(default_factory=dict)
    context: str = ""
    namespace: str = "default"
    in_cluster: bool = False
    files: list[str] = field(default_factory=list)
    impersonation: Impersonation = field(default_factory=Impersonation)
    # The proxy variables of the environment resolve() was given (adapters.proxy decides).
    proxy_environ: dict[str, str] = field(default_factory=dict)

    @property
    def server(self) -> str:
        if self.in_cluster:
            return "in-cluster"
        ctx = named(self.config, "contexts", self.context) or {}
        cluster = named(self.config, "clusters", str(ctx.get("cluster", ""))) or {}
        return str(cluster.get("server", ""))


def config_files(settings: ConnectionSettings, environ: Mapping[str, str], home: str) -> list[str]:
    """The kubeconfig files to merge, in precedence order (existing ones only)."""
    if settings.kubeconfig:
        if not os.path.isfile(settings.kubeconfig):
            raise InputError(f"kubeconfig file {settings.kubeconfig!r} does not exist")
        return [settings.kubeconfig]
    listed = environ.get("KUBECONFIG", "")
    if listed:
        files: list[str] = []
        for item in listed.split(os.pathsep):
            if item and os.path.isfile(item) and item not in files:
                files.append(item)
        return files
    default = os.path.join(home, ".kube", "config")
    return [default] if os.path.isfile(default) else []


def merge(documents: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Merge kubeconfigs, first definition wins (clientcmd), with file paths made absolute."""
    merged: dict[str, Any] = {name: [] for name in _NAMED_SECTIONS}
    seen: dict[str, set[str]] = {name: set() for name in _NAMED_SECTIONS}
    for path, doc in documents:
        base = os.path.dirname(os.path.abspath(path))
        if not merged.get("current-context") and doc.get("current-context"):
            merged["current-context"] = doc["current-context"]
        for section in _NAMED_SECTIONS:
            for entry in doc.get(section) or []:
                if not isinstance(entry, dict) or "name" not in entry:
                    continue
                name = str(entry["name"])
                if name in seen[section]:
                    continue
                seen[section].add(name)
                merged[section].append(_absolute_paths(entry, base))
    return merged


def _absolute_paths(entry: dict[str, Any], base: str) -> dict[str, Any]:
    out = dict(entry)
    for inner, keys in _PATH_KEYS.items():
        body = entry.get(inner)
        if not isinstance(body, dict):
            continue
        body = dict(body)
        for key in keys:
            value = body.get(key)
            if isinstance(value, str) and value and not os.path.isabs(value):
                body[key] = os.path.join(base, value)
        out[inner] = body
    return out


def merged_config(
    settings: ConnectionSettings, environ: Mapping[str, str], home: str
) -> dict[str, Any]:
    """The merged kubeconfig the settings select, as read (no context chosen, nothing checked
    beyond reading): what completion lists contexts, clusters and users from."""
    return merge([(path, _read(path)) for path in config_files(settings, environ, home)])


def named(config: dict[str, Any], section: str, name: str) -> dict[str, Any] | None:
    """The body of the entry ``name`` in ``clusters``/``users``/``contexts``, or None."""
    for item in config.get(section) or []:
        if isinstance(item, dict) and item.get("name") == name:
            body = item.get(section[:-1])
            return body if isinstance(body, dict) else {}
    return None


def _read(path: str) -> dict[str, Any]:
    """The first document of a kubeconfig file, read with the manifest loader (its limits:
    size, nesting, aliases, duplicate keys, UTF-8; kubectl's YAML 1.1 scalars) and its fields
    checked as kubectl's decoder checks them (``kubeconfigtypes``): every problem is one line
    and never shows a value, since the file holds tokens and keys."""
    from kubectl_dgd.adapters.kubeconfigtypes import checked
    from kubectl_dgd.adapters.yamlload import decode, iter_text, read_bytes

    try:
        text = decode(read_bytes(path), path)
        # kubectl decodes the first document only; the rest of the stream is not read.
        first = next(iter_text(text, path), None)
    except InputError as err:
        if " value " in str(err):  # "bad int value '<the text>'": the text may be a secret
            raise InputError("cannot read kubeconfig: a malformed value", path, err.line) from None
        raise InputError(f"cannot read kubeconfig: {err}") from None
    if first is None or first.data is None:
        return {}
    if not isinstance(first.data, dict):
        raise InputError("kubeconfig is not a mapping", path)
    return checked(first.data, path, first.lines)


def resolve(
    settings: ConnectionSettings, environ: Mapping[str, str] | None = None, home: str | None = None
) -> ResolvedConfig:
    """Pick kubeconfig files, context and namespace as kubectl would."""
    from kubectl_dgd.adapters.proxy import VARIABLES

    environ = os.environ if environ is None else environ
    home = home if home is not None else str(Path.home())
    resolved = _resolve(settings, environ, home)
    resolved.proxy_environ = {name: environ[name] for name in VARIABLES if name in environ}
    return resolved


def _resolve(settings: ConnectionSettings, environ: Mapping[str, str], home: str) -> ResolvedConfig:
    files = config_files(settings, environ, home)
    if not files and settings.server:
        config = {
            "clusters": [{"name": FLAGS, "cluster": {}}],
            "users": [{"name": FLAGS, "user": {}}],
            "contexts": [{"name": FLAGS, "context": {"cluster": FLAGS, "user": FLAGS}}],
            "current-context": FLAGS,
        }
        return _overridden(config, FLAGS, settings, [])
    if not files and environ.get("KUBERNETES_SERVICE_HOST"):
        return ResolvedConfig(in_cluster=True, namespace=settings.namespace or _pod_namespace())
    listed = [item for item in environ.get("KUBECONFIG", "").split(os.pathsep) if item]
    if not files and listed and not settings.kubeconfig:
        # Not "none set": the variable names files, and not one of them exists.
        names = ", ".join(repr(item) for item in listed)
        raise InputError(
            f"KUBECONFIG names no kubeconfig file that exists ({names}): fix the path, or unset it "
            "to use ~/.kube/config"
        )
    if not files:
        raise InputError(
            "no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config"
        )
    config = merge([(path, _read(path)) for path in files])
    context = settings.context or str(config.get("current-context") or "")
    if not context:
        raise InputError("no current context in the kubeconfig: pass --context")
    if named(config, "contexts", context) is None:
        raise InputError(f'context "{context}" does not exist in the kubeconfig')
    return _overridden(config, context, settings, files)


FLAGS = "kubectl-dgd-flags"  # the entries the connection flags make when there is no kubeconfig


def _overridden(
    config: dict[str, Any], context: str, settings: ConnectionSettings, files: list[str]
) -> ResolvedConfig:
    """The context with kubectl's connection flags applied (flags win over the kubeconfig)."""
    ctx = dict(named(config, "contexts", context) or {})
    if settings.cluster:
        if named(config, "clusters", settings.cluster) is None:
            raise InputError(f'cluster "{settings.cluster}" does not exist in the kubeconfig')
        ctx["cluster"] = settings.cluster
    if settings.user:
        if named(config, "users", settings.user) is None:
            raise InputError(f'user "{settings.user}" does not exist in the kubeconfig')
        ctx["user"] = settings.user
    cluster_name, user_name = str(ctx.get("cluster", "")), str(ctx.get("user", ""))
    cluster = named(config, "clusters", cluster_name)
    if cluster is None:
        raise InputError(f'context "{context}" refers to cluster "{ctx.get("cluster")}", not found')
    user = named(config, "users", user_name) or {}
    cluster, user = _patched_cluster(dict(cluster), settings), _patched_user(dict(user), settings)
    config = dict(config)
    config["contexts"] = _replaced(config, "contexts", context, ctx)
    config["clusters"] = _replaced(config, "clusters", cluster_name, cluster)
    if user_name:
        config["users"] = _replaced(config, "users", user_name, user)
    namespace = settings.namespace or str(ctx.get("namespace") or "") or "default"
    impersonation = Impersonation(
        settings.impersonate or str(user.get("as") or ""),
        settings.impersonate_groups or tuple(str(g) for g in user.get("as-groups") or ()),
        settings.impersonate_uid or str(user.get("as-uid") or ""),
    )
    return ResolvedConfig(config, context, namespace, False, files, impersonation)


def _patched_cluster(cluster: dict[str, Any], settings: ConnectionSettings) -> dict[str, Any]:
    if settings.server:
        cluster["server"] = settings.server
    if settings.certificate_authority:
        cluster.pop("certificate-authority-data", None)
        cluster["certificate-authority"] = os.path.abspath(settings.certificate_authority)
    if settings.insecure_skip_tls_verify:
        cluster["insecure-skip-tls-verify"] = True
        if not settings.certificate_authority:  # as clientcmd: the flag alone drops the CA
            cluster.pop("certificate-authority", None)
            cluster.pop("certificate-authority-data", None)
    if settings.tls_server_name:
        cluster["tls-server-name"] = settings.tls_server_name
    return cluster


def _patched_user(user: dict[str, Any], settings: ConnectionSettings) -> dict[str, Any]:
    if settings.token:
        # --token is the credential: the kubeconfig's token, exec plugin, basic auth and
        # certificate no longer apply (a certificate may still come from the flags).
        from kubectl_dgd.adapters.credentials import CREDENTIAL_KEYS

        user = {k: v for k, v in user.items() if k not in CREDENTIAL_KEYS}
        user["token"] = settings.token
    for key, value in (
        ("client-certificate", settings.client_certificate),
        ("client-key", settings.client_key),
    ):
        if value:
            user.pop(f"{key}-data", None)
            user[key] = os.path.abspath(value)
    return user


def _replaced(
    config: dict[str, Any], section: str, name: str, body: dict[str, Any]
) -> list[dict[str, Any]]:
    """The section's entries with ``name``'s body replaced."""
    inner = section[:-1]
    return [
        {**item, inner: body} if isinstance(item, dict) and item.get("name") == name else item
        for item in config.get(section) or []
    ]


def _pod_namespace() -> str:
    try:
        with open(os.path.join(SERVICE_ACCOUNT_DIR, "namespace"), encoding="utf-8") as fh:
            return fh.read().strip() or "default"
    except OSError:
        return "default"


def settled_config(resolved: ResolvedConfig, timeout: float | None = None) -> dict[str, Any]:
    """The merged kubeconfig with the current user's credentials checked and obtained (exec
    plugin run), or removed when the server is plain http://. Raises before any request."""
    from kubectl_dgd.adapters.credentials import check_cluster, settle_user

    ctx = named(resolved.config, "contexts", resolved.context) or {}
    cluster_name, user_name = str(ctx.get("cluster", "")), str(ctx.get("user", ""))
    cluster = named(resolved.config, "clusters", cluster_name) or {}
    secure = not str(cluster.get("server", "")).lower().startswith("http://")
    if secure:
        check_cluster(cluster, cluster_name)
    config = dict(resolved.config)
    users = []
    for item in config.get("users") or []:
        if isinstance(item, dict) and item.get("name") == user_name:
            body = item.get("user")
            user = settle_user(body if isinstance(body, dict) else {}, user_name, secure, timeout)
            users.append({**item, "user": user})
        else:
            users.append(item)
    config["users"] = users
    return config


def client_configuration(resolved: ResolvedConfig, timeout: float | None = None) -> Any:
    """A ``kubernetes.client.Configuration`` for the resolved context, set by the client's own
    kubeconfig or in-cluster loader (loads those parts of ``kubernetes``: see ``kubeclient``)."""
    from kubectl_dgd.adapters.kubeclient import kube, pool_size

    client = kube()
    ConfigException = client.ConfigException
    configuration = client.Configuration(connection_pool_maxsize=pool_size())
    try:
        if resolved.in_cluster:
            client.load_incluster_config(client_configuration=configuration)
        else:
            loader = client.KubeConfigLoader(
                config_dict=settled_config(resolved, timeout),
                active_context=resolved.context,
                config_base_path=None,
            )
            loader.load_and_set(configuration)
    except ConfigException as err:
        raise InputError(f"kubeconfig: {' '.join(str(err).split())}") from err
    except (ValueError, TypeError, KeyError, AttributeError, OSError) as err:
        # The client's own parsing of what we did not check; its text may quote a value.
        raise InputError(
            f'kubeconfig: cannot use context "{resolved.context}" ({type(err).__name__})'
        ) from None
    _choose_proxy(configuration, resolved)
    if str(configuration.host).lower().startswith("http://"):
        configuration.api_key.clear()  # credentials only over TLS, as kubectl
        configuration.username = configuration.password = None
    # Fail fast: kubectl does not retry a refused connection either.
    configuration.retries = 0
    return configuration


def _choose_proxy(configuration: Any, resolved: ResolvedConfig) -> None:
    """The cluster's ``proxy-url`` (the loader set it; kubectl always uses it), else the
    environment's proxy by Go's rules (``adapters.proxy``) instead of the client's own choice."""
    from kubectl_dgd.adapters.proxy import proxy_for

    ctx = named(resolved.config, "contexts", resolved.context) or {}
    cluster = named(resolved.config, "clusters", str(ctx.get("cluster", ""))) or {}
    if resolved.in_cluster or not cluster.get("proxy-url"):
        configuration.proxy = proxy_for(str(configuration.host), resolved.proxy_environ)
    configuration.no_proxy = None  # the decision is made: the client must not bypass it again
