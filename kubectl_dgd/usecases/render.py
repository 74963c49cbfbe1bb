"""render: files in, the children the operator would create for every graph in them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from kubectl_dgd.adapters.manifest_tree import expand_paths
from kubectl_dgd.adapters.yamlload import (
    Document,
    decode,
    iter_text,
    parse_manifest,
    read_bytes,
)
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderedObject, render_graph
from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.core.views import RenderedList
from kubectl_dgd.core.wording import plural
from kubectl_dgd.errors import InputError, NoGraphError, RefusedError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.validate import (
    inputs_named,
    is_restart_on_create,
    refuse_unserved,
    unpack,
)

# A file this large is read twice: once for its faults, then document by document as its
# graphs render, instead of holding all its documents at once.
STREAM_FILE_CHARS = 1024 * 1024


def render_paths(paths: list[str], profile: Profile) -> RenderedList:
    """Children of every DGD below ``paths``, in input order; other documents are ignored."""
    return RenderedList(list(rendered(paths, profile)))


def rendered(paths: list[str], profile: Profile) -> Iterator[RenderedObject]:
    """The children of ``render_paths`` one graph at a time; raises, at the same input and
    with the same error, where ``render_paths`` would.

    Each graph is first checked as admission would check it (the same findings as
    ``validate``): the operator never creates children for a graph it never admitted, so once
    one is rejected nothing more is rendered, the rest are still checked, and
    ``RejectedGraphs`` carries every rejected graph's findings at the end."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.usecases.validate import validate_documents

    schemas = bundled_schemas(profile.operator_version)
    rejected = ValidationReport()
    graphs = files = others = 0
    for path in expand_paths(paths):
        files += 1
        for document in _documents(path):
            objects = [(obj, line) for obj, _, line in unpack(document)]
            for obj, line in objects:
                refuse_unserved(obj, path, line)
                if not is_dgd(obj):
                    others += 1
                elif not isinstance(obj.get("metadata"), dict) or not obj["metadata"].get("name"):
                    raise InputError("DynamoGraphDeployment without metadata.name", path, line)
            checked = validate_documents([document], schemas, profile).items
            dgds = [obj for obj, _ in objects if is_dgd(obj)]
            for obj, item in zip(dgds, checked, strict=True):
                graphs += 1
                blocking = [f for f in item.findings if _rejects(f)]
                if blocking:
                    rejected.items.append(replace(item, findings=blocking))
                elif not rejected.items:
                    yield from render_graph(obj, profile)
    if not graphs:
        raise NoGraphError(inputs_named(paths), files, others)
    if rejected.items:
        raise RejectedGraphs(rejected)


def _rejects(finding: Finding) -> bool:
    """An error admission rejects the graph for; spec.restart in the file is not one here, as
    for the Argo CD plugin (the graph a restart is written for exists)."""
    return finding.severity == "error" and not is_restart_on_create(finding)


class RejectedGraphs(RefusedError):
    """Graphs admission would reject: their findings, in input order; nothing was rendered."""

    def __init__(self, report: ValidationReport) -> None:
        self.report = report
        names = ", ".join(item.name for item in report.items)
        super().__init__(
            f"not rendered: admission would reject {plural(len(report.items), 'graph')} "
            f"({names}), and the operator creates no children for a graph it never admitted"
        )


def _documents(path: str) -> Iterable[Document]:
    """A file's documents, all read before its first graph renders (so a fault anywhere in it
    comes first, as it always has); a large YAML file is checked whole, then streamed."""
    text = decode(read_bytes(path), path)
    if path.endswith(".json") or len(text) < STREAM_FILE_CHARS:
        return parse_manifest(text, path)
    for _ in iter_text(text, path):
        pass  # its faults, before any of its graphs
    return iter_text(text, path)
