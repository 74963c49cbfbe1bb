"""Read manifest files into plain documents with a line for every field path.

Fast and hostile-input safe. Plain manifests are built straight from the events of ruamel's C
parser (``adapters.yamlevents``, one loop for values and lines); anything else (anchors, tags,
merge keys, odd keys, malformed input) goes the node path here: ruamel's C composer builds
nodes (with marks) and we construct plain Python values ourselves, so that we can keep lines,
refuse duplicate keys and bound alias expansion. Documents come one at a time (``iter_text``).
Round-trip (comment-preserving) loading lives in ``adapters.files`` and is used only to edit.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.paths import child, index
from kubectl_dgd.core.redact import may_hold_secret, quoted_or_hidden
from kubectl_dgd.errors import InputError

MAX_FILE_BYTES = 16 * 1024 * 1024
# Upper bound on nodes after expanding aliases, per document (defeats "billion laughs").
MAX_EXPANDED_NODES = 1_000_000
MAX_ALIASED_NODES = 100_000
MAX_DEPTH = 200
# ruamel's C composer recurses once per nesting level and overflows the C stack (a segfault, not
# an exception) somewhere past 20,000 levels; inputs whose cheap depth bound exceeds this are
# measured exactly with the event parser, which keeps its own stack, before composing.
DEPTH_BOUND_CHECKED = 2000
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
# Paths that name a stream rather than a file: read as they come (they are pipes or terminals).
STREAM_PATHS = ("-", "/dev/stdin")
_STREAM_PREFIXES = ("/dev/fd/", "/proc/self/fd/")
# kubectl's decoder (go-yaml v2) reads these plain scalars as booleans: YAML 1.1, not 1.2.
YAML11_BOOLS = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE"), True),
    **dict.fromkeys(("on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "false", "False", "FALSE"), False),
    **dict.fromkeys(("off", "Off", "OFF"), False),
}
# Integers kubectl can hold (int64, or uint64 for large positives); longer digit strings are
# refused before int() is called, so no input reaches Python's 4,300-digit limit or its cost.
_INT_MIN, _UINT_MAX = -(2**63), 2**64 - 1
_MAX_INT_DIGITS = 70


@dataclass
class Document:
    """One document of a stream. ``lines`` maps field paths (core.paths notation) to 1-based lines."""

    source: str
    position: int
    line: int
    data: Any
    lines: dict[str, int] = field(default_factory=dict)
    # Where the document's root node ends, as the parser counts (0-based line and column).
    end: tuple[int, int] | None = None


def is_stream_path(path: str) -> bool:
    """``-``, ``/dev/stdin`` and ``/dev/fd/N`` (shell process substitution) name streams."""
    return path in STREAM_PATHS or path.startswith(_STREAM_PREFIXES)


def read_bytes(path: str) -> bytes:
    """Read a file, refusing what is too large or unreadable; ``-`` is standard input.

    Never more than the limit plus one byte is read. A FIFO, socket or device given as a file
    (or met in a directory) is refused instead of read: opening a FIFO waits for a writer forever.
    """
    try:
        if path == "-":
            import sys

            raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        elif is_stream_path(path):
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
        else:
            # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            with open(fd, "rb") as fh:
                mode = os.fstat(fd).st_mode
                if stat.S_ISDIR(mode):
                    raise IsADirectoryError
                if not stat.S_ISREG(mode):
                    raise InputError(
                        "not a regular file (a FIFO, socket or device); not read", path
                    )
                os.set_blocking(fd, True)
                raw = fh.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise InputError("is a directory", path) from None
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except PermissionError:
        raise InputError("permission denied", path) from None
    except OSError as err:
        raise InputError(err.strerror or str(err), path) from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(
            f"file is larger than the {MAX_FILE_BYTES // (1024 * 1024)} MiB limit", path
        )
    return raw


def decode(raw: bytes, source: str) -> str:
    if b"\x00" in raw:
        raise InputError("binary file (contains NUL bytes); expected YAML or JSON", source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InputError(
            f"not UTF-8 text (invalid byte at offset {err.start})", source, line
        ) from None
    return text.removeprefix("\ufeff")


def load_text(text: str, source: str) -> list[Document]:
    """Parse a YAML (or JSON) stream into documents; raise InputError naming file and line."""
    return list(iter_text(text, source))


def iter_text(text: str, source: str) -> Iterator[Document]:
    """The documents of a stream, one at a time (a caller that drops each one once used holds
    one document at a time); raises InputError, naming file and line, when it reaches a fault.

    Built from the parser's events (``adapters.yamlevents``); from the first document that
    needs more than plain mappings, sequences and scalars, on the node path below."""
    from kubectl_dgd.adapters.yamlevents import Unusual, documents

    position = 0
    try:
        for data, lines, line, end in documents(text, _loader_class(), _fast_resolver()):
            yield Document(source, position, line, data, lines, end)
            position += 1
        return
    except Unusual:
        pass
    yield from _node_documents(text, source, skip=position)


def _node_documents(text: str, source: str, skip: int = 0) -> Iterator[Document]:
    """Documents from composed nodes: every rule (aliases and their limits, merge keys, tags,
    non-string keys) and every error message of malformed input. The first ``skip`` documents
    are composed (the parser needs them) but not built."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    try:
        _refuse_deep_nesting(text, source)
    except ReaderError as err:
        raise InputError(_reader_problem(err), source, _line_at(text, err.position)) from None
    except MarkedYAMLError:
        pass  # reported with its line by the composer below
    loader = _loader_class()(io.StringIO(text))
    try:
        position = 0
        while loader.check_node():
            node = loader.get_node()
            if position >= skip:
                builder = _Builder(source, node)
                data = builder.build(node, "", 0)
                end = (node.end_mark.line, node.end_mark.column)
                yield Document(source, position, node.start_mark.line + 1, data, builder.lines, end)
            position += 1
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = err.problem or err.context or "malformed YAML"
        raise InputError(f"malformed YAML: {_one_line(problem)}", source, line) from None
    except ReaderError as err:
        raise InputError(_reader_problem(err), source, _line_at(text, err.position)) from None
    except YAMLError:
        # Not marked: no position, and its text is not known to be free of the input's.
        raise InputError("malformed YAML", source) from None
    except RecursionError:
        raise InputError("document is nested too deeply", source) from None
    finally:
        loader.dispose()


@functools.cache
def _fast_resolver() -> Any:
    from kubectl_dgd.adapters.yamlevents import Resolver

    return Resolver(_loader_class(), _scalar)


@functools.cache
def _loader_class() -> Any:
    """ruamel's C loader with kubectl's YAML 1.1 booleans for plain scalars (built once, lazily:
    importing ruamel costs start-up time that --help and completion need not pay)."""
    from ruamel.yaml.cyaml import CSafeLoader

    class Loader(CSafeLoader):
        pass

    # Plain scalars only (the resolver is not asked about quoted ones); class-local copy.
    words = "|".join(re.escape(word) for word in YAML11_BOOLS)
    Loader.add_implicit_resolver_base(
        "tag:yaml.org,2002:bool", re.compile(f"^(?:{words})$"), list("yYnNtTfFoO")
    )
    return Loader


def load_file(path: str) -> list[Document]:
    return parse_manifest(decode(read_bytes(path), path), path)


def iter_file(path: str) -> Iterator[Document]:
    """A file's documents one at a time (YAML; a JSON file is one document, read whole)."""
    text = decode(read_bytes(path), path)
    if path.endswith(".json"):
        yield from parse_manifest(text, path)
    else:
        yield from iter_text(text, path)


def parse_manifest(text: str, path: str) -> list[Document]:
    """The documents of a file's text: JSON rules for ``.json`` files, YAML otherwise."""
    if path.endswith(".json"):
        # YAML accepts much that JSON does not (e.g. `{"b": }`): a .json file must be JSON.
        data = _parse_json(text, path)
        try:
            return load_text(text, path)  # for the per-path lines
        except InputError:
            return [Document(path, 0, 1, data, {"": 1})]  # JSON that YAML refuses (tabs)
    return load_text(text, path)


class _JsonDuplicate(Exception):
    pass


class _JsonBigInt(Exception):
    pass


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _JsonDuplicate
    return result


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise _JsonBigInt
    value = int(text)
    if not _INT_MIN <= value <= _UINT_MAX:
        raise _JsonBigInt
    return value


def _parse_json(text: str, source: str) -> Any:
    """JSON with duplicate keys refused (as in YAML files) and integers bounded to 64 bits."""
    try:
        data = json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int)
        # An unpaired surrogate escape (\ud800) is U+FFFD, as Go's decoder reads it: Python
        # keeps it, and no UTF-8 encoder (hash, output) takes it.
        return _without_surrogates(data) if _SURROGATE_ESCAPE.search(text) else data
    except json.JSONDecodeError as err:
        raise InputError(f"malformed JSON: {err.msg}", source, err.lineno) from None
    except RecursionError:
        raise InputError("document is nested too deeply", source) from None
    except (_JsonDuplicate, _JsonBigInt) as err:
        # The YAML reader names the line (and hides the key in a Secret); JSON it refuses
        # (tabs) gets the same words without one.
        problem = "duplicate key" if isinstance(err, _JsonDuplicate) else "bad int value"
        try:
            load_text(text, source)
        except InputError as named:
            if problem in str(named):
                raise
        raise InputError(f"malformed JSON: {problem}", source) from None


_SURROGATE_ESCAPE = LazyPattern(r"\\u[dD][89a-fA-F]")
_SURROGATES = LazyPattern("[\ud800-\udfff]")


def _without_surrogates(data: Any) -> Any:
    """``data`` with every lone surrogate of its strings (keys too) replaced by U+FFFD."""

    def fixed(text: str) -> str:
        return _SURROGATES.sub("\ufffd", text)

    def clean(value: Any) -> Any:
        return fixed(value) if isinstance(value, str) else value

    root: list[Any] = [data]
    stack: list[Any] = [root]  # containers whose items still need cleaning; no recursion
    while stack:
        container = stack.pop()
        if isinstance(container, list):
            for i, item in enumerate(container):
                container[i] = clean(item)
                if isinstance(item, list | dict):
                    stack.append(item)
        else:
            items = list(container.items())
            container.clear()
            for key, item in items:
                container[fixed(key)] = clean(item)
                if isinstance(item, list | dict):
                    stack.append(item)
    return root[0]


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _short(value: object, limit: int = 60) -> str:
    """A quoted value, shortened inside its quotes so the quoting stays whole."""
    if isinstance(value, str) and len(value) > limit:
        return repr(value[: limit - 5]) + "..."
    return repr(value)


def _line_at(text: str, position: int | None) -> int | None:
    return None if position is None else text.count("\n", 0, position) + 1


def _reader_problem(err: Any) -> str:
    return f"malformed YAML: {_one_line(str(getattr(err, 'reason', '') or 'unreadable character'))}"


_BLOCK_PREFIX = LazyPattern(r"^[ \t?:-]*", re.MULTILINE)
_FLOW_BRACKET = LazyPattern(r"[\[\]{}]")


def _depth_bound(text: str) -> int:
    """An upper bound on nesting depth: block prefixes plus flow brackets (quotes ignored)."""
    block = max(map(len, _BLOCK_PREFIX.findall(text)), default=0)
    opens = text.count("[") + text.count("{")
    if block + opens <= DEPTH_BOUND_CHECKED:
        return block + opens
    depth = peak = 0
    for match in _FLOW_BRACKET.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > peak:
                peak = depth
                if block + peak > DEPTH_BOUND_CHECKED:
                    break
        elif depth:
            depth -= 1
    return block + peak


def _refuse_deep_nesting(text: str, source: str) -> None:
    """Measure the real depth from parser events when the bound is high; refuse past MAX_DEPTH."""
    if _depth_bound(text) <= DEPTH_BOUND_CHECKED:
        return
    from ruamel.yaml.cyaml import CSafeLoader
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    parser = CSafeLoader(io.StringIO(text))  # used for its C event parser only
    depth = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    line = event.start_mark.line + 1
                    raise InputError(
                        f"document is nested more than {MAX_DEPTH} levels deep", source, line
                    )
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


class _Builder:
    """Plain values from composed nodes, recording a line per path."""

    def __init__(self, source: str, root: Any) -> None:
        self.source = source
        self.root = root
        self._secret: bool | None = None
        self.lines: dict[str, int] = {}
        self.expanded = 0
        # Aliases share one node object: on a repeat visit, the memoised size of the subtree
        # tells at once whether expanding it would pass the limit.
        self.seen: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.aliased = 0

    def build(self, node: Any, path: str, depth: int, in_alias: bool = False) -> Any:
        from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

        self.expanded += 1
        if isinstance(node.value, list):
            if id(node) in self.seen:
                in_alias, outermost = True, not in_alias
            else:
                self.seen.add(id(node))
                outermost = False
            if outermost:
                size = self._size(node)
                self.aliased += size
                # Mostly-alias documents are refused early, as go-yaml's alias ratio does.
                mostly_aliases = (
                    self.aliased > MAX_ALIASED_NODES and self.aliased * 2 > self.expanded
                )
                if mostly_aliases or self.expanded + size > MAX_EXPANDED_NODES:
                    raise InputError(
                        "aliases expand the document past the node limit (alias bomb?)",
                        self.source,
                        node.start_mark.line + 1,
                    )
        if self.expanded > MAX_EXPANDED_NODES:
            raise InputError(
                f"document expands to more than {MAX_EXPANDED_NODES} nodes (alias bomb?)",
                self.source,
                node.start_mark.line + 1,
            )
        if depth > MAX_DEPTH:
            raise InputError("document is nested too deeply", self.source, node.start_mark.line + 1)
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, MappingNode):
            result: dict[Any, Any] = {}
            merged_keys: set[Any] = set()
            for key_node, value_node in node.value:
                if _tag(key_node) == "tag:yaml.org,2002:merge":
                    merged = self.build(value_node, path, depth + 1, in_alias)
                    items = merged if isinstance(merged, list) else [merged]
                    if not all(isinstance(item, dict) for item in items):
                        raise InputError(
                            "a merge key (<<) needs a mapping or a list of mappings",
                            self.source,
                            key_node.start_mark.line + 1,
                        )
                    # Earlier merges and the mapping's own keys win, as in go-yaml and PyYAML.
                    for item in items:
                        for k, v in item.items():
                            if k not in result:
                                result[k] = v
                                merged_keys.add(k)
                    continue
                if not isinstance(key_node, ScalarNode):
                    raise InputError(
                        "mapping keys must be scalars", self.source, key_node.start_mark.line + 1
                    )
                key = _json_key(self.scalar(key_node), self.source, key_node)
                if key in merged_keys:
                    merged_keys.discard(key)  # the mapping's own key overrides the merge
                elif key in result:
                    shown = quoted_or_hidden(_short(key), self.secret())
                    raise InputError(
                        f"duplicate key {shown}", self.source, key_node.start_mark.line + 1
                    )
                key_path = child(path, key)
                self.lines[key_path] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, key_path, depth + 1, in_alias)
            return result
        if isinstance(node, SequenceNode):
            return [
                self.build(item, index(path, i), depth + 1, in_alias)
                for i, item in enumerate(node.value)
            ]
        return self.scalar(node)

    def scalar(self, node: Any) -> Any:
        try:
            return _scalar(node)
        except _BadScalar as err:
            shown = quoted_or_hidden(_short(node.value), self.secret())
            raise InputError(
                f"bad {err.kind} value {shown}", self.source, node.start_mark.line + 1
            ) from None

    def secret(self) -> bool:
        """Whether this document is or may be a Secret: messages then quote none of its text."""
        if self._secret is None:
            self._secret = may_hold_secret(_top_level_kinds(self.root))
        return self._secret

    def _size(self, node: Any) -> int:
        """Nodes in the expanded subtree, capped just past the limit."""
        known = self.sizes.get(id(node))
        if known is not None:
            return known
        total = 1
        if isinstance(node.value, list):
            for item in node.value:
                for part in item if isinstance(item, tuple) else (item,):
                    total += self._size(part)
                    if total > MAX_EXPANDED_NODES:
                        break
        self.sizes[id(node)] = total
        return total


def _json_key(key: Any, source: str, node: Any) -> str:
    """Keys as kubectl's YAML-to-JSON conversion makes them: strings; a null key is refused."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        special = {"inf": ".inf", "-inf": "-.inf", "nan": ".nan"}
        return special.get(repr(key), repr(key))
    raise InputError("mapping keys must not be null", source, node.start_mark.line + 1)


def _tag(node: Any) -> str:
    """The resolved tag; ``node.tag`` URI-decodes a fresh Tag per node, a third of load time."""
    ctag = node.ctag
    suffix = ctag.suffix
    if ctag.handle is None and isinstance(suffix, str) and "%" not in suffix:
        return suffix
    return str(ctag)


class _BadScalar(Exception):
    def __init__(self, kind: str) -> None:
        self.kind = kind


def _top_level_kinds(root: Any) -> list[object]:
    """Every ``kind`` of a document's top mapping as read; None for one not readable as text."""
    from ruamel.yaml.nodes import MappingNode, ScalarNode

    kinds: list[object] = []
    if not isinstance(root, MappingNode):
        return kinds
    for key_node, value_node in root.value:
        if _tag(key_node) == "tag:yaml.org,2002:merge" or not isinstance(key_node, ScalarNode):
            kinds.append(None)  # a merge (or a complex key) may bring a kind of its own
            continue
        try:
            key = _scalar(key_node)
        except _BadScalar:
            kinds.append(None)
            continue
        if key != "kind":
            continue
        plain = isinstance(value_node, ScalarNode) and _tag(value_node) == "tag:yaml.org,2002:str"
        kinds.append(value_node.value if plain else None)
    return kinds


def _scalar(node: Any) -> Any:
    """A scalar as kubectl's decoder reads it; raises _BadScalar for text its tag cannot hold."""
    tag = _tag(node)
    value: str = node.value
    try:
        if tag == "tag:yaml.org,2002:str":
            return value
        if tag == "tag:yaml.org,2002:null":
            return None
        if tag == "tag:yaml.org,2002:bool":
            return YAML11_BOOLS[value]
        if tag == "tag:yaml.org,2002:int":
            return _int(value)
        if tag == "tag:yaml.org,2002:float":
            low = value.lower().replace("_", "")
            if low in (".nan",):
                return float("nan")
            if low in (".inf", "+.inf"):
                return float("inf")
            if low == "-.inf":
                return float("-inf")
            return float(low)
        if tag == "tag:yaml.org,2002:binary":
            # go-yaml decodes base64 into the string's bytes (kind: !!binary U2VjcmV0 is a Secret).
            return base64.b64decode("".join(value.split()), validate=True).decode(
                "utf-8", "replace"
            )
    except (KeyError, ValueError, binascii.Error):
        raise _BadScalar(tag.rsplit(":", 1)[-1]) from None
    # Timestamps and custom tags: keep the text as Kubernetes' JSON conversion does.
    return value


def _int(value: str) -> int:
    text = value.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    base = 10
    if text[:2] in ("0o", "0O", "0x", "0X", "0b", "0B"):
        base = {"o": 8, "x": 16, "b": 2}[text[1].lower()]
        text = text[2:]
    elif len(text) > 1 and text.startswith("0") and text.isdigit() and not set("89") & set(text):
        base = 8  # YAML 1.1, as Kubernetes reads manifests: 0644 is octal (e.g. defaultMode)
    digits = text.lstrip("0")
    if len(digits) > _MAX_INT_DIGITS:
        raise ValueError("out of range")
    number = sign * int(text, base)
    if not _INT_MIN <= number <= _UINT_MAX:
        raise ValueError("out of range")
    return number
