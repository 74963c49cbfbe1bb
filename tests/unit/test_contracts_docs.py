"""Code comments cite docs/operator-semantics.md by section, never a document outside the repo."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEMANTICS = ROOT / "docs" / "operator-semantics.md"
SOURCES = [
    p
    for folder in ("kubectl_dgd", "tests", "scripts", "bench", "argocd-plugin")
    for p in sorted((ROOT / folder).rglob("*.py"))
    if "golden" not in p.parts and "fixtures" not in p.parts
]


def _anchors() -> set[str]:
    """GitHub's anchors for the page's headings: lower case, spaces as dashes, no punctuation."""
    headings = re.findall(r"^#{2,3} (.+)$", SEMANTICS.read_text(), flags=re.MULTILINE)
    return {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in headings}


def test_no_source_cites_the_outside_fact_sheet() -> None:
    this = Path(__file__).resolve()
    cited = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in SOURCES
        if p != this
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if "fact sheet" in line.lower() or "\u00a7" in line
    ]
    assert cited == []


def test_every_cited_section_exists() -> None:
    anchors = _anchors()
    assert {"restart", "rolling-update", "child-names", "gitops-drift"} <= anchors
    cited = {
        (str(p.relative_to(ROOT)), anchor)
        for p in SOURCES
        for line in p.read_text().splitlines()
        if "operator-semantics.md" in line
        for anchor in re.findall(r"#([a-z][a-z0-9-]*)", line.split("operator-semantics.md", 1)[1])
    }
    assert cited, "no source cites the page: the search is broken"
    assert sorted(c for c in cited if c[1] not in anchors) == []
