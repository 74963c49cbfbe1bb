"""Edit manifest files in place: change one field of one document, leave every other byte alone.

ruamel's composer gives each node its exact position in the text; we splice new text into
that position instead of re-dumping the stream, so comments, key order, quoting, indentation
and the other documents stay byte for byte. The result is parsed again (ruamel round-trip)
and compared with the intended data before anything is written; the write itself is atomic.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kubectl_dgd.errors import DgdError, InputError


class WriteError(DgdError):
    """The file could not be replaced; it was left as it was."""


@dataclass(frozen=True)
class _Span:
    start: int
    end: int


def set_spec_field(text: str, position: int, key: str, value: dict[str, Any], source: str) -> str:
    """``text`` with ``spec.<key>`` of document ``position`` set to ``value`` (a mapping).

    An existing block is replaced where it stands; a missing one is appended as the last key
    of ``spec``. Raises InputError when the document's ``spec`` is not a block mapping.
    """
    root = _document_node(text, position, source)
    spec_key, spec = _mapping_entry(root, "spec")
    if spec is None or spec_key is None or not _is_block_mapping(spec):
        raise InputError("spec is not a block-style YAML mapping; edit such files by hand", source)
    newline = "\r\n" if "\r\n" in text else "\n"
    entries = spec.value
    column = entries[0][0].start_mark.column
    # The file's own step: how far spec's keys sit right of "spec:".
    indent = column - spec_key.start_mark.column or 2
    block = _render_block(key, value, column, indent, newline)
    existing_key, existing_value = _mapping_entry(spec, key)
    edits = _scalar_edits(existing_value, value) if existing_value is not None else None
    if edits is not None:
        # Same shape as before: rewrite only the values that change, so comments, quoting
        # and layout around them stay.
        for start, end, replacement in sorted(edits, reverse=True):
            text = text[:start] + replacement + text[end:]
        return text
    if existing_key is not None and existing_value is not None:
        span = _Span(existing_key.start_mark.index, _line_end(text, _content_end(existing_value)))
        # The block starts at the key's column: its first line needs no indentation of its own.
        return text[: span.start] + block[column:].rstrip("\r\n") + text[span.end :]
    insert_at = _after_line(text, _content_end(spec))
    if insert_at == len(text) and not text.endswith("\n"):
        text = _strip_final_block_scalar(text, spec)
        insert_at = len(text)
    prefix = "" if insert_at == 0 or text[insert_at - 1] == "\n" else newline
    return text[:insert_at] + prefix + block + text[insert_at:]


def plain_documents(text: str, source: str) -> list[Any]:
    """Every document as plain data, read with ruamel's round-trip loader (used to verify edits)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt")
    try:
        return [_plain(doc) for doc in yaml.load_all(io.StringIO(text))]
    except YAMLError as err:
        raise InputError(f"malformed YAML: {err}", source) from None


def atomic_write(path: str, data: str) -> None:
    """Replace ``path`` with ``data`` via a temporary file in the same directory.

    The original mode is kept and a symlink is followed (its target is replaced). Any failure
    removes the temporary file and leaves the original untouched.
    """
    target = os.path.realpath(path)
    directory = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError as err:
        raise WriteError(f"{path}: cannot read file mode: {err.strerror or err}") from err
    tmp_path = ""
    try:
        fd, tmp_path = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp"
        )
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp_path, mode)
        os.replace(tmp_path, target)
        tmp_path = ""
    except OSError as err:
        raise WriteError(
            f"{path}: not written ({err.strerror or err}); the file is unchanged"
        ) from err
    finally:
        if tmp_path:
            with contextlib.suppress(OSError):
                os.unlink(tmp_path)


# ---- node positions -----------------------------------------------------------------------------


def _document_node(text: str, position: int, source: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        nodes = list(YAML(typ="rt").compose_all(io.StringIO(text)))
    except YAMLError as err:
        raise InputError(f"malformed YAML: {err}", source) from None
    if position >= len(nodes) or not _is_mapping(nodes[position]):
        raise InputError(f"document {position + 1} is not a mapping", source)
    return nodes[position]


def _is_mapping(node: Any) -> bool:
    from ruamel.yaml.nodes import MappingNode

    return isinstance(node, MappingNode)


def _is_block_mapping(node: Any) -> bool:
    return _is_mapping(node) and not node.flow_style and bool(node.value)


def _mapping_entry(node: Any, key: str) -> tuple[Any, Any]:
    for key_node, value_node in node.value:
        if getattr(key_node, "value", None) == key:
            return key_node, value_node
    return None, None


def _leaves(node: Any) -> Iterator[Any]:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if isinstance(node, MappingNode | SequenceNode) and not node.flow_style:
        for item in node.value:
            if isinstance(item, tuple):
                yield from _leaves(item[0])
                yield from _leaves(item[1])
            else:
                yield from _leaves(item)
    else:
        yield node


_BLOCK_HEADER = re.compile(r"[|>](?:([1-9])?[+-]?|[+-]([1-9])?)")


def _strip_final_block_scalar(text: str, node: Any) -> str:
    """A ``|``/``>`` scalar that ends the file without a line break holds no final newline; text
    appended after it would give it one, so its header gets the strip indicator (``|-``)."""
    last = list(_leaves(node))[-1]
    if getattr(last, "style", None) not in ("|", ">"):
        return text
    start = last.start_mark.index
    header = _BLOCK_HEADER.match(text, start)
    if header is None:
        return text
    indent = header.group(1) or header.group(2) or ""
    return text[:start] + text[start] + indent + "-" + text[header.end() :]


def _content_end(node: Any) -> int:
    """Where a node's own text ends: a block collection's end mark runs on over trailing comments."""
    return max(_leaf_end(leaf.end_mark) for leaf in _leaves(node))


def _leaf_end(mark: Any) -> int:
    # A block scalar (| or >) ends after its final line break, at column 0 of the next line.
    return int(mark.index - 1 if mark.column == 0 and mark.index > 0 else mark.index)


def _line_end(text: str, index: int) -> int:
    """End of the line holding ``index`` (before its newline): a trailing comment goes with the block."""
    newline = text.find("\n", index)
    end = len(text) if newline < 0 else newline
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _after_line(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline + 1


def _scalar_edits(node: Any, value: Any) -> list[tuple[int, int, str]] | None:
    """Replacements that turn ``node`` into ``value`` scalar by scalar, or None when the shape
    differs (keys added or removed, a block sequence): then the whole entry is rewritten."""
    from ruamel.yaml.nodes import ScalarNode, SequenceNode

    if isinstance(value, dict):
        if not _is_block_mapping(node):
            return None
        keys = [getattr(k, "value", None) for k, _ in node.value]
        if sorted(map(str, keys)) != sorted(value) or len(keys) != len(value):
            return None
        edits: list[tuple[int, int, str]] = []
        for key_node, child in node.value:
            child_edits = _scalar_edits(child, value[key_node.value])
            if child_edits is None:
                return None
            edits.extend(child_edits)
        return edits
    if isinstance(value, list):
        if not isinstance(node, SequenceNode) or not node.flow_style:
            return None
        current = [getattr(item, "value", None) for item in node.value]
        if current == value:
            return []
        return [(node.start_mark.index, node.end_mark.index, _flow(value))]
    if not isinstance(node, ScalarNode) or node.style in ("|", ">") or not isinstance(value, str):
        return None
    if node.value == value and str(getattr(node.tag, "value", node.tag)).endswith(":str"):
        return []
    return [(node.start_mark.index, node.end_mark.index, _scalar_like(node.style, value))]


def _scalar_like(style: str | None, value: str) -> str:
    """``value`` written in the quoting style the old value had, where that style can hold it."""
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    if style == '"':
        return json.dumps(value, ensure_ascii=False)
    return _flow(value)


# ---- rendering the new block -------------------------------------------------------------------


def _render_block(key: str, value: dict[str, Any], column: int, indent: int, newline: str) -> str:
    lines: list[str] = []
    _render_mapping_lines(key, value, column, indent, lines)
    return "".join(line + newline for line in lines)


def _render_mapping_lines(key: str, value: Any, column: int, indent: int, lines: list[str]) -> None:
    pad = " " * column
    if isinstance(value, dict) and value:
        lines.append(f"{pad}{key}:")
        for child_key, child_value in value.items():
            _render_mapping_lines(str(child_key), child_value, column + indent, indent, lines)
    else:
        lines.append(f"{pad}{key}: {_flow(value)}")


_PLAIN_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def _flow(value: Any) -> str:
    """A flow-style YAML value. Words stay plain; anything else is JSON-quoted (JSON is YAML),
    so an id such as 2026-11-30T01:00:00Z is never read back as a timestamp."""
    if isinstance(value, str) and _PLAIN_WORD.match(value) and value.lower() not in _YAML_WORDS:
        return value
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value
