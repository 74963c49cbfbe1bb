"""The kubectl connection flags every live command takes, after the plugin name.

kubectl does not pass its own global flags to plugins ("flags cannot be placed before plugin
name"), so ``kubectl dgd status x -n ns`` must parse ``-n`` itself, with kubectl's names.
The decorated command receives one ``conn: ConnectionSettings`` instead of the separate flags
(and ``all_namespaces`` when the command offers ``-A``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings

F = TypeVar("F", bound=Callable[..., Any])

_KEYS = ("kubeconfig", "context", "namespace", "request_timeout", "verbose")


def cluster_options(all_namespaces: bool = False) -> Callable[[F], F]:
    """Add --kubeconfig, --context, -n, --request-timeout, -v (and -A if asked)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            # Imported here: offline commands also carry these flags but never pay for the adapter.
            from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, parse_timeout

            values = {key: kwargs.pop(key, None) for key in _KEYS}
            kwargs["conn"] = ConnectionSettings(
                kubeconfig=values["kubeconfig"],
                context=values["context"],
                namespace=values["namespace"],
                request_timeout=parse_timeout(values["request_timeout"]),
                verbose=bool(values["verbose"]),
            )
            return func(*args, **kwargs)

        options = [
            click.option(
                "--kubeconfig",
                metavar="PATH",
                help="Use only this kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).",
            ),
            click.option("--context", metavar="NAME", help="The kubeconfig context to use."),
            click.option(
                "-n",
                "--namespace",
                metavar="NS",
                help="Namespace (default: the context's namespace, else default).",
            ),
            click.option(
                "--request-timeout",
                metavar="DURATION",
                default=None,
                help="Give up on a single request after this long (30s, 1m; 0 = never). Default 0.",
            ),
            click.option(
                "-v", "--verbose", is_flag=True, help="Show each API request on standard error."
            ),
        ]
        if all_namespaces:
            options.append(
                click.option(
                    "-A",
                    "--all-namespaces",
                    is_flag=True,
                    help="List graphs of every namespace.",
                )
            )
        decorated: Any = wrapper
        for option in reversed(options):
            decorated = option(decorated)
        return decorated  # type: ignore[no-any-return]

    return decorate


def connect(conn: ConnectionSettings) -> Cluster:
    """Resolve the kubeconfig as kubectl does and open a (lazy) connection."""
    from kubectl_dgd.adapters.cluster import Cluster
    from kubectl_dgd.adapters.kubeconfig import resolve

    log = (lambda line: click.echo(line, err=True)) if conn.verbose else None
    return Cluster(resolve(conn), conn.request_timeout, log)
