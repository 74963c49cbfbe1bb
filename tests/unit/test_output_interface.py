"""The one output interface (output/printer.py): formats are modules behind one registry, JSON and
YAML are the view's data, and nothing outside output/ and the front ends decides a format."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from kubectl_dgd.core.render import RenderedObject
from kubectl_dgd.core.views import (
    EventView,
    Explanation,
    GraphName,
    ManifestStream,
    RenderedList,
    RestartSummary,
)
from kubectl_dgd.errors import UsageError
from kubectl_dgd.output.printer import FORMATS, Options, format_view, print_view
from kubectl_dgd.output.serialize import to_yaml
from kubectl_dgd.output.style import Style
from kubectl_dgd.usecases.rollout import RolloutState

PACKAGE = Path(__file__).resolve().parents[2] / "kubectl_dgd"

EXPLANATION = Explanation(
    name="g",
    namespace="ns",
    summary="rolled out; nothing in flight.",
    rollingUpdate=None,
    restart=["Restart r1 Completed."],
    advice=["check it: kubectl dgd diff -f FILE"],
)


def test_every_registered_format_is_a_module_with_a_render_function() -> None:
    assert set(FORMATS) >= {"text", "wide", "json", "yaml", "name"}
    for target in FORMATS.values():
        module, function = target.split(":")
        assert callable(getattr(importlib.import_module(module), function))


def test_an_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown output format 'xml'"):
        format_view(GraphName("g"), "xml")


def test_json_and_yaml_are_the_views_data() -> None:
    assert json.loads(format_view(EXPLANATION, "json")) == EXPLANATION.to_data()
    assert format_view(EXPLANATION, "yaml") == to_yaml(EXPLANATION.to_data())


def test_text_of_a_view_kind_without_a_drawing_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not supported for GraphName"):
        format_view(GraphName("g"), "text")
    with pytest.raises(UsageError, match="-o name is not supported for Explanation"):
        format_view(EXPLANATION, "name")


def test_explanation_text_is_paragraphs() -> None:
    assert format_view(EXPLANATION, "text") == (
        'dgd "g" in namespace "ns": rolled out; nothing in flight.\n\n'
        "Restart r1 Completed.\n\n"
        "What you can do:\n- check it: kubectl dgd diff -f FILE\n"
    )


def test_restart_summary_text() -> None:
    view = RestartSummary("ns/g", None, "r2", "Parallel (all components at once)", "done", "@@\n")
    assert format_view(view, "text") == (
        "@@\nns/g: restart id (none) -> r2\nstrategy: Parallel (all components at once)\ndone\n"
    )


def test_yaml_of_rendered_children_is_a_stream_with_their_sources() -> None:
    view = RenderedList([RenderedObject("g/a", {"kind": "Service"}), RenderedObject("g", {"k": 1})])
    assert (
        format_view(view, "yaml") == "---\n# Source: g/a\nkind: Service\n---\n# Source: g\nk: 1\n"
    )
    assert json.loads(format_view(view, "json"))["items"] == [{"kind": "Service"}, {"k": 1}]


def test_a_manifest_stream_has_no_comments() -> None:
    view = ManifestStream([{"a": "on"}, {"b": []}])
    assert format_view(view, "yaml") == '---\na: "on"\n---\nb: []\n'


def test_print_view_writes_to_the_stream_it_is_given(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    with path.open("w") as stream:
        print_view(RolloutState(True, False, "done", "done"), "text", stream)
    assert path.read_text() == "done\n"


def test_style_reaches_the_drawing() -> None:
    from kubectl_dgd.core.report import ValidationReport

    coloured = format_view(ValidationReport(), "text", Options(Style(True)))
    assert coloured == "\x1b[1m0 documents, 0 graphs: 0 valid, 0 invalid, 0 skipped\x1b[0m\n"


def test_event_data_leaves_out_the_age() -> None:
    event = EventView("Normal", "R", "m", 1, None, None, 5)
    assert "ageSeconds" not in event.to_data()


# An `-o`/format decision is an `output == "..."`-like test on a format name.
_FORMAT_BRANCH = re.compile(r"(?<![.\w])(output|fmt)\s*(==|!=|in|not in)\s*[\"'(\[]")


@pytest.mark.parametrize("layer", ["usecases", "core", "adapters", "model", "argocd", "cli"])
def test_no_format_branch_outside_output_and_the_front_ends(layer: str) -> None:
    """cli/ too: a command asks its printer (is_table, names_only...), as kubectl's commands
    ask the printer PrintFlags built, never the format's name."""
    offending = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if _FORMAT_BRANCH.search(line)
    ]
    assert offending == []


def test_one_table_renderer() -> None:
    """Padding cells into columns happens in output/table.py only."""
    offending = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "table.py" and re.search(r"\.[lr]just\(", path.read_text())
    ]
    assert offending == []


def test_every_text_drawer_names_a_view_class_and_a_function_that_exist() -> None:
    """DRAWERS is keyed by the view class's full name: a renamed or moved view class (or a
    drawer) fails here, not as "-o text is not supported" in a user's terminal."""
    import importlib

    from kubectl_dgd.output.text import DRAWERS

    for key, target in DRAWERS.items():
        module, _, name = key.rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        assert f"{cls.__module__}.{cls.__qualname__}" == key
        drawer_module, function = target.split(":")
        assert callable(getattr(importlib.import_module(drawer_module), function)), target
