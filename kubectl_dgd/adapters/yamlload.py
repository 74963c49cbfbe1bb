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


# kubectl reads a file by its byte-order mark (PowerShell 5's ">" writes UTF-16 with one).
_UTF16_BOMS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}


def encoding_of(raw: bytes) -> str:
    """The file's encoding as kubectl decides it: UTF-16 after its BOM, else UTF-8."""
    return _UTF16_BOMS.get(raw[:2], "utf-8")


def decode(raw: bytes, source: str) -> str:
    encoding = encoding_of(raw)
    if encoding != "utf-8":
        try:
            text = raw[2:].decode(encoding)
        except UnicodeDecodeError as err:
            good = raw[2 : 2 + err.start - err.start % 2].decode(encoding)
            raise InputError(
                f"not {encoding.upper()[:6]} text (invalid bytes at offset {err.start + 2})",
                source,
                good.count("\n") + 1,
            ) from None
        if "\x00" in text:
            raise InputError("binary file (contains NUL characters); expected YAML or JSON", source)
        return text
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

    Read by ruamel's C parser; where it refuses what kubectl's go-yaml reads (a ``:`` inside a
    flow collection's plain scalar, an anchor defined twice), the parsers of
    ``adapters.yamlfallback`` read on from the document it stopped at."""
    from kubectl_dgd.adapters.yamlevents import Unusual
    from kubectl_dgd.adapters.yamlfallback import RefusedOnlyByC

    position = 0
    for loader_class, node_path in _parsers(text):
        try:
            for document in _read(text, source, loader_class, position, node_path):
                yield document
                position += 1
            return
        except (RefusedOnlyByC, Unusual):
            continue  # the next parser reads on


def _parsers(text: str) -> Iterator[tuple[Any, bool]]:
    """(loader class, whether its node path is used) in the order they are tried."""
    yield _loader_class(), True
    pyyaml = _pyyaml_loader_class()
    if pyyaml is not None and "?" not in text:
        yield pyyaml, False
    yield _pure_loader_class(), True


def _read(
    text: str, source: str, loader_class: Any, skip: int, node_path: bool = True
) -> Iterator[Document]:
    """Documents from the parser's events (``adapters.yamlevents``); from the first document
    that needs more than plain mappings, sequences and scalars, on the node path below (or
    Unusual, without one). The first ``skip`` documents are parsed, not built."""
    from kubectl_dgd.adapters.yamlevents import Unusual, documents

    position = 0
    try:
        for data, lines, line, end in documents(text, loader_class, _fast_resolver()):
            if position >= skip:
                yield Document(source, position, line, data, lines, end)
            position += 1
        return
    except Unusual:
        if not node_path:
            raise
    yield from _node_documents(text, source, skip=max(skip, position), loader_class=loader_class)


def _node_documents(
    text: str, source: str, skip: int = 0, loader_class: Any = None
) -> Iterator[Document]:
    """Documents from composed nodes: every rule (aliases and their limits, merge keys, tags,
    non-string keys) and every error message of malformed input. The first ``skip`` documents
    are composed (the parser needs them) but not built. The C parser's refusals of what
    kubectl reads raise RefusedOnlyByC (``iter_text`` reads on with the pure-Python parser)."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    from kubectl_dgd.adapters.yamlfallback import RefusedOnlyByC, refused_only_by_c

    loader_class = loader_class or _loader_class()
    c_parser = loader_class is _loader_class()
    try:
        _refuse_deep_nesting(text, source, loader_class)
    except ReaderError as err:
        raise InputError(_reader_problem(err), source, _line_at(text, err.position)) from None
    except MarkedYAMLError:
        pass  # reported with its line by the composer below
    loader = None
    try:
        loader = loader_class(io.StringIO(text))  # the pure-Python reader checks characters here
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
        if c_parser and refused_only_by_c(err):
            raise RefusedOnlyByC from None
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
        if loader is not None:
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

    return _with_yaml11_bools(Loader)


@functools.cache
def _pyyaml_loader_class() -> Any:
    from kubectl_dgd.adapters.yamlfallback import pyyaml_loader_class

    return pyyaml_loader_class()


@functools.cache
def _pure_loader_class() -> Any:
    """The pure-Python loader (``adapters.yamlfallback``) with the C loader's resolver and booleans."""
    from ruamel.yaml.resolver import Resolver

    from kubectl_dgd.adapters.yamlfallback import pure_loader_class

    return _with_yaml11_bools(pure_loader_class(Resolver))


def _with_yaml11_bools(loader: Any) -> Any:
    # Plain scalars only (the resolver is not asked about quoted ones); class-local copy.
    words = "|".join(re.escape(word) for word in YAML11_BOOLS)
    loader.add_implicit_resolver_base(
        "tag:yaml.org,2002:bool", re.compile(f"^(?:{words})$"), list("yYnNtTfFoO")
    )
    return loader


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


def _refuse_deep_nesting(text: str, source: str, loader_class: Any) -> None:
    """Measure the real depth from parser events when the bound is high; refuse past MAX_DEPTH."""
    if _depth_bound(text) <= DEPTH_BOUND_CHECKED:
        return
    from ruamel.yaml.events import CollectionEndEvent, CollectionStartEvent

    parser = loader_class(io.StringIO(text))  # used for its event parser only
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
    """Plain values from composed nodes, recording a line per path.

    Aliases are counted as kubectl's decoder (go-yaml v2, ``decoder.unmarshal``) counts them:
    every node decoded (the document, each key, value and item, an alias and what it expands
    to) is one decode, those inside an alias's expansion are aliased too, and the document is
    refused once more than 100 aliased among more than 1,000 decodes exceed the allowed share:
    99 % up to 400,000 decodes, falling linearly to 10 % at 4,000,000. The composer shares one
    node object between an anchor and its aliases, so a node met again is an alias."""

    def __init__(self, source: str, root: Any) -> None:
        self.source = source
        self.root = root
        self._secret: bool | None = None
        self.lines: dict[str, int] = {}
        self.expanded = 0
        self.decoded = 1  # the document node
        self.aliased = 0
        # Every node met so far (a second meeting is an alias), and those being built now (an
        # alias to one of them is an anchor containing itself). On a repeat visit, the memoised
        # size of the subtree tells at once whether expanding it would pass the node limit.
        self.seen: set[int] = set()
        self.building: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.alias_line = 0
        self.key_line = 0  # the line of the key whose value is being built

    def _decode(self, node: Any, in_alias: bool) -> bool:
        """Count ``node`` as go-yaml does; whether what is below it is inside an alias."""
        self.decoded += 1
        if id(node) in self.seen:  # an alias: one decode for itself, its expansion is aliased
            if id(node) in self.building:
                raise InputError(
                    "an anchor's value contains an alias of itself",
                    self.source,
                    node.start_mark.line + 1,
                )
            if in_alias:
                self.aliased += 1
            if not in_alias:  # the outermost alias: refusals name the line of its key
                # (the node's own marks are the anchor's: an alias shares the anchor's node)
                self.alias_line = self.key_line or node.start_mark.line + 1
                if isinstance(node.value, list):
                    self._refuse_expansion(node)
            in_alias = True
            self.decoded += 1
        else:
            self.seen.add(id(node))
        if in_alias:
            self.aliased += 1
            if (
                self.aliased > 100
                and self.decoded > 1000
                and self.aliased > _allowed_alias_ratio(self.decoded) * self.decoded
            ):
                raise InputError(
                    "document contains excessive aliasing (alias bomb?)",
                    self.source,
                    self.alias_line,
                )
        return in_alias

    def _refuse_expansion(self, node: Any) -> None:
        if self.expanded + self._size(node) > MAX_EXPANDED_NODES:
            raise InputError(
                "aliases expand the document past the node limit (alias bomb?)",
                self.source,
                node.start_mark.line + 1,
            )

    def build(self, node: Any, path: str, depth: int, in_alias: bool = False) -> Any:
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        self.expanded += 1
        in_alias = self._decode(node, in_alias)
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
            self.building.add(id(node))
            result = self._mapping(node, path, depth, in_alias)
            self.building.discard(id(node))
            return result
        if isinstance(node, SequenceNode):
            self.building.add(id(node))
            items = [
                self.build(item, index(path, i), depth + 1, in_alias)
                for i, item in enumerate(node.value)
            ]
            self.building.discard(id(node))
            return items
        return self.scalar(node)

    def _mapping(self, node: Any, path: str, depth: int, in_alias: bool) -> dict[Any, Any]:
        """Entries in order, as go-yaml v2 sets them: a ``<<`` merge sets every key it brings
        (over a key set before it), a key after it overrides it; a key twice is refused."""
        from ruamel.yaml.nodes import ScalarNode

        result: dict[Any, Any] = {}
        own: set[Any] = set()
        for key_node, value_node in node.value:
            if _tag(key_node) == "tag:yaml.org,2002:merge":
                for item in self._merged(key_node, value_node, path, depth, in_alias):
                    result.update(item)
                continue
            if not isinstance(key_node, ScalarNode):
                raise InputError(
                    "mapping keys must be scalars", self.source, key_node.start_mark.line + 1
                )
            self._decode(key_node, in_alias)
            key = _json_key(self.scalar(key_node), self.source, key_node)
            if key in own:
                shown = quoted_or_hidden(_short(key), self.secret())
                raise InputError(
                    f"duplicate key {shown}", self.source, key_node.start_mark.line + 1
                )
            own.add(key)
            key_path = child(path, key)
            self.key_line = self.lines[key_path] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, key_path, depth + 1, in_alias)
        return result

    def _merged(
        self, key_node: Any, value_node: Any, path: str, depth: int, in_alias: bool
    ) -> list[dict[Any, Any]]:
        """The mappings a merge sets, in the order they are set: for a sequence, last first
        (so the first one's keys win), as go-yaml decodes them; an alias must be a mapping's."""
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        alias = id(value_node) in self.seen
        if isinstance(value_node, SequenceNode) and not alias:
            self.seen.add(id(value_node))  # not decoded itself: go-yaml decodes its items
            parts = list(reversed(value_node.value))
        else:
            parts = [value_node]
        merged = []
        for part in parts:
            if not isinstance(part, MappingNode):
                raise InputError(
                    "a merge key (<<) needs a mapping or a list of mappings",
                    self.source,
                    key_node.start_mark.line + 1,
                )
            merged.append(self.build(part, path, depth + 1, in_alias))
        return merged

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


def _allowed_alias_ratio(decoded: int) -> float:
    """go-yaml v2's share of decodes that may come from aliases (``allowedAliasRatio``)."""
    if decoded <= 400_000:
        return 0.99
    if decoded >= 4_000_000:
        return 0.10
    return 0.99 - 0.89 * (decoded - 400_000) / 3_600_000


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
