"""The parsers that read on where ruamel's C parser refuses YAML that kubectl reads.

ruamel.yaml.clib carries an old libyaml. Its scanner refuses a ``:`` inside a plain scalar of a
flow collection (``args: [--host, 0.0.0.0:8000]``, ``{docs: https://example.com/x}``: "found
unexpected ':'"), and its composer refuses an anchor defined a second time. kubectl's go-yaml v2
reads both: it dropped that scanner check (in a flow collection a ``:`` ends a plain scalar only
before a blank, and ``,?[]{}`` always do) and lets a later anchor replace an earlier one.

Two parsers read on, from the document the C parser stopped at:

- PyYAML's C parser (libyaml 0.2.5), for plain documents (the event fast path only). It scans
  ``:`` as go-yaml does but refuses ``:`` just before ``,[]{}`` (go-yaml reads ``[a:]`` as
  ``"a:"``) and, unlike go-yaml, lets ``?`` continue a flow scalar: it is not used on text
  holding a ``?``, and what it refuses or gives up on goes to the next parser.
- ruamel's pure-Python parser with its YAML 1.1 rules, which scans flow collections exactly as
  go-yaml does and keeps the last of two anchors; about 25 times slower than the C parsers.

The resolver (plain scalars to values) is the C loader's in all three, so a value reads the same
whichever parser scanned it; tests/bad_input/test_yaml_semantics.py compares them with kubectl.
"""

from __future__ import annotations

from typing import Any

# The C parser's refusals of input that go-yaml v2 reads: (error class, context, problem).
_REFUSED_ONLY_BY_C = {
    ("ScannerError", "while scanning a plain scalar", "found unexpected ':'"),
    ("ComposerError", "found duplicate anchor; first occurrence", "second occurrence"),
}


class RefusedOnlyByC(Exception):
    """The C parser refused the text for a reason the pure-Python parser reads past."""


def refused_only_by_c(err: Exception) -> bool:
    """True when the C parser's error is one the pure-Python parser (and kubectl) reads past."""
    found = (type(err).__name__, getattr(err, "context", None), getattr(err, "problem", None))
    return found in _REFUSED_ONLY_BY_C


def pure_loader_class(resolver_class: Any) -> Any:
    """A loader of ruamel's pure-Python parts, scanning as YAML 1.1 (go-yaml's flow rules),
    resolving with ``resolver_class`` (the C loader's resolver), anchors redefinable."""
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.parser import Parser
    from ruamel.yaml.reader import Reader
    from ruamel.yaml.scanner import Scanner

    class PureLoader(Reader, Scanner, Parser, Composer, resolver_class):  # type: ignore[misc]
        comment_handling = None
        max_depth = 0  # the caller bounds depth itself, with its own message

        def __init__(self, stream: Any) -> None:
            Reader.__init__(self, stream, loader=self)
            Scanner.__init__(self, loader=self)
            Parser.__init__(self, loader=self)
            Composer.__init__(self, loader=self)
            resolver_class.__init__(self, loadumper=self)
            self.warn_double_anchors = False  # go-yaml: the later definition wins, silently

        @property
        def processing_version(self) -> Any:
            return (1, 1)  # the scanner's and parser's YAML 1.1 rules; the resolver ignores it

    return PureLoader


def pyyaml_loader_class() -> Any:
    """PyYAML's C loader, naming its events for ``adapters.yamlevents``; None without libyaml."""
    try:
        import yaml  # type: ignore[import-untyped]
        from yaml import events
    except ImportError:
        return None
    if not getattr(yaml, "__with_libyaml__", False):
        return None

    class PyYamlLoader(yaml.CSafeLoader):  # type: ignore[misc]
        event_module = events

        def get_event(self) -> Any:
            event = super().get_event()
            event.ctag = getattr(event, "tag", None)  # ruamel's name, read by yamlevents
            return event

    return PyYamlLoader
