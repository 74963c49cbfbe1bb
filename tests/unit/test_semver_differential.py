"""Image tags and operator releases, read by the operator, by our parsers and by python-semver.

The operator (Go) reads versions with Masterminds/semver v3.4.0 in two ways:
- an image tag, for the runtime version (``internal/runtimeversion``): white space trimmed, a
  strict-semver pattern with one optional v/V, then ``StrictNewVersion``; prerelease and build
  dropped;
- an operator release (``--operator-version``, the origin-version annotation's feature gates):
  ``semver.NewVersion``, the loose parser (``1.4`` and ``1`` fill in zeros, leading zeros
  allowed, no upper-case V).

OPERATOR holds its verdicts, printed by the real library: ``scripts/operator-semver-probe``
(``go run . < tags`` with each tag a quoted string on its line). Our image-tag parser must agree on every row;
python-semver's and our release parser's disagreements are exactly the rows listed below, which
the README's dependency section shows. That is why ``semver`` is a dev dependency (this test)
and not a run-time one.
"""

from __future__ import annotations

import pytest
import semver

from kubectl_dgd.core.profile import release_of
from kubectl_dgd.core.runtime_version import parse_runtime_version, parse_tag

Version = tuple[int, int, int] | None

# tag, the operator's image-tag verdict, the operator's release verdict (None: refused)
OPERATOR: list[tuple[str, Version, Version]] = [
    ("1.4.0", (1, 4, 0), (1, 4, 0)),
    ("v1.4.0", (1, 4, 0), (1, 4, 0)),
    ("V1.4.0", (1, 4, 0), None),
    ("1.4.0-rc1", (1, 4, 0), (1, 4, 0)),
    ("1.4.0-rc.1", (1, 4, 0), (1, 4, 0)),
    ("1.4.0-cuda13", (1, 4, 0), (1, 4, 0)),
    ("v1.6.0-dev.1", (1, 6, 0), (1, 6, 0)),
    ("1.4.0+build.5", (1, 4, 0), (1, 4, 0)),
    ("1.4.0-rc1+b7", (1, 4, 0), (1, 4, 0)),
    ("1.4.0-0.3.7", (1, 4, 0), (1, 4, 0)),
    ("1.4.0-x.7.z.92", (1, 4, 0), (1, 4, 0)),
    ("1.4", None, (1, 4, 0)),
    ("v1.4", None, (1, 4, 0)),
    ("1", None, (1, 0, 0)),
    ("1.4.0.post1", None, None),
    ("0.9.0.post1", None, None),
    ("1.4.0.1", None, None),
    ("latest", None, None),
    ("main", None, None),
    ("sha-abc", None, None),
    ("cuda13-1.4.0", None, None),
    ("01.4.0", None, (1, 4, 0)),
    ("1.04.0", None, (1, 4, 0)),
    ("1.4.00", None, (1, 4, 0)),
    ("1.4.0-01", None, None),
    ("1.4.0-", None, None),
    ("1.4.0+", None, None),
    ("1.4.0-rc_1", None, None),
    (" 1.4.0", (1, 4, 0), None),
    ("1.4.0 ", (1, 4, 0), None),
    ("1.4.0\n", (1, 4, 0), None),
    ("1.4.0\t", (1, 4, 0), None),
    ("1.4.0-rc1\n", (1, 4, 0), None),
    ("\u0661.\u0664.\u0660", None, None),  # Arabic-Indic digits
    ("1\u0661.4.0", None, None),
    ("1.4.0-\u03b1", None, None),
    ("v", None, None),
    ("vv1.4.0", None, None),
    ("=1.4.0", None, None),
    ("18446744073709551615.0.0", (2**64 - 1, 0, 0), (2**64 - 1, 0, 0)),
    ("18446744073709551616.0.0", None, None),  # one past uint64
    ("99999999999999999999.0.0", None, None),
    ("", None, None),
]

# Rows where python-semver (v/V dropped, as the operator does) reads an image tag otherwise.
SEMVER_IMAGE_DISAGREES = {
    " 1.4.0",
    "1.4.0 ",
    "1.4.0\n",
    "1.4.0\t",
    "1.4.0-rc1\n",
    "18446744073709551616.0.0",
    "99999999999999999999.0.0",
}
# Rows where python-semver's loose mode (``optional_minor_and_patch``) reads a release otherwise.
SEMVER_RELEASE_DISAGREES = {
    "V1.4.0",
    "01.4.0",
    "1.04.0",
    "1.4.00",
    "18446744073709551616.0.0",
    "99999999999999999999.0.0",
}
# Rows where our release parser (X.Y for --operator-version, the origin annotation, the
# operator's image) reads a release otherwise: it is lenient after X.Y, where the operator's
# loose parser still refuses.
RELEASE_OF_DISAGREES = {
    "1",
    "1.4.0-01",
    "1.4.0-",
    "1.4.0+",
    "1.4.0-rc_1",
    " 1.4.0",
    "1.4.0 ",
    "1.4.0\n",
    "1.4.0\t",
    "1.4.0-rc1\n",
    "1.4.0-\u03b1",
    "18446744073709551616.0.0",
    "99999999999999999999.0.0",
}


def _semver(tag: str, loose: bool) -> Version:
    text = tag[1:] if tag[:1] in ("v", "V") else tag
    try:
        v = semver.Version.parse(text, optional_minor_and_patch=loose)
    except ValueError:
        return None
    return (v.major, v.minor, v.patch)


def _release(version: Version) -> str | None:
    return None if version is None else f"{version[0]}.{version[1]}"


IDS = [repr(tag) for tag, _, _ in OPERATOR]


@pytest.mark.parametrize(("tag", "image", "_release_verdict"), OPERATOR, ids=IDS)
def test_our_image_tag_parser_reads_every_tag_as_the_operator_does(
    tag: str, image: Version, _release_verdict: Version
) -> None:
    parsed = parse_tag(tag)
    assert (None if parsed is None else tuple(parsed)) == image
    parsed_image = parse_runtime_version(f"nvcr.io/nvidia/ai-dynamo/vllm-runtime:{tag}")
    assert (None if parsed_image is None else tuple(parsed_image)) == image


def test_python_semver_disagrees_with_the_operator_on_image_tags_exactly_where_recorded() -> None:
    disagree = {tag for tag, image, _ in OPERATOR if _semver(tag, loose=False) != image}
    assert disagree == SEMVER_IMAGE_DISAGREES


def test_python_semver_disagrees_with_the_operator_on_releases_exactly_where_recorded() -> None:
    disagree = {tag for tag, _, release in OPERATOR if _semver(tag, loose=True) != release}
    assert disagree == SEMVER_RELEASE_DISAGREES


def test_our_release_parser_disagrees_with_the_operator_exactly_where_recorded() -> None:
    disagree = {tag for tag, _, release in OPERATOR if release_of(tag) != _release(release)}
    assert disagree == RELEASE_OF_DISAGREES
