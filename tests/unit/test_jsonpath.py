"""output/jsonpath.py on its own: what the differential tests against kubectl cannot reach
(Go's number printing at the edges, very long templates, very deep data)."""

from __future__ import annotations

import pytest

from kubectl_dgd.output.jsonpath import JsonPathError, execute, go_format_g, go_json, parse, run


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0.5, "0.5"),
        (2.0, "2"),
        (123456.0, "123456"),
        (1234567.0, "1.234567e+06"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (-3.25, "-3.25"),
        (1e21, "1e+21"),
    ],
)
def test_floats_print_as_go_prints_them(number: float, text: str) -> None:
    assert go_format_g(number) == text


def test_json_floats_and_escapes_as_go_marshals_them() -> None:
    assert go_json({"b": 1e-7, "a": 1234567.5, "c": "<&>"}) == (
        '{"a":1234567.5,"b":1e-7,"c":"\\u003c\\u0026\\u003e"}'
    )


def test_a_template_of_many_actions_parses() -> None:
    assert execute(parse("{.a}," * 5000), {"a": 1}) == "1," * 5000


def test_data_nested_too_deeply_is_one_error() -> None:
    data: dict[str, object] = {}
    inner = data
    for _ in range(5000):
        inner["a"] = {}
        inner = inner["a"]  # type: ignore[assignment]
    with pytest.raises(JsonPathError, match="nested too deeply"):
        run(parse("{..a}"), data)


def test_range_without_end_goes_on_with_the_rest() -> None:
    data = {"items": [{"n": "x"}, {"n": "y"}], "n": "top"}
    assert execute(parse("{range .items[*]}{.n}"), data) == "xytop"
