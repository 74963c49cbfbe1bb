"""kubectl get's table flags on ``list`` (and ``status`` without NAME), through the real entry
point with a fake cluster: --sort-by, --show-labels, -L/--label-columns, --no-headers."""

from __future__ import annotations

import json

import pytest

from kubectl_dgd.output.sort_by import parse_field_path
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


@pytest.mark.parametrize("expression", ["{.items[*].metadata.name}", "{..name}", ".a[?(@.x)]"])
def test_sort_by_refuses_more_than_a_field_path(expression: str) -> None:
    code, _, err = run("list", "--sort-by", expression)
    assert code == 2
    assert "is not a field path" in err
    assert parse_field_path("{.spec.components[1].name}") == ["spec", "components", 1, "name"]


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
