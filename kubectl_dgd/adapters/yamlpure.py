"""ruamel's pure-Python parser, for the YAML that ruamel's C parser refuses and kubectl reads.

ruamel.yaml.clib carries an old libyaml. Its scanner refuses a ``:`` inside a plain scalar of a
flow collection (``args: [--host, 0.0.0.0:8000]``, ``{docs: https://example.com/x}``: "found
unexpected ':'"), and its composer refuses an anchor defined a second time. kubectl's go-yaml v2
reads both: it dropped that scanner check (in a flow collection a ``:`` ends a plain scalar only
before a blank, and ``,?[]{}`` always do) and lets a later anchor replace an earlier one.
ruamel's pure-Python scanner with its YAML 1.1 rules scans flow collections exactly so (the
differential in tests/bad_input/test_yaml_semantics.py runs the real kubectl), and its composer
keeps the last anchor. It is several times slower than the C parser, so it reads only the text
the C parser refused for one of these two reasons; the resolver (plain scalars to values) is
the same class as the C loader's, so a value reads the same whichever parser scanned it.
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
