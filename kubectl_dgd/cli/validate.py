"""``kubectl dgd validate``."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import (
    cluster_options,
    input_options,
    output_option,
    profile_flags,
    release_given,
)
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.exitcodes import Exit
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer

if TYPE_CHECKING:
    from kubectl_dgd.adapters.kubeconfig import ConnectionSettings


@click.command()
@input_options
@click.option(
    "--old",
    "old_path",
    type=click.Path(),
    help="The live object (kubectl get dgd X -o yaml): apply update rules.",
)
@click.option(
    "--crd",
    "crd_path",
    type=click.Path(),
    help="Validate against this CRD instead of the bundled one.",
)
@click.option("--strict", is_flag=True, help="Unknown fields are errors, not warnings.")
@click.option(
    "--allow-no-graph",
    is_flag=True,
    help="Exit 0, not 3, when the inputs hold no graph (a pre-commit hook sees every YAML file).",
)
@output_option(["text", "json", "junit", "tap", "sarif", "github", *TEMPLATE_FORMATS], "text")
@click.option("--live", is_flag=True, help="Check against the live objects and the cluster's CRD.")
@click.option("--server-dry-run", is_flag=True, help="With --live: also submit with dryRun=All.")
@profile_flags(release=True)
@handle_errors
@cluster_options()
def validate(
    paths: tuple[str, ...],
    filenames: tuple[str, ...],
    old_path: str | None,
    crd_path: str | None,
    strict: bool,
    allow_no_graph: bool,
    output: Printer,
    profile: Profile,
    live: bool = False,
    server_dry_run: bool = False,
    conn: ConnectionSettings | None = None,
) -> None:
    """Check DGD manifests as the API server and the Dynamo operator would admit them.

    PATHS are files or directories (searched recursively for *.yaml, *.yml, *.json); - reads
    standard input. Every finding is tagged with its layer: schema, cel, webhook or lint.
    Exit 0 when there are no errors, 1 when there are, 2 for unreadable input, 3 when the
    inputs hold no graph at all.

    \b
    Examples:
      kubectl dgd validate manifests/
      kubectl dgd validate -f graph.yaml --old <(kubectl get dgd my-graph -o yaml)
      kubectl get dgd my-graph -o yaml | kubectl dgd validate -
      kubectl dgd validate --operator-version 1.4 manifests/
    """
    from kubectl_dgd.adapters.crdfile import bundled_schemas, schemas_from_file
    from kubectl_dgd.errors import UsageError
    from kubectl_dgd.usecases.validate import load_old, refuse_no_graph, validate_paths

    deps = current_deps()
    inputs = list(paths) + list(filenames)
    if not inputs:
        raise UsageError("no input: give files, directories, -f PATH or - for standard input")
    profile = replace(profile, strict=strict)
    old = load_old(old_path) if old_path else None
    if live or server_dry_run:
        from kubectl_dgd.usecases import operator_version as detection
        from kubectl_dgd.usecases.live_validate import validate_live

        cluster = deps.cluster()
        if not release_given():
            release, how = detection.detect(cluster)
            deps.warn(f"info: {detection.describe(release, how)}")
            profile = replace(profile, operator_version=release)
        schemas = (
            schemas_from_file(crd_path) if crd_path else bundled_schemas(profile.operator_version)
        )
        report, note = validate_live(
            inputs,
            cluster,
            profile,
            schemas,
            server_dry_run,
            explicit_namespace=conn.namespace if conn else None,
        )
        if note:
            deps.warn(f"warning: {note}")
    else:
        schemas = (
            schemas_from_file(crd_path) if crd_path else bundled_schemas(profile.operator_version)
        )
        report = validate_paths(inputs, schemas, profile, old=old)
    if not allow_no_graph:
        refuse_no_graph(inputs, report)
    if output.for_people:  # the other formats carry them; text shows them where errors go
        for err in report.input_errors:
            deps.warn(f"error: {err}")
    deps.print(report, output)
    if report.input_errors:
        sys.exit(int(Exit.USAGE))
    sys.exit(int(Exit.OK if report.ok else Exit.FAILED))
