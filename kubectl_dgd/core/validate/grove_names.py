"""Grove resource-name budget: the PodCliqueSet name and the 45-character pod-name limit."""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core import naming
from kubectl_dgd.core.validate.graphview import effective_mode, experimental, node_count

POD_NAME_LIMIT = naming.GROVE_NAME_LIMIT


def uses_scaling_group_for_names(component: dict[str, Any]) -> bool:
    """Components whose pods carry PCSG + clique names (multinode or inter-pod GMS)."""
    return (
        node_count(component) > 1
        or effective_mode(experimental(component, "gpuMemoryService")) == "InterPod"
    )


def longest_clique_name(component: dict[str, Any]) -> str:
    """The longest clique rendered inside the component's scaling group (leader/worker cliques).

    Inter-pod GMS ranks are not modelled: its clique names depend on the rank count.
    """
    return f"{str(component.get('name', '')).lower()}-ldr"


def component_budget(component: dict[str, Any]) -> int:
    name = str(component.get("name", "")).lower()
    if uses_scaling_group_for_names(component):
        return len(name) + len(longest_clique_name(component))
    return len(name)


def pcs_name(dgd_name: str, components: list[dict[str, Any]]) -> str:
    """The PodCliqueSet name the operator will use for these components."""
    return naming.pcs_name(dgd_name, [component_budget(c) for c in components])


def combined_length(
    dgd_name: str, components: list[dict[str, Any]], component: dict[str, Any]
) -> tuple[int, str]:
    """Length of the longest pod name part for ``component`` and the operator's wording of it."""
    length = len(pcs_name(dgd_name, components)) + len(str(component.get("name", "")).lower())
    if uses_scaling_group_for_names(component):
        clique = longest_clique_name(component)
        return length + len(clique), f'PCS name + PCSG name + longest PodClique name "{clique}"'
    return length, "PCS name + component name"
