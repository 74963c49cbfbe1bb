"""The live branch of ``kubectl dgd restart NAME`` (the command itself is in cli/restart.py)."""

from __future__ import annotations

import sys

from kubectl_dgd.adapters.kubeconfig import parse_timeout
from kubectl_dgd.cli.deps import Deps
from kubectl_dgd.core.restart import RestartRequest
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import format_view
from kubectl_dgd.usecases.live_restart import request_restart, wait_for_restart


def argocd_warning(name: str, marker: str) -> str:
    return (
        f"warning: {name} is managed by Argo CD ({marker}): self-heal may revert an imperative "
        "restart. Safe ways: `kubectl dgd restart -f FILE` on the manifest in git, or the Argo CD "
        f"resource action: argocd app actions run APP restart --kind DynamoGraphDeployment "
        f"--resource-name {name}"
    )


def restart_live(
    deps: Deps,
    name: str,
    parallel: bool,
    order: str | None,
    restart_id: str | None,
    wait: bool,
    timeout: str | None,
    dry_run: str,
) -> None:
    request = RestartRequest.from_flags(parallel, order, restart_id)
    wait_timeout = parse_timeout(timeout)
    cluster = deps.cluster()
    result = request_restart(
        cluster,
        name,
        cluster.namespace,
        request,
        deps.wall_clock(),
        dry_run=dry_run == "client",
        server_dry_run=dry_run == "server",
    )
    if result.argocd:
        deps.warn(argocd_warning(name, result.argocd))
    deps.print(result.summary(), "text")
    deps.stdout.flush()
    # The GPU peak check (two LISTs, when a restarted component uses GPUs) with --dry-run,
    # which asks what the restart would do, and with --wait, which would otherwise wait to
    # the timeout for pods that cannot be placed; a plain restart stays at two requests.
    if dry_run == "client" or (wait and dry_run == "none"):
        from kubectl_dgd.usecases.gpu_peak import restart_peak_warnings

        parallel = result.plan.strategy == "Parallel"
        for line in restart_peak_warnings(cluster, result.graph, parallel):
            deps.warn(line)
    if dry_run != "none" or not wait:
        return

    from kubectl_dgd.usecases.rollout import RolloutState, blocking_reason

    def report(state: RolloutState) -> None:  # rollout status's lines, on stderr
        deps.warn(format_view(state, "text", deps.options()).rstrip("\n"))  # the width

    outcome = wait_for_restart(
        cluster,
        result,
        deps.monotonic,
        wait_timeout,
        report,
        lambda: blocking_reason(cluster, name, cluster.namespace),
    )
    if not outcome.ok:
        deps.warn(f"error: {outcome.message}")
        sys.exit(int(Exit.FAILED))
    deps.stdout.write(outcome.message + "\n")
