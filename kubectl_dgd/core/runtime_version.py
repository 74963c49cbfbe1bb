"""The runtime version of a component, from its main image tag or its override.

See docs/operator-semantics.md#runtime-version.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from kubectl_dgd.core.containers import main_image
from kubectl_dgd.core.lazyre import LazyPattern


class RuntimeVersion(NamedTuple):
    """MAJOR.MINOR.PATCH, compared as a tuple: all the operator compares (prerelease and build
    are dropped before). A plain tuple, not ``semver.Version``, to keep that import off start-up."""

    major: int
    minor: int
    patch: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


# Optional v/V, then strict semver (no leading zeros) with optional -prerelease and +build.
_TAG = LazyPattern(
    r"^[vV]?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$",
    re.ASCII,  # \d is Go's [0-9], not every Unicode digit
)
# The CRD pattern for runtimeVersionOverride: canonical MAJOR.MINOR.PATCH, at most 4 digits each.
_OVERRIDE = LazyPattern(r"^(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})$")


def image_tag(image: str) -> str | None:
    """The tag of an image reference: after the last ``:`` that follows the last ``/``; digest dropped.
    Surrounding white space is dropped first, as the operator's ``imageTag`` does."""
    name = image.strip().split("@", 1)[0]
    last_segment = name.rsplit("/", 1)[-1]
    if ":" not in last_segment:
        return None
    tag = last_segment.rsplit(":", 1)[1]
    return tag or None


def parse_tag(tag: str) -> RuntimeVersion | None:
    """MAJOR.MINOR.PATCH of a semver tag; prerelease and build are dropped for comparisons.

    The operator's rules (``runtimeversion.ParseImageVersion``, Masterminds/semver's strict
    parser): white space trimmed, one optional v or V, each number within 64 bits.
    tests/unit/test_semver_differential.py holds this to the operator's verdicts."""
    tag = tag.strip()
    # The usual tag, [v]X.Y.Z in ASCII digits, needs no pattern (its compilation is 0.5 ms of
    # start-up); anything else is the pattern's to decide.
    parts = (tag[1:] if tag[:1] in ("v", "V") else tag).split(".")
    if len(parts) == 3 and all(_plain_number(part) for part in parts):
        version = RuntimeVersion(int(parts[0]), int(parts[1]), int(parts[2]))
    else:
        # fullmatch: ``$`` would also match before a final newline, which strip() removed.
        match = _TAG.fullmatch(tag)
        if match is None:
            return None
        version = RuntimeVersion(int(match[1]), int(match[2]), int(match[3]))
    return version if max(version) < _UINT64 else None


# Go's semver keeps each number in a uint64 and refuses a tag whose number overflows it.
_UINT64 = 1 << 64


def _plain_number(text: str) -> bool:
    """0, or ASCII digits without a leading zero (semver's numeric identifier)."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def parse_runtime_version(image: str) -> RuntimeVersion | None:
    tag = image_tag(image) if isinstance(image, str) else None
    return None if tag is None else parse_tag(tag)


def parse_override(value: Any) -> RuntimeVersion | None:
    if not isinstance(value, str):
        return None
    match = _OVERRIDE.match(value)
    return None if match is None else RuntimeVersion(int(match[1]), int(match[2]), int(match[3]))


def resolved_runtime_version(component: dict[str, Any]) -> RuntimeVersion | None:
    """The override when set (authoritative even if the tag parses), else the main image tag."""
    if not isinstance(component, dict):
        return None
    override = component.get("runtimeVersionOverride")
    if override:
        return parse_override(override)
    return parse_runtime_version(main_image(component))
