"""render writes its YAML graph by graph: the same text as the whole list, in memory while
small and in a temporary file beyond, and nothing on stdout when a later graph fails."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kubectl_dgd.adapters.spool import TextSpool
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.errors import InputError
from kubectl_dgd.output.render import render_yaml
from kubectl_dgd.usecases import render

ROOT = Path(__file__).resolve().parents[2]
GRAPH = (ROOT / "manifests" / "examples" / "vllm-agg.yaml").read_text()


@pytest.mark.parametrize("limit", [10**9, 100])
def test_the_spool_gives_back_what_was_written_in_order(limit: int) -> None:
    parts = [f"part {i}: {'x' * i}\n" for i in range(200)]
    out = io.StringIO()
    with TextSpool(limit) as spool:
        for part in parts:
            spool.write(part)
        spool.copy_to(out)
    assert out.getvalue() == "".join(parts)


def _stream(count: int) -> str:
    named = [GRAPH.replace("name: vllm-agg", f"name: g{i}", 1) for i in range(count)]
    return "".join(f"---\n{text}" for text in named)


def test_a_large_file_streams_and_renders_as_the_whole_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "STREAM_FILE_CHARS", 1000)  # this file counts as large
    path = tmp_path / "many.yaml"
    path.write_text(_stream(5))
    whole = render_yaml(render.render_paths([str(path)], Profile()).objects)
    parts = "".join(render_yaml([child]) for child in render.rendered([str(path)], Profile()))
    assert parts == whole
    assert whole.count("# Source: g4/") >= 1


def test_a_fault_late_in_a_large_file_comes_before_any_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "STREAM_FILE_CHARS", 1000)
    path = tmp_path / "broken.yaml"
    path.write_text(_stream(3) + "---\nkind: [\n")
    children = render.rendered([str(path)], Profile())
    with pytest.raises(InputError, match="malformed YAML"):
        next(children)
