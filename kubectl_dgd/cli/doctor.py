"""``kubectl dgd doctor``: is the cluster ready for Dynamo graphs?"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import cluster_options, output_option
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@output_option(["text", "json", "yaml", *TEMPLATE_FORMATS], "text")
@handle_errors
@cluster_options()
def doctor(output: str, conn: ConnectionSettings | None = None) -> None:
    """Check that the cluster is ready for Dynamo graphs, as Dynamo's pre-deployment check does.

    The checks: the DynamoGraphDeployment and DynamoComponentDeployment CRDs and their served
    versions; the operator Deployment and its replicas; its validating and mutating webhooks
    and the ready endpoints of the Service behind each; Grove or LeaderWorkerSet installed;
    nodes with nvidia.com/gpu capacity; the GPU operator and the device plugin DaemonSet; a
    default StorageClass. A check the account may not read says "could not check" (neither a
    pass nor a blocker). Exit 0 when nothing blocks, 1 on a blocker, 4 for an API error.

    \b
    Examples:
      kubectl dgd doctor
      kubectl dgd doctor -o json
      kubectl dgd doctor --context staging
    """
    del conn
    from kubectl_dgd.usecases.doctor import run_doctor

    deps = current_deps()
    report = run_doctor(deps.cluster())
    deps.print(report, output)
    sys.exit(int(Exit.OK if report.ok else Exit.FAILED))
