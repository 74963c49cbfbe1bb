"""``kubectl dgd render``."""

from __future__ import annotations

import click

from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import input_options, output_option, profile_flags
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.output.printer import TEMPLATE_FORMATS, Printer


@click.command()
@input_options
@output_option(["yaml", "json", *TEMPLATE_FORMATS], "yaml")
@profile_flags(release=True, lws=True)
@handle_errors
def render(
    paths: tuple[str, ...],
    filenames: tuple[str, ...],
    output: Printer,
    profile: Profile,
) -> None:
    """Preview the children the operator will create from each graph, offline.

    Component path: a DynamoComponentDeployment per component, its Deployment (or
    LeaderWorkerSet for multinode) and Services. Grove path: the PodCliqueSet and Services.
    Both: scaling adapters, model Services, GPU memory service claim templates. Worker names
    carry a worker hash computed offline (marked as a preview). What the operator injects
    that cannot be known offline is listed in the kubectl-dgd.nvidia.com/not-shown annotation.
    Documents that are not graphs are ignored. A graph admission would reject (the error
    findings of validate) is not rendered: its findings go to stderr, nothing to stdout, exit
    1, as the operator never creates children for it. Exit 0 ok, 1 rejected or the operator
    would fail to reconcile, 2 bad input, 3 no graph in the inputs.

    \b
    Examples:
      kubectl dgd render -f graph.yaml
      kubectl dgd render -f graph.yaml --provider component --discovery kubernetes
      kubectl dgd render -f graph.yaml -o json | jq '.items[].metadata.name'
    """
    from kubectl_dgd.errors import UsageError

    inputs = list(paths) + list(filenames)
    if not inputs:
        raise UsageError("no input: give files, directories, -f PATH or - for standard input")
    # Written to a spool as rendered (a YAML stream child by child, not built whole); it
    # reaches stdout once every graph has rendered, so a failing one leaves stdout empty.
    from kubectl_dgd.adapters.spool import TextSpool
    from kubectl_dgd.output.render import write_rendered
    from kubectl_dgd.usecases.render import RejectedGraphs, rendered

    deps = current_deps()
    try:
        with TextSpool() as spool:
            write_rendered(rendered(inputs, profile), output, spool.write)
            spool.copy_to(deps.stdout)
    except RejectedGraphs as rejected:  # validate's lines for what admission rejects, then why
        from kubectl_dgd.output.findings import finding_line, sorted_findings

        for item in rejected.report.items:
            for finding in sorted_findings(item.findings):
                deps.warn(finding_line(item.source, finding))
        raise
