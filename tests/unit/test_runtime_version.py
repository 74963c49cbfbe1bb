"""Runtime version from the main image tag or runtimeVersionOverride (docs/operator-semantics.md#runtime-version)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_dgd.core import runtime_version
from kubectl_dgd.core.runtime_version import (
    RuntimeVersion,
    image_tag,
    parse_runtime_version,
    resolved_runtime_version,
)


@pytest.mark.parametrize(
    ("image", "tag"),
    [
        ("nvcr.io/x/vllm-runtime:1.4.0", "1.4.0"),
        ("host:5000/img", None),
        ("host:5000/img:1.5.0", "1.5.0"),
        ("img@sha256:abcd", None),
        ("img:1.5.0@sha256:abcd", "1.5.0"),
        ("img", None),
    ],
)
def test_tag_is_after_the_last_colon_following_the_last_slash(image: str, tag: str | None) -> None:
    assert image_tag(image) == tag


@pytest.mark.parametrize(
    "tag", ["1.4.0", "v1.4.0", "V1.4.0", "1.4.0-rc1", "1.4.0-cuda13", "1.4.0+build.5"]
)
def test_semver_tags_parse_to_their_core(tag: str) -> None:
    assert parse_runtime_version(f"img:{tag}") == RuntimeVersion(1, 4, 0)


@pytest.mark.parametrize(
    "tag", ["latest", "main", "sha-abc", "1.4", "cuda13-1.4.0", "0.9.0.post1", "01.4.0"]
)
def test_other_tags_do_not_parse(tag: str) -> None:
    assert parse_runtime_version(f"img:{tag}") is None


def _component(image: str, override: str | None = None) -> dict[str, object]:
    result: dict[str, object] = {
        "name": "w",
        "podTemplate": {"spec": {"containers": [{"name": "main", "image": image}]}},
    }
    if override is not None:
        result["runtimeVersionOverride"] = override
    return result


def test_override_is_authoritative_even_when_the_tag_parses() -> None:
    assert resolved_runtime_version(_component("img:1.5.0", "1.4.2")) == RuntimeVersion(1, 4, 2)


def test_non_canonical_override_resolves_to_nothing() -> None:
    assert resolved_runtime_version(_component("img:1.5.0", "v1.4.2")) is None


def test_without_override_the_tag_decides() -> None:
    assert resolved_runtime_version(_component("img:1.5.0-rc1")) == RuntimeVersion(1, 5, 0)
    assert resolved_runtime_version({"name": "no-template"}) is None


def test_a_version_prints_and_orders_as_its_three_numbers() -> None:
    assert str(RuntimeVersion(1, 5, 0)) == "1.5.0"
    assert RuntimeVersion(1, 4, 10) < RuntimeVersion(1, 5, 0) <= RuntimeVersion(1, 5, 0)
    assert RuntimeVersion(1, 10, 0) > RuntimeVersion(1, 9, 9)


_PATTERN_TAGS = st.text(alphabet="0123456789vV.-+abz٣\n ", max_size=14)


@settings(max_examples=400, deadline=None)
@given(
    tag=_PATTERN_TAGS | st.from_regex(r"[vV]?[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}", fullmatch=True)
)
def test_the_plain_tag_fast_path_answers_as_the_pattern(tag: str) -> None:
    """parse_tag skips the semver pattern for [v]X.Y.Z in ASCII digits: same answer either way."""
    match = runtime_version._TAG.match(tag)
    expected = None if match is None else (int(match[1]), int(match[2]), int(match[3]))
    assert runtime_version.parse_tag(tag) == expected
