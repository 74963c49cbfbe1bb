"""kubectl get's table flags on ``list`` (and ``status`` without NAME), through the real entry
point with a fake cluster: --sort-by, --show-labels, -L/--label-columns, --no-headers."""

from __future__ import annotations

import json

import pytest

from kubectl_dgd.output.sort_by import natural_key
from tests.cluster.conftest import NOW, three_graphs
from tests.fakes import FakeCluster, FakeDeps, invoke


def run(*args: str) -> tuple[int, str, str]:
    graphs = three_graphs()
    graphs[0]["spec"]["components"][0]["replicas"] = 9  # my-graph's first component
    fake = FakeDeps(FakeCluster(graphs), now=NOW)
    code = invoke(fake, *args)
    return code, fake.out, fake.err


def names(out: str) -> list[str]:
    return [line.split()[0] for line in out.splitlines()[1:]]


def test_sort_by_a_label_in_either_spelling() -> None:
    for expression in ("{.metadata.labels.team}", ".metadata.labels.team", "metadata.labels.team"):
        code, out, err = run("list", "--sort-by", expression)
        assert (code, err) == (0, "")
        # my-graph has no team label: missing values sort first, as in kubectl
        assert names(out) == ["my-graph", "rolling", "restarted"]


def test_sort_by_orders_json_output_too_and_numbers_numerically() -> None:
    code, out, _ = run("list", "-A", "-o", "json", "--sort-by={.spec.components[0].replicas}")
    assert code == 0
    replicas = [i["spec"]["components"][0].get("replicas") for i in json.loads(out)["items"]]
    assert replicas[-1] == 9
    assert replicas == sorted(replicas, key=lambda r: (r is not None, r or 0))


def test_sort_by_a_field_no_object_has_is_an_error() -> None:
    code, out, err = run("list", "--sort-by", "{.spec.nothing}")
    assert (code, out) == (2, "")
    assert err == (
        "error: couldn't find any field with path '{.spec.nothing}' in the list of objects\n"
    )


# --sort-by was a field path only (wildcards and filters refused, issue 10 item 2 lifts that):
# it is now kubectl's JSONPath, through output/jsonpath.py, as -o jsonpath.
@pytest.mark.parametrize(
    ("expression", "order"),
    [
        # the first value found: the first component's replicas (9 for my-graph; ties keep
        # the listing's order, by name)
        ("{.spec.components[*].replicas}", ["restarted", "rolling", "my-graph"]),
        ("{.status.restart.phase}", ["my-graph", "rolling", "restarted"]),
        ("{.metadata.labels.*}", ["my-graph", "rolling", "restarted"]),
        ("{.metadata..team}", ["my-graph", "rolling", "restarted"]),
        (
            "{.spec.components[?(@.type=='frontend')].replicas}",
            ["restarted", "rolling", "my-graph"],
        ),
    ],
)
def test_sort_by_takes_kubectls_jsonpath(expression: str, order: list[str]) -> None:
    code, out, err = run("list", "--sort-by", expression)
    assert (code, err) == (0, "")
    assert names(out) == order


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("{.a", "unexpected path string, expected a 'name1.name2'"),
        ("{.spec.components[}", "--sort-by: '{.spec.components[}'"),
        ("{.items[*].metadata.name}", "couldn't find any field with path"),
    ],
)
def test_a_bad_sort_by_is_one_line_exit_2(expression: str, message: str) -> None:
    code, out, err = run("list", "--sort-by", expression)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and message in err, err


def test_text_sorts_in_kubectls_natural_order() -> None:
    assert sorted(["pod-10", "pod-2", "pod-02", "pod-1a", "pod-"], key=natural_key) == [
        "pod-",
        "pod-1a",
        "pod-2",
        "pod-02",
        "pod-10",
    ]
    assert sorted(["b", "a1", "a", "A"], key=natural_key) == ["A", "a", "a1", "b"]


def test_show_labels_adds_a_labels_column() -> None:
    code, out, err = run("list", "--show-labels")
    assert (code, err) == (0, "")
    header, *rows = out.splitlines()
    assert header.split()[-1] == "LABELS"
    assert [row.split()[-1] for row in rows] == ["<none>", "team=b", "team=a"]


def test_label_columns_repeatable_and_comma_separated() -> None:
    code, out, _ = run("list", "-L", "team", "--label-columns", "app.kubernetes.io/name,team")
    assert code == 0
    header, first, second, _ = out.splitlines()
    assert header.split()[-3:] == ["TEAM", "NAME", "TEAM"]
    assert first.split()[-1] == "120m"  # my-graph: no labels, empty cells
    assert second.split()[-2:] == ["b", "b"]


def test_status_without_name_takes_the_same_flags_and_refuses_them_with_a_name() -> None:
    code, out, _ = run("status", "--show-labels", "--no-headers", "--sort-by", ".metadata.name")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["my-graph", "restarted", "rolling"]
    for flag in (("--show-labels",), ("-L", "team"), ("--sort-by", ".metadata.name")):
        code, _, err = run("status", "my-graph", *flag)
        assert code == 2
        assert "lists graphs; it cannot be used with a graph NAME" in err


def test_no_headers_drops_only_the_header_row() -> None:
    _, with_headers, _ = run("list", "--show-labels")
    code, out, _ = run("list", "--show-labels", "--no-headers")
    assert code == 0
    # the widths follow what is printed, as in kubectl: compare the cells
    assert [r.split() for r in out.splitlines()] == [
        r.split() for r in with_headers.splitlines()[1:]
    ]
