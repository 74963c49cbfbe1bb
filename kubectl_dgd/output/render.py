"""Rendered children as a YAML stream (each with a ``# Source:`` comment) or a JSON List: the
``yaml`` and ``json`` formats of the :class:`RenderedList` view, by name for direct callers;
and ``render``'s output whatever its ``-o``: a stream format written child by child as they
come, any other printed over the whole list."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kubectl_dgd.core.render import RenderedObject
from kubectl_dgd.core.views import RenderedList
from kubectl_dgd.output.printer import Printer, format_view


def write_rendered(
    children: Iterable[RenderedObject], printer: Printer, write: Callable[[str], object]
) -> None:
    if printer.documents:
        for child in children:
            write(printer.render(RenderedList([child])))
        return
    write(printer.render(RenderedList(list(children))))


def render_yaml(objects: list[RenderedObject]) -> str:
    return format_view(RenderedList(objects), "yaml")


def render_json(objects: list[RenderedObject]) -> str:
    return format_view(RenderedList(objects), "json")
