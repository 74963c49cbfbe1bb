"""Reading the parts of a component's pod template that the operator keys on (the ``main`` container)."""

from __future__ import annotations

from typing import Any

MAIN_CONTAINER = "main"


def pod_spec(component: dict[str, Any]) -> dict[str, Any]:
    """``podTemplate.spec`` as a mapping ({} when absent or malformed)."""
    template = component.get("podTemplate")
    spec = template.get("spec") if isinstance(template, dict) else None
    return spec if isinstance(spec, dict) else {}


def containers(component: dict[str, Any]) -> list[dict[str, Any]]:
    found = pod_spec(component).get("containers")
    if not isinstance(found, list):
        return []
    return [c for c in found if isinstance(c, dict)]


def main_container_index(component: dict[str, Any]) -> int | None:
    """Index of the container named ``main`` in ``podTemplate.spec.containers`` (first wins)."""
    found = pod_spec(component).get("containers")
    if not isinstance(found, list):
        return None
    for i, container in enumerate(found):
        if isinstance(container, dict) and container.get("name") == MAIN_CONTAINER:
            return i
    return None


def main_container(component: dict[str, Any]) -> dict[str, Any] | None:
    i = main_container_index(component)
    return None if i is None else containers_raw(component)[i]


def containers_raw(component: dict[str, Any]) -> list[Any]:
    found = pod_spec(component).get("containers")
    return found if isinstance(found, list) else []


def main_image(component: dict[str, Any]) -> str:
    """The main container's image, "" when there is none."""
    container = main_container(component)
    image = container.get("image") if container else None
    return image if isinstance(image, str) else ""


def string_list(value: Any) -> list[str]:
    """``command``/``args`` as strings; anything else in the list is skipped."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]
