"""``kubectl dgd convert``: v1alpha1 graphs rewritten as v1beta1."""

from __future__ import annotations

import click

from kubectl_dgd.cli import completers
from kubectl_dgd.cli.deps import current_deps, handle_errors
from kubectl_dgd.cli.flags import OutputFormat
from kubectl_dgd.output.printer import Printer


@click.command()
@click.option(
    "-f",
    "--filename",
    "path",
    required=True,
    type=click.Path(),
    help="The manifest to convert.",
    shell_complete=completers.manifest_paths,
)
@click.option("--in-place", is_flag=True, help="Rewrite the file (atomically) instead of printing.")
@click.option(
    "-o",
    "--output",
    type=OutputFormat(["yaml", "json"]),
    help="Print plain YAML or JSON (comments are not kept). Default: the file, comments kept.",
)
@handle_errors
def convert(path: str, in_place: bool, output: Printer | None) -> None:
    """Rewrite the nvidia.com/v1alpha1 graphs of FILE as nvidia.com/v1beta1.

    Each graph is converted as the operator's conversion webhook converts it: spec.services
    becomes spec.components sorted by name, extraPodSpec and the dedicated fields (resources,
    envs, probes, volumeMounts) become podTemplate with its main container, componentType
    worker + subComponentType prefill/decode becomes type prefill/decode. Other documents are
    left as they are, and comments stay with the fields they belong to where the new structure
    has a place for them.

    A graph is refused, with the file unchanged, when v1beta1 has no place for one of its
    fields (spec.pvcs, service ingress, labels or annotations, ...) or when its v1beta1 form
    would get a different verdict than the original. dynamoNamespace and autoscaling, which
    the operator ignores, are dropped with a note on stderr; every blocker of a refused graph
    is listed, each at its line. Exit 0 done (or nothing to convert), 1 refused, 2 bad input,
    3 no graph in FILE at all.

    \b
    Examples:
      kubectl dgd convert -f graph.yaml
      kubectl dgd convert -f graph.yaml --in-place && git diff graph.yaml
      kubectl dgd convert -f graph.yaml -o json | jq '.spec.components[].name'
    """
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.adapters.yamlload import is_stream_path
    from kubectl_dgd.core.profile import Profile
    from kubectl_dgd.errors import UsageError
    from kubectl_dgd.output.fit import wrapped
    from kubectl_dgd.usecases.convert import NotConverted, convert_file

    if in_place and output is not None:
        raise UsageError("--in-place rewrites the file in its own format; drop -o")
    if in_place and is_stream_path(path):  # /dev/stdin names the file the shell redirected
        raise UsageError("--in-place needs a file, not standard input")
    deps = current_deps()
    try:
        result = convert_file(path, bundled_schemas(), Profile(), in_place=in_place)
    except NotConverted as refused:  # every blocker on its own line, then the refusal
        for line in refused.blockers:
            deps.warn(line)
        raise
    width = deps.terminal_width()

    def say(line: str) -> None:  # what convert tells the user, wrapped to the terminal
        deps.stderr.write(wrapped(line, width, "", "  "))

    for note in result.notes:
        say(f"note: {note}")
    if not result.converted:
        say(f"{path}: no nvidia.com/v1alpha1 DynamoGraphDeployment; nothing to convert")
    if in_place:
        if result.written:
            say(f"converted {', '.join(result.converted)}: updated {path}")
        return
    if output is None:  # the file as converted, its comments kept
        deps.stdout.write(result.text)
        return
    from kubectl_dgd.core.views import ConvertedDocuments

    deps.print(ConvertedDocuments(result.documents), output)
