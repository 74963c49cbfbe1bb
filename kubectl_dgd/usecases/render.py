"""render: files in, the children the operator would create for every graph in them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kubectl_dgd.adapters.manifest_tree import expand_paths
from kubectl_dgd.adapters.yamlload import (
    Document,
    decode,
    iter_text,
    parse_manifest,
    read_bytes,
)
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderedObject, render_graph
from kubectl_dgd.core.views import RenderedList
from kubectl_dgd.errors import InputError, NoGraphError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.validate import inputs_named, refuse_unserved, unpack

# A file this large is read twice: once for its faults, then document by document as its
# graphs render, instead of holding all its documents at once.
STREAM_FILE_CHARS = 1024 * 1024


def render_paths(paths: list[str], profile: Profile) -> RenderedList:
    """Children of every DGD below ``paths``, in input order; other documents are ignored."""
    return RenderedList(list(rendered(paths, profile)))


def rendered(paths: list[str], profile: Profile) -> Iterator[RenderedObject]:
    """The children of ``render_paths`` one graph at a time; raises, at the same input and
    with the same error, where ``render_paths`` would."""
    graphs = files = others = 0
    for path in expand_paths(paths):
        files += 1
        for document in _documents(path):
            for obj, _, line in unpack(document):
                refuse_unserved(obj, path, line)
                if not is_dgd(obj):
                    others += 1
                    continue
                if not isinstance(obj.get("metadata"), dict) or not obj["metadata"].get("name"):
                    raise InputError("DynamoGraphDeployment without metadata.name", path, line)
                graphs += 1
                yield from render_graph(obj, profile)
    if not graphs:
        raise NoGraphError(inputs_named(paths), files, others)


def _documents(path: str) -> Iterable[Document]:
    """A file's documents, all read before its first graph renders (so a fault anywhere in it
    comes first, as it always has); a large YAML file is checked whole, then streamed."""
    text = decode(read_bytes(path), path)
    if path.endswith(".json") or len(text) < STREAM_FILE_CHARS:
        return parse_manifest(text, path)
    for _ in iter_text(text, path):
        pass  # its faults, before any of its graphs
    return iter_text(text, path)
