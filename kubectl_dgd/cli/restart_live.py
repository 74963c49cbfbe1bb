"""The live branch of ``kubectl dgd restart NAME`` (the command itself is in cli/restart.py)."""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime

import click

from kubectl_dgd.adapters.kubeconfig import ConnectionSettings, parse_timeout
from kubectl_dgd.cli.options import connect
from kubectl_dgd.core.restart import RestartRequest
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.usecases.live_restart import request_restart, wait_for_restart


def argocd_warning(name: str, marker: str) -> str:
    return (
        f"warning: {name} is managed by Argo CD ({marker}): self-heal may revert an imperative "
        "restart. Safe ways: `kubectl dgd restart -f FILE` on the manifest in git, or the Argo CD "
        f"resource action: argocd app actions run APP restart --kind DynamoGraphDeployment "
        f"--resource-name {name}"
    )


def restart_live(
    name: str,
    conn: ConnectionSettings,
    parallel: bool,
    order: str | None,
    restart_id: str | None,
    wait: bool,
    timeout: str | None,
    dry_run: bool,
) -> None:
    request = RestartRequest.from_flags(parallel, order, restart_id)
    wait_timeout = parse_timeout(timeout)
    cluster = connect(conn)
    result = request_restart(
        cluster, name, cluster.namespace, request, datetime.now(UTC), dry_run=dry_run
    )
    plan = result.plan
    out = sys.stdout
    out.write(f"{result.namespace}/{name}: restart id {plan.old_id or '(none)'} -> {plan.new_id}\n")
    out.write(f"strategy: {plan.describe()}\n")
    if result.argocd:
        click.echo(argocd_warning(name, result.argocd), err=True)
    if dry_run:
        out.write("dry run: nothing patched\n")
        return
    out.write(f"dynamographdeployment.nvidia.com/{name} restart requested\n")
    out.flush()
    if not wait:
        return
    outcome = wait_for_restart(
        cluster, result, time.monotonic, wait_timeout, lambda line: click.echo(line, err=True)
    )
    if not outcome.ok:
        click.echo(f"error: {outcome.message}", err=True)
        sys.exit(int(Exit.FAILED))
    out.write(outcome.message + "\n")
