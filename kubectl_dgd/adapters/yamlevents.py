"""Plain documents built straight from the C parser's events: the fast path of ``yamlload``.

Composing nodes first (and walking them again to build values and lines) cost two thirds of
validating a stream. Here one loop over the events of the same libyaml parser (ruamel's C
extension, so the grammar is the one the node path parses) builds the values and the line map
together. It handles the YAML that manifests are made of: mappings with string keys,
sequences, plain and quoted scalars. Whatever else it meets (an anchor, alias, tag, merge key,
directive, non-string key, duplicate key, bad scalar, deep nesting, many nodes, any parser
error) makes it give up with ``Unusual``, and the caller reads the stream on the node path,
which owns every rule and message for such input. So the result is the node path's, by
construction, for every input; the tests compare the two.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

from kubectl_dgd.core.paths import child

# The node path refuses deeper nesting at 200 levels and larger documents at a million nodes;
# giving up well before either leaves those refusals (and their messages) to it.
MAX_FAST_DEPTH = 100
MAX_FAST_NODES = 1_000_000
# Plain scalars repeat (keys, "true", "1", images): each distinct text is resolved once.
_PLAIN_CACHE_LIMIT = 20_000
_MISSING = object()


class Unusual(Exception):
    """The input needs the node path (its rules or its error messages)."""


# (data, lines, root line, root end (line, column)) of one document.
Built = tuple[Any, dict[str, int], int, tuple[int, int]]


class Resolver:
    """Plain scalars to values exactly as the node path reads them (its resolver and
    ``_scalar``), memoised by text. One per process: the memo serves every file."""

    def __init__(self, loader_class: Any, scalar: Callable[[Any], Any]) -> None:
        from ruamel.yaml.nodes import ScalarNode

        self._node = ScalarNode
        self._resolve = loader_class(io.StringIO("")).resolve
        self._scalar = scalar
        self.cache: dict[str, Any] = {}

    def plain(self, text: str) -> Any:
        if len(self.cache) >= _PLAIN_CACHE_LIMIT:
            self.cache.clear()
        node = self._node(self._resolve(self._node, text, (True, False)), text, None, None)
        try:
            value = self._scalar(node)
        except Exception:  # the node path's _BadScalar: its message is made there
            raise Unusual from None
        self.cache[text] = value
        return value


def documents(text: str, loader_class: Any, resolver: Resolver) -> Iterator[Built]:
    """Each document of ``text`` as built data; raises Unusual (possibly after yielding some).

    ``loader_class`` is one of ruamel's (C or pure-Python) or PyYAML's C loader, which names
    its events' module (``event_module``) and gives them ruamel's ``ctag``."""
    from ruamel.yaml import events as ruamel_events

    ev: Any = getattr(loader_class, "event_module", None) or ruamel_events

    # The text itself, not a StringIO: the parser then reads one UTF-8 copy of it, where a
    # StringIO holds four bytes a character.
    loader = None
    try:
        loader = loader_class(text)  # the pure-Python reader checks the characters here
        get = loader.get_event
        get()  # the stream's start
        while True:
            event = get()
            if type(event) is ev.StreamEndEvent:
                return
            if event.version is not None or event.tags:
                raise Unusual  # %YAML / %TAG directives
            yield _document(get, resolver, ev)
    except Unusual:
        raise
    except Exception:  # parser errors (and anything unforeseen): the node path reports them
        raise Unusual from None
    finally:
        if loader is not None:
            loader.dispose()


def _document(get: Callable[[], Any], resolver: Resolver, ev: Any) -> Built:
    """One document's events, from its root node to its end event."""
    scalar_event, alias_event = ev.ScalarEvent, ev.AliasEvent
    mapping_start, sequence_start = ev.MappingStartEvent, ev.SequenceStartEvent
    mapping_end, sequence_end = ev.MappingEndEvent, ev.SequenceEndEvent
    cache = resolver.cache
    plain = resolver.plain
    lines: dict[str, int] = {}
    setline = lines.setdefault
    stack: list[tuple[Any, bool, str]] = []
    # The open container, whether it is a mapping, its path; in a mapping, the key whose value
    # comes next (key_path None: a key comes next).
    container: Any = None
    is_map = False
    path = ""
    key: str = ""
    key_path: str | None = None
    nodes = 0
    data: Any = None
    root_line = 0
    end = (0, 0)
    while True:
        event = get()
        kind = type(event)
        if kind is scalar_event:
            if event.anchor is not None or event.ctag is not None:
                raise Unusual
            text = event.value
            if event.implicit[0]:
                value = cache.get(text, _MISSING)
                if value is _MISSING:
                    value = plain(text)
            else:
                value = text  # quoted or block scalar without a tag: a string
            line = event.start_mark.line + 1
            if is_map:
                if key_path is None:
                    if type(value) is not str or value in container:
                        raise Unusual  # non-string or duplicate key
                    if value == "<<" and event.implicit[0]:
                        raise Unusual  # a merge key
                    key = value
                    key_path = child(path, value)
                    lines[key_path] = line
                    continue
                container[key] = value
                key_path = None
            elif container is not None:
                setline(f"{path}[{len(container)}]", line)
                container.append(value)
            else:
                data, root_line = value, line
                setline("", line)
                end = (event.end_mark.line, event.end_mark.column)
            nodes += 1
        elif kind is mapping_start or kind is sequence_start:
            if event.anchor is not None or event.ctag is not None:
                raise Unusual
            new: Any = {} if kind is mapping_start else []
            line = event.start_mark.line + 1
            if is_map:
                if key_path is None:
                    raise Unusual  # a collection as a key
                container[key] = new
                new_path = key_path
                key_path = None
            elif container is not None:
                new_path = f"{path}[{len(container)}]"
                setline(new_path, line)
                container.append(new)
            else:
                data, root_line, new_path = new, line, ""
                setline("", line)
            stack.append((container, is_map, path))
            if len(stack) > MAX_FAST_DEPTH:
                raise Unusual
            container, is_map, path = new, kind is mapping_start, new_path
            nodes += 1
        elif kind is mapping_end or kind is sequence_end:
            container, is_map, path = stack.pop()
            if container is None:
                end = (event.end_mark.line, event.end_mark.column)
        elif kind is alias_event:
            raise Unusual
        else:  # the document's end
            if nodes > MAX_FAST_NODES:
                raise Unusual
            return data, lines, root_line, end
