"""output/table.py fits a table to the terminal (issue 10): messages move under their rows,
free text is cut with an ellipsis, optional columns are left out; -o wide (no width) keeps
everything; output/fit.py wraps prose between words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubectl_dgd.output.fit import cut, cut_middle, wrap
from kubectl_dgd.output.table import Column, render_table

NAME = "my-graph-prefill-ca2380e0-bcd1ab9d75-0"
MESSAGE = "0/3 nodes are available: 3 Insufficient nvidia.com/gpu, 2 node(s) had taints"


def test_without_a_width_nothing_changes() -> None:
    columns = [Column("NAME"), Column("KIND", drop=1), Column("MESSAGE", cut="below")]
    text = render_table(columns, [[NAME, "Pod", MESSAGE]])
    assert text.splitlines()[1] == f"{NAME}   Pod    {MESSAGE}"


def test_a_message_moves_under_its_row_wrapped_between_words() -> None:
    columns = [Column("AGE"), Column("OBJECT"), Column("MESSAGE", cut="below")]
    lines = render_table(columns, [["60m", NAME, MESSAGE]], width=60).splitlines()
    assert lines == [
        "AGE   OBJECT   MESSAGE",
        f"60m   {NAME}",
        "      0/3 nodes are available: 3 Insufficient",
        "      nvidia.com/gpu, 2 node(s) had taints",
    ]


def test_optional_columns_go_highest_first_and_the_same_without_headers() -> None:
    columns = [
        Column("NAME"),
        Column("A", drop=1),
        Column("B", drop=2),
        Column("C"),
    ]
    rows = [[NAME, "a" * 10, "b" * 10, "c"]]
    narrow = render_table(columns, rows, width=len(NAME) + 3 + 10 + 3 + 1)
    assert narrow.splitlines()[0].split() == ["NAME", "A", "C"]
    bare = render_table(columns, rows, headers=False, width=len(NAME) + 3 + 10 + 3 + 1)
    assert bare.splitlines() == narrow.splitlines()[1:]


def test_free_text_is_cut_at_its_end_and_names_in_their_middle() -> None:
    columns = [Column("OBJECT", cut="middle"), Column("NOTE", cut="end")]
    line = render_table(columns, [[NAME, MESSAGE]], headers=False, width=50).splitlines()[0]
    assert len(line) <= 50
    obj, note = line.split("   ", 1)
    assert obj.startswith("my-graph") and obj.endswith("d75-0") and "…" in obj
    assert note.endswith("…") and MESSAGE.startswith(note[:-1].rstrip())
    assert cut("abcdef", 4) == "abc…" and cut_middle("abcdef", 4) == "ab…f"


@given(
    st.lists(st.text(alphabet="abc de-fgh", min_size=1, max_size=30), max_size=20),
    st.integers(40, 120),
)
def test_wrap_never_splits_a_word_and_keeps_every_word(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width, "  ", "    ")
    assert " ".join(lines).split() == text.split()
    assert all(len(line) <= width or len(line.split()) == 1 for line in lines)


def test_a_cell_runs_on_into_an_empty_neighbour_instead_of_widening_its_column() -> None:
    columns = [Column("NAME"), Column("READY"), Column("RESTARTS"), Column("AGE")]
    rows = [["dgd/g", "2/3 components", "", "5m"], ["pod/g-0", "1/1", "0", "4m"]]
    assert render_table(columns, rows, gap="  ", run_on={(0, 1)}).splitlines() == [
        "NAME     READY  RESTARTS  AGE",
        "dgd/g    2/3 components   5m",
        "pod/g-0  1/1    0         4m",
    ]


def test_a_cell_too_long_to_run_on_or_beside_a_full_cell_widens_its_column() -> None:
    columns = [Column("READY"), Column("RESTARTS"), Column("AGE")]
    exact = render_table(columns, [["12/12 components", "", "5m"]], run_on={(0, 0)})
    assert exact.splitlines()[1] == "12/12 components   5m"  # 5 + 3 + 8: just fits
    too_long = render_table(columns, [["120/120 components", "", "5m"]], run_on={(0, 0)})
    assert too_long.splitlines() == [
        "READY" + " " * 16 + "RESTARTS   AGE",
        "120/120 components" + " " * 14 + "5m",
    ]
    beside = render_table(columns, [["2/3 components", "1", "5m"]], run_on={(0, 0)})
    assert beside.splitlines()[1] == "2/3 components   1          5m"
