"""render: files in, the children the operator would create for every graph in them."""

from __future__ import annotations

from kubectl_dgd.adapters.yamlload import expand_paths, load_file
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.render import RenderedObject, render_graph
from kubectl_dgd.core.views import RenderedList
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.validate import refuse_unserved, unpack


def render_paths(paths: list[str], profile: Profile) -> RenderedList:
    """Children of every DGD below ``paths``, in input order; other documents are ignored."""
    objects: list[RenderedObject] = []
    graphs = 0
    for path in expand_paths(paths):
        for document in load_file(path):
            for obj, _, line in unpack(document):
                refuse_unserved(obj, path, line)
                if not is_dgd(obj):
                    continue
                if not isinstance(obj.get("metadata"), dict) or not obj["metadata"].get("name"):
                    raise InputError("DynamoGraphDeployment without metadata.name", path, line)
                graphs += 1
                objects.extend(render_graph(obj, profile))
    if not graphs:
        raise InputError("no DynamoGraphDeployment found", ", ".join(paths))
    return RenderedList(objects)
