"""Rendered children as a YAML stream (each with a ``# Source:`` comment) or a JSON List: the
``yaml`` and ``json`` formats of the :class:`RenderedList` view, by name for direct callers."""

from __future__ import annotations

from kubectl_dgd.core.render import RenderedObject
from kubectl_dgd.core.views import RenderedList
from kubectl_dgd.output.printer import format_view


def render_yaml(objects: list[RenderedObject]) -> str:
    return format_view(RenderedList(objects), "yaml")


def render_json(objects: list[RenderedObject]) -> str:
    return format_view(RenderedList(objects), "json")
