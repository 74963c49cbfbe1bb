"""The README's first screen shows what ``validate`` really prints on the invalid example."""

from __future__ import annotations

from tests.conftest import ROOT, run_cli

PROMPT = "$ kubectl dgd validate manifests/examples/invalid/\n"


def test_the_readme_first_screen_is_the_real_output() -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index(PROMPT) + len(PROMPT)
    shown = readme[start : readme.index("```", start)]
    result = run_cli("validate", "manifests/examples/invalid/", cwd=ROOT)
    assert result.returncode == 1
    assert result.stdout == shown
