"""validate streams documents: each is checked before the next is read, and a file that turns
out unreadable part-way is reported as unreadable with none of its documents counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_dgd.adapters import yamlload
from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.adapters.yamlload import Document
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.usecases import validate

ROOT = Path(__file__).resolve().parents[2]
GRAPH = (ROOT / "manifests" / "examples" / "vllm-agg.yaml").read_text()


def test_a_fault_after_good_documents_leaves_only_the_input_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"---\n{GRAPH}---\n{GRAPH}---\nkind: [\n")
    good = tmp_path / "good.yaml"
    good.write_text(GRAPH)
    report = validate.validate_paths([str(broken), str(good)], bundled_schemas(), Profile())
    assert [e.source for e in report.input_errors] == [str(broken)]
    assert "malformed YAML" in str(report.input_errors[0])
    assert [item.source for item in report.items] == [str(good)]
    assert (report.summary.documents, report.summary.graphs, report.summary.unreadable) == (1, 1, 1)


def test_each_document_is_checked_before_the_next_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real = yamlload.iter_file

    def reading(path: str) -> Iterator[Document]:
        for doc in real(path):
            events.append(f"read {doc.position}")
            yield doc

    from kubectl_dgd.core.validate import pipeline  # validate_documents imports it when it runs

    real_check = pipeline.validate_object

    def check(obj: object, *args: object, **kwargs: object) -> object:
        events.append("checked")
        return real_check(obj, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(validate, "iter_file", reading)
    monkeypatch.setattr(pipeline, "validate_object", check)
    stream = tmp_path / "stream.yaml"
    stream.write_text(f"---\n{GRAPH}---\n{GRAPH}---\n{GRAPH}")
    report = validate.validate_paths([str(stream)], bundled_schemas(), Profile())
    assert report.summary.graphs == 3
    assert events == ["read 0", "checked", "read 1", "checked", "read 2", "checked"]
