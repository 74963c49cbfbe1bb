"""No placeholder reaches a user, and the *_80 screens fit 80 columns (issue 10).

A placeholder is what code prints when it forgot a case: Python's ``None``, a ``?`` standing
for a value nobody had, ``new none``, ``1 replicas``, ``nan``, an empty ``{}``/``[]`` in a
sentence, Go's ``<no value>``. Every golden file is scanned, and so is the text of a table of
screens drawn in-process from graphs that miss what a real cluster may not report yet.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.conftest import NOW, graph, three_graphs
from tests.conftest import EXAMPLES, GOLDEN, ROOT
from tests.fakes import FakeCluster, FakeDeps, invoke

ALPHA = ROOT / "tests" / "fixtures" / "alpha"

# Words ending in "s" that are not plurals, so "1 is ready" is not a slip.
_NOT_PLURALS = "is|was|has|does|its|this|thus|plus|status|less|always|yes|us|as|across"
# In every file, machine formats too.
PLACEHOLDERS = {
    "nan": re.compile(r"\bnan\b", re.IGNORECASE),
    "<no value>": re.compile(r"<no value>"),
}
# In prose only: in YAML and JSON, "None" is a value of the API (a rolling update's phase, a
# headless Service's clusterIP), and {} and [] are empty maps and lists written on purpose.
PROSE_ONLY = {
    "None": re.compile(r"\bNone\b"),
    "a bare ?": re.compile(r" \?(?![\w?])"),
    "-> ?": re.compile(r"-> \?"),
    "new none": re.compile(r"\bnew none\b"),
    # "1 replicas"; not "0/1 nodes" (a ratio), "1.5 GiB" or "1 of 1 components"
    "1 <plural>": re.compile(rf"(?<![\w./])(?<!of )1 (?!(?:{_NOT_PLURALS})\b)[a-z]+s\b"),
    "(s)": re.compile(r"\w\(s\)"),
    "{} or []": re.compile(r"(?<![\w\"'])(?:\{\}|\[\])(?![\w\"'])"),
}


def slips(text: str, prose: bool = True) -> list[str]:
    patterns = {**PLACEHOLDERS, **(PROSE_ONLY if prose else {})}
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for name, pattern in patterns.items():
            if pattern.search(line):
                found.append(f"{number}: {name}: {line.strip()}")
    return found


def test_the_scan_catches_each_slip() -> None:
    """The patterns bite (a scan that finds nothing proves nothing)."""
    for bad in (
        "ready: None",
        "GPUS   ?",
        "worker hash ? -> abc",
        "old a -> new none; 2 replicas",
        "prefill: 1 replicas (1 new)",
        "score nan",
        "labels {} set",
        "image <no value>",
        "1 worker component(s) updated",
    ):
        assert slips(bad), bad
    assert slips("score NaN", prose=False) and not slips('"phase": "None"', prose=False)
    for good in (
        "1 replica (1 new, 1 ready) for 1 desired",
        "0/1 nodes are available",
        "1 of 1 components ready",
        "1 is ready",
        "Did you mean 'status'?",
        "1 document, 1 graph: 1 valid",
    ):
        assert not slips(good), good


GOLDEN_FILES = sorted(p for p in GOLDEN.rglob("*") if p.is_file())


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_no_golden_carries_a_placeholder(path: Path) -> None:
    prose = path.suffix == ".txt"
    assert slips(path.read_text(), prose) == []


@pytest.mark.parametrize(
    "path", [p for p in GOLDEN_FILES if p.stem.endswith("_80")], ids=lambda p: p.name
)
def test_every_80_column_golden_fits_80_columns(path: Path) -> None:
    assert [line for line in path.read_text().splitlines() if len(line) > 80] == []


def _unreported() -> dict[str, Any]:
    """A graph the operator has not reported on: no status at all."""
    obj = graph("fresh")
    del obj["status"]
    return obj


def _rolling_without_names() -> dict[str, Any]:
    """A rolling update whose old generation, hashes and namespaces are not known yet."""
    obj = graph("rolling")
    obj["metadata"]["generation"] = 2
    obj["status"]["rollingUpdate"] = {"phase": "InProgress", "updatedComponents": ["decode"]}
    obj["status"]["components"]["prefill"]["replicas"] = 1
    return obj


def _unknown_gpus() -> dict[str, Any]:
    obj = graph("odd-gpus")
    main = obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]
    main["resources"]["limits"]["amd.com/gpu"] = "1"
    return obj


def _restarting() -> dict[str, Any]:
    obj = graph("restarting", restart={"id": "r2", "strategy": {"type": "Sequential"}})
    obj["status"]["restart"] = {"observedID": "r2", "phase": "Restarting", "inProgress": []}
    return obj


GRAPHS = [_unreported(), _rolling_without_names(), _unknown_gpus(), _restarting()]
SCREENS = [
    ("list",),
    ("list", "-o", "wide"),
    ("list", "-A", "--show-labels"),
    *[("status", g["metadata"]["name"]) for g in GRAPHS],
    *[("status", g["metadata"]["name"], "-o", "wide") for g in GRAPHS],
    *[("rollout", "explain", g["metadata"]["name"]) for g in GRAPHS],
    *[("rollout", "status", g["metadata"]["name"], "--watch=false") for g in GRAPHS],
    ("restart", "fresh", "--dry-run", "--id", "r9"),
    ("restart", "restarting", "--dry-run", "--id", "r9"),
    ("validate", str(EXAMPLES / "invalid" / "common-mistakes.yaml")),
    ("validate", *sorted(str(p) for p in EXAMPLES.glob("*.yaml"))),
    ("convert", "-f", str(ALPHA / "vllm-agg.yaml")),
]


@pytest.mark.parametrize("columns", ["80", "200"])
@pytest.mark.parametrize("args", SCREENS, ids=" ".join)
def test_no_screen_prints_a_placeholder(args: tuple[str, ...], columns: str) -> None:
    cluster = FakeCluster(copy.deepcopy(GRAPHS) + three_graphs())
    fake = FakeDeps(cluster, now=NOW, environ={"COLUMNS": columns})
    invoke(fake, *args)
    assert fake.out, fake.err
    assert slips(fake.out) == []
    assert slips(fake.err) == []
    # Piped, validate keeps a finding per line (for grep) and convert prints YAML: not screens.
    if columns == "80" and "wide" not in args and args[0] not in ("validate", "convert"):
        assert [line for line in fake.out.splitlines() if len(line) > 80] == []


@pytest.mark.parametrize("example", sorted(p.name for p in (EXAMPLES / "status").glob("*.yaml")))
def test_no_saved_status_prints_a_placeholder(example: str) -> None:
    fake = FakeDeps(environ={"COLUMNS": "80"})
    assert invoke(fake, "status", "-f", str(EXAMPLES / "status" / example), "-o", "wide") == 0
    assert slips(fake.out) == []
