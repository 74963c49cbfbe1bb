"""In-place edits of manifests: only spec.restart changes; writes are atomic."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubectl_dgd.adapters.files import WriteError, atomic_write, plain_documents, set_spec_field
from kubectl_dgd.errors import InputError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "restart"
RESTART = {
    "id": "2026-11-30T01:02:03Z",
    "strategy": {"type": "Sequential", "order": ["worker", "frontend"]},
}


def without_restart(documents: list[object], position: int) -> list[object]:
    doc = documents[position]
    assert isinstance(doc, dict)
    doc["spec"].pop("restart", None)
    return documents


def test_adding_a_restart_changes_only_lines_that_are_added() -> None:
    text = (FIXTURES / "commented-two-graphs.yaml").read_text()
    edited = set_spec_field(text, 1, "restart", RESTART, "f")
    old_lines = text.splitlines(keepends=True)
    new_lines = edited.splitlines(keepends=True)
    assert len(new_lines) == len(old_lines) + 5
    # Remove the inserted block and the file is the original, byte for byte.
    start = next(i for i, line in enumerate(new_lines) if line.strip() == "restart:")
    assert "".join(new_lines[:start] + new_lines[start + 5 :]) == text


def test_the_new_block_follows_the_documents_indentation() -> None:
    text = (FIXTURES / "commented-two-graphs.yaml").read_text()
    edited = set_spec_field(text, 1, "restart", {"id": "r1"}, "f")
    assert "\n    restart:\n        id: r1\n" in edited


def test_replacing_a_restart_keeps_its_place_and_the_rest_of_the_file() -> None:
    text = (FIXTURES / "commented-two-graphs.yaml").read_text()
    edited = set_spec_field(text, 2, "restart", {"id": "r2", "strategy": {"type": "Parallel"}}, "f")
    assert (
        "spec:\n  restart:\n    id: r2\n    strategy:\n      type: Parallel\n  components:\n"
        in edited
    )
    assert edited.startswith(text.split("  restart:")[0])
    assert edited.endswith("  components:" + text.split("  components:")[-1])


def test_ids_that_look_like_dates_are_quoted_and_read_back_as_strings() -> None:
    text = (FIXTURES / "lpx-graph.yaml").read_text()
    edited = set_spec_field(text, 0, "restart", {"id": "2026-11-30T01:02:03Z"}, "f")
    assert 'id: "2026-11-30T01:02:03Z"' in edited
    assert plain_documents(edited, "f")[0]["spec"]["restart"] == {"id": "2026-11-30T01:02:03Z"}


def test_crlf_files_keep_crlf_line_endings() -> None:
    raw = (FIXTURES / "crlf-graph.yaml").read_bytes().decode()
    edited = set_spec_field(raw, 0, "restart", {"id": "a"}, "f")
    assert edited.count("\n") == edited.count("\r\n")
    assert edited.startswith(raw)


def test_a_flow_style_spec_gets_the_entry_as_json_and_stays_json() -> None:
    """kubectl reads JSON manifests; restart -f edits them (it refused them as not block YAML)."""
    text = (FIXTURES / "flow-spec.json").read_text()
    edited = set_spec_field(text, 0, "restart", {"id": "a"}, "f")
    assert json.loads(edited)["spec"]["restart"] == {"id": "a"}
    again = set_spec_field(edited, 0, "restart", {"id": "b"}, "f")
    assert json.loads(again)["spec"]["restart"] == {"id": "b"}
    assert again.replace('"b"', '"a"') == edited  # replaced where it stands
    assert json.loads(set_spec_field('{"spec": {}}', 0, "restart", {"id": "c"}, "f")) == {
        "spec": {"restart": {"id": "c"}}
    }


def test_a_spec_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(InputError, match="spec is not a YAML mapping"):
        set_spec_field("spec: [1]\n", 0, "restart", {"id": "a"}, "f")


_names = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
_comment = st.sampled_from(["", "  # note", "   # 'quoted' \"text\""])
_scalar = st.one_of(
    st.integers(-5, 5).map(str),
    _names,
    _names.map(lambda s: f"'{s}'"),
    _names.map(lambda s: f'"{s}"'),
)


@st.composite
def manifest(draw: st.DrawFn) -> tuple[str, int]:
    """A stream of documents with comments; one of them a DGD with or without a restart block."""
    indent = draw(st.sampled_from([2, 4]))
    pad = " " * indent
    docs = []
    for _ in range(draw(st.integers(0, 2))):
        docs.append(
            f"kind: ConfigMap{draw(_comment)}\ndata:\n{pad}k: {draw(_scalar)}{draw(_comment)}\n"
        )
    position = len(docs)
    keys = draw(st.lists(_names, min_size=1, max_size=4, unique=True))
    lines = ["apiVersion: nvidia.com/v1beta1", "kind: DynamoGraphDeployment", "spec:"]
    restart_at = draw(st.one_of(st.none(), st.integers(0, len(keys))))
    for i, key in enumerate(keys):
        if restart_at == i:
            lines += [
                f"{pad}restart:{draw(_comment)}",
                f"{pad}{pad}id: {draw(_scalar)}{draw(_comment)}",
            ]
        if key == "restart":
            continue
        if draw(st.booleans()):
            lines += [f"{pad}{key}:{draw(_comment)}", f"{pad}{pad}- {draw(_scalar)}"]
        else:
            lines.append(f"{pad}{key}: {draw(_scalar)}{draw(_comment)}")
    if restart_at == len(keys):
        lines += [f"{pad}restart:", f"{pad}{pad}id: x", f"{pad}{pad}strategy: {{type: Parallel}}"]
    if draw(st.booleans()):
        lines.append(f"{pad}# trailing comment")
    docs.append("\n".join(lines) + "\n")
    for _ in range(draw(st.integers(0, 2))):
        docs.append(f"# a later document\nkind: Other\nvalue: {draw(_scalar)}\n")
    return "---\n".join(docs), position


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    manifest(),
    st.sampled_from([RESTART, {"id": "r"}, {"id": "p", "strategy": {"type": "Parallel"}}]),
)
def test_property_an_edit_changes_nothing_but_spec_restart(
    case: tuple[str, int], restart: dict[str, object]
) -> None:
    text, position = case
    edited = set_spec_field(text, position, "restart", restart, "f")
    before = plain_documents(text, "f")
    after = plain_documents(edited, "f")
    assert after[position]["spec"]["restart"] == restart
    assert without_restart(after, position) == without_restart(before, position)
    # Comments outside the restart block survive too.
    for line in text.splitlines():
        if "#" in line and "id:" not in line and "restart:" not in line:
            assert line in edited


def test_atomic_write_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    atomic_write(str(target), "new\n")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["g.yaml"]


def test_atomic_write_follows_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    atomic_write(str(link), "new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


def test_a_failed_replace_leaves_the_file_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "g.yaml"
    target.write_bytes(b"original # comment\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(WriteError, match="the file is unchanged"):
        atomic_write(str(target), "changed\n")
    assert target.read_bytes() == b"original # comment\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.yaml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_a_read_only_directory_leaves_the_file_byte_identical(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_bytes(b"original\n")
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(WriteError):
            atomic_write(str(target), "changed\n")
    finally:
        tmp_path.chmod(0o755)
    assert target.read_bytes() == b"original\n"


_EXISTING = """\
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
  restart:
    id: 'old'   # bumped by CI
    strategy:
      type: "Sequential"  # one at a time
      order: [b, a]
  components: []
"""


def test_a_new_id_keeps_the_comment_and_quoting_of_the_line() -> None:
    restart = {"id": "it's-new", "strategy": {"type": "Sequential", "order": ["b", "a"]}}
    edited = set_spec_field(_EXISTING, 0, "restart", restart, "f")
    assert edited == _EXISTING.replace("'old'", "'it''s-new'")


def test_a_new_order_rewrites_only_the_order() -> None:
    restart = {"id": "old", "strategy": {"type": "Sequential", "order": ["a", "b"]}}
    edited = set_spec_field(_EXISTING, 0, "restart", restart, "f")
    assert edited == _EXISTING.replace("[b, a]", "[a, b]")


def test_a_changed_shape_rewrites_the_whole_block() -> None:
    restart = {"id": "new", "strategy": {"type": "Parallel"}}
    edited = set_spec_field(_EXISTING, 0, "restart", restart, "f")
    assert "  restart:\n    id: new\n    strategy:\n      type: Parallel\n  components: []\n" in (
        edited
    )
    assert plain_documents(edited, "f")[0]["spec"]["restart"] == restart
