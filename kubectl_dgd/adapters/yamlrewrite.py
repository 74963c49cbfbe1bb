"""Replace whole documents of a YAML stream, keeping every other document byte for byte and as
many comments of the replaced ones as the new structure allows.

Used by ``convert``: a v1alpha1 graph is rebuilt as v1beta1 from ruamel's round-trip nodes of
the original, so values, quoting and comments travel with the fields they belong to (a
service's ``extraPodSpec`` becomes the component's ``podTemplate.spec`` with its comments). The
other documents are not re-dumped at all: the stream is cut at its ``---`` lines and only the
replaced documents' text changes. The result is parsed again and compared with the intended
data before anyone writes it.
"""

from __future__ import annotations

import copy
import io
import itertools
import re
from collections.abc import Callable
from typing import Any

from kubectl_dgd.adapters.files import plain_documents
from kubectl_dgd.core.paths import child
from kubectl_dgd.errors import DgdError, InputError

_DOCUMENT_START = re.compile(r"^---(?=[ \t]|\r?$)", re.MULTILINE)
_SAFE_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./@-]*$")
_YAML11_WORDS = frozenset(
    {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off"}
    | {"OFF", "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"}
)
_SEGMENT = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")

# beta path -> the original document's path (loader notation) it came from, or None.
SourceOf = Callable[[str], "str | None"]


class _Missing:
    pass


_MISSING = _Missing()


def split_documents(text: str) -> list[str]:
    """The stream cut before each ``---`` line; the first chunk may hold only comments."""
    starts = [m.start() for m in _DOCUMENT_START.finditer(text)]
    cuts = [0, *(s for s in starts if s > 0), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(cuts) if b > a]


def replace_documents(
    text: str, replacements: dict[int, tuple[dict[str, Any], SourceOf]], source: str
) -> str:
    """``text`` with document ``i`` (0-based, as the loader counts them) rebuilt as the given data."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    chunks = split_documents(text)
    position = 0
    out: list[str] = []
    expected: list[Any] = []
    originals = plain_documents(text, source)
    for chunk in chunks:
        try:
            count = len(list(YAML(typ="rt").compose_all(io.StringIO(chunk))))
        except YAMLError:
            count = -1
        if count not in (0, 1):
            raise DgdError(
                f"{source}: the documents cannot be told apart by their '---' lines; "
                "use -o yaml (comments are not kept)"
            )
        if count == 1 and position in replacements:
            data, source_of = replacements[position]
            out.append(_rebuild(chunk, data, source_of, source))
            expected.append(data)
        else:
            out.append(chunk)
            if count == 1:
                expected.append(originals[position] if position < len(originals) else None)
        position += count
    result = "".join(out)
    if plain_documents(result, source) != expected:
        raise DgdError(f"{source}: the rewritten file does not read back as intended; unchanged")
    return result


def _rebuild(chunk: str, data: dict[str, Any], source_of: SourceOf, source: str) -> str:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.util import load_yaml_guess_indent

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    try:
        _, indent, sequence_offset = load_yaml_guess_indent(chunk)
        original = yaml.load(io.StringIO(chunk))
    except YAMLError as err:
        raise InputError(f"malformed YAML: {err}", source) from None
    mapping = _mapping_indent(chunk)
    offset = sequence_offset or 0
    yaml.indent(mapping=mapping, sequence=max(indent or 0, mapping + offset), offset=offset)
    yaml.width = 4096
    rebuilt = _Builder(original, source_of).build(data, "")
    if hasattr(rebuilt, "ca"):
        rebuilt.ca.comment = None  # the comments above the document are kept as text (head)
    buffer = io.StringIO()
    yaml.dump(rebuilt, buffer)
    head = _head(chunk)
    body = buffer.getvalue()
    if "\r\n" in chunk:
        body = body.replace("\n", "\r\n")
    return head + body


_NESTED_KEY = re.compile(r"^[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\r?\n([ \t]+)[^\s#-]", re.MULTILINE)


def _mapping_indent(chunk: str) -> int:
    """The file's mapping step: how far the first nested key sits right of its parent."""
    match = _NESTED_KEY.search(chunk)
    return len(match.group(1)) if match else 2


def _head(chunk: str) -> str:
    """The chunk's ``---`` line and the blank and comment lines before the document's content."""
    position = 0
    for line in chunk.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and stripped != "---":
            break
        position += len(line)
    return chunk[:position]


class _Builder:
    def __init__(self, original: Any, source_of: SourceOf) -> None:
        self.original = original
        self.source_of = source_of
        self.used: set[int] = set()

    def build(self, value: Any, path: str) -> Any:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        found = self._source(path)
        if not isinstance(found, _Missing) and _plain(found) == value:
            if isinstance(found, dict | list):
                if id(found) in self.used:
                    return copy.deepcopy(found)
                self.used.add(id(found))
            return found  # the original node: its quoting and inner comments travel with it
        if isinstance(value, dict):
            node = CommentedMap()
            for key, item in value.items():
                child_path = child(path, str(key))
                node[key] = self.build(item, child_path)
                self._copy_comment(node, key, child_path)
            return node
        if isinstance(value, list):
            seq = CommentedSeq()
            for i, item in enumerate(value):
                seq.append(self.build(item, f"{path}[{i}]"))
            return seq
        return _safe_scalar(value)

    def _source(self, path: str) -> Any:
        where = self.source_of(path)
        return _MISSING if where is None else _lookup(self.original, where)

    def _copy_comment(self, node: Any, key: Any, path: str) -> None:
        """The comment on the source field's line (and the full-line ones after it) moves with it."""
        where = self.source_of(path)
        if where is None:
            return
        segments = _segments(where)
        if not segments:
            return
        parent = _walk(self.original, segments[:-1])
        last = segments[-1]
        comments = getattr(parent, "ca", None)
        if comments is not None and last in comments.items:
            node.ca.items[key] = copy.deepcopy(comments.items[last])


def _safe_scalar(value: Any) -> Any:
    """New strings are quoted unless every YAML reader (1.1 included) reads them as strings."""
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if isinstance(value, str) and not (_SAFE_PLAIN.match(value) and value not in _YAML11_WORDS):
        return DoubleQuotedScalarString(value)
    return value


def _segments(path: str) -> list[str | int]:
    out: list[str | int] = []
    for match in _SEGMENT.finditer(path):
        if match.group(1) is not None:
            out.append(match.group(1))
        else:
            inner = match.group(2)
            out.append(int(inner) if inner.isdigit() else inner)
    return out


def _walk(node: Any, segments: list[str | int]) -> Any:
    for segment in segments:
        if isinstance(node, dict):
            if segment in node:
                node = node[segment]
            elif str(segment) in node:
                node = node[str(segment)]
            else:
                return _MISSING
        elif isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node):
            node = node[segment]
        else:
            return _MISSING
    return node


def _lookup(root: Any, path: str) -> Any:
    return root if path == "" else _walk(root, _segments(path))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value
