"""``kubectl dgd version``: the plugin's, the API server's and the Dynamo operator's versions."""

from __future__ import annotations

import platform
import sys
from typing import TYPE_CHECKING, cast

import click

from kubectl_dgd import __version__
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings
    from kubectl_dgd.usecases.ports import VersionedCluster


def client_version() -> dict[str, str]:
    """The plugin's side, as kubectl's clientVersion carries its Go and platform."""
    machine = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    return {
        "version": __version__,
        "pythonVersion": platform.python_version(),
        "platform": f"{sys.platform}/{machine}",
    }


@click.command()
@click.option(
    "--client",
    is_flag=True,
    help="The plugin's version only: no kubeconfig read, no server contacted (as kubectl's).",
)
@output_option(["text", "json", "yaml"], "text")
@handle_errors
@cluster_options()
def version(client: bool, output: str, conn: ConnectionSettings | None = None) -> None:
    """Print the versions of the plugin, the API server and the Dynamo operator.

    As kubectl version: the plugin's own (Client Version) and the kube-apiserver's (Server
    Version, from /version); then the Dynamo operator release the cluster runs, found as
    validate --live finds it (the image tag of the operator Deployment's manager container,
    else the origin-version annotation on the namespace's graphs, a lower bound) or
    "unknown" with the reason (an account that may not list Deployments in every namespace
    gets "unknown (forbidden ...)"), and the DynamoGraphDeployment API versions served. When
    the server cannot be reached the client part is printed, then the error (exit 4).

    \b
    Examples:
      kubectl dgd version
      kubectl dgd version --client
      kubectl dgd version -o json --context staging
    """
    del conn
    from kubectl_dgd.core.version import VersionReport
    from kubectl_dgd.errors import DgdError
    from kubectl_dgd.usecases.version import server_versions

    deps = current_deps()
    mine = client_version()
    if client:
        deps.print(VersionReport(mine), output)
        return
    try:
        # the cluster adapter answers /version too (usecases/ports.py: VersionedCluster)
        report = server_versions(cast("VersionedCluster", deps.cluster()), mine)
    except DgdError:
        deps.print(VersionReport(mine), output)  # the client part first, as kubectl's
        raise
    deps.print(report, output)
