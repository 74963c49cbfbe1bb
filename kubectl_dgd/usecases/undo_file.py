"""``undo -f FILE``: the GitOps form of undo. The previous spec of the graph the file holds is
read from the cluster (core/history.py), and only the fields where it differs from the live spec
are set in the file's document, under the file's edit lock, compared before the atomic replace
(adapters/files.py), comments kept where the structure allows (adapters/yamlrewrite.py)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.adapters.files import atomic_write, locked_for_edit
from kubectl_dgd.adapters.yamlload import MAX_FILE_BYTES, decode, parse_manifest
from kubectl_dgd.adapters.yamlrewrite import replace_documents
from kubectl_dgd.core.history import Revision, changed_paths
from kubectl_dgd.errors import GraphNotInFileError, InputError, NoGraphError, RefusedError
from kubectl_dgd.model.kinds import is_dgd

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class FileUndo:
    """What ``undo -f`` set in the file."""

    path: str
    name: str
    revision: int
    source: str
    changes: list[str]

    def to_data(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "name": self.name,
            "revision": self.revision,
            "source": self.source,
            "changes": self.changes,
        }


def graph_name(path: str, name: str | None) -> tuple[str, str | None]:
    """The name (and namespace) of the file's graph, read without the lock (the cluster is
    asked before the edit); ``name`` picks one of several."""
    from kubectl_dgd.adapters.yamlload import load_file

    objects = [d.data for d in load_file(path) if isinstance(d.data, dict)]
    graphs = [o for o in objects if is_dgd(o)]
    if not graphs:
        raise NoGraphError(path, 1, len(objects))
    if name is not None:
        graphs = [g for g in graphs if (g.get("metadata") or {}).get("name") == name]
        if not graphs:
            raise GraphNotInFileError(f"no DynamoGraphDeployment named {name!r}", path)
    if len(graphs) > 1:
        named = f" named {name!r}" if name else ""
        raise InputError(f"several graphs{named}: name one with NAME", path)
    meta = graphs[0].get("metadata") or {}
    return str(meta.get("name")), meta.get("namespace")


_SEGMENT = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")  # core/paths.py notation


def _segments(path: str) -> list[str | int]:
    """``spec.a[0].b[x.y]`` -> ``["a", 0, "b", "x.y"]`` (below ``spec``)."""
    out: list[str | int] = []
    for match in _SEGMENT.finditer(path):
        if match.group(1) is not None:
            out.append(match.group(1))
        else:
            inner = match.group(2)
            out.append(int(inner) if inner.isdigit() else inner)
    return out[1:]


def _set(file_spec: dict[str, Any], target: dict[str, Any], path: str) -> None:
    """Set ``path`` of ``file_spec`` to its value in ``target`` (components matched by name)."""
    segments = _segments(path)
    here: Any = file_spec
    there: Any = target
    for i, step in enumerate(segments):
        last = i == len(segments) - 1
        segment = step
        if isinstance(segment, int):
            there = there[segment]
            if segments[i - 1] == "components":
                name = there.get("name")
                segment = next(
                    (
                        j
                        for j, c in enumerate(here)
                        if isinstance(c, dict) and c.get("name") == name
                    ),
                    -1,
                )
                if segment < 0:
                    raise RefusedError(f"component {name!r} is not in the file: edit it by hand")
            if last:
                here[segment] = copy.deepcopy(there)
                return
            here = here[segment]
            continue
        value = there.get(segment) if isinstance(there, dict) else None
        if last:
            if value is None:
                here.pop(segment, None)
            else:
                here[segment] = copy.deepcopy(value)
            return
        there = value
        if not isinstance(here.get(segment), (dict, list)):
            here[segment] = {} if isinstance(value, dict) else []
        here = here[segment]


def undo_file(path: str, name: str, live_spec: dict[str, Any], revision: Revision) -> FileUndo:
    changes = changed_paths(live_spec, revision.spec)
    with locked_for_edit(path, MAX_FILE_BYTES) as snapshot:
        text = decode(snapshot.raw, path)
        documents = parse_manifest(text, path)
        document = next(
            d
            for d in documents
            if isinstance(d.data, dict)
            and is_dgd(d.data)
            and (d.data.get("metadata") or {}).get("name") == name
        )
        data = copy.deepcopy(document.data)
        spec = data.setdefault("spec", {})
        for changed in changes:
            _set(spec, revision.spec, changed)
        new_text = replace_documents(text, {document.position: (data, lambda p: p)}, path)
        prefix = "\ufeff" if snapshot.raw.startswith(_BOM) else ""
        atomic_write(path, prefix + new_text, expected=snapshot)
    return FileUndo(path, name, revision.number, revision.source, changes)
