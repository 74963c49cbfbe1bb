"""Env references that depend on the operator's alphabetical env merge (docs/operator-semantics.md#pod-template-merge).

The operator merges ``spec.env`` into each component's ``main`` container (component wins) and sorts
the result by name. Kubernetes expands ``$(VAR)`` only from variables defined earlier in the list,
so a reference to a variable that sorts after the referencing one stays literal.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.containers import main_container_index
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.validate.graphview import as_list, component_path, components, dig, spec

_REFERENCE = LazyPattern(r"(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


def _entries(env: Any, path: str) -> list[tuple[str, str, str]]:
    """``(name, value, path of value)`` for literal env entries."""
    result = []
    for j, entry in enumerate(as_list(env)):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            value = entry.get("value")
            result.append(
                (entry["name"], value if isinstance(value, str) else "", f"{path}[{j}].value")
            )
    return result


def check(obj: dict[str, Any]) -> list[Finding]:
    graph_env = _entries(spec(obj).get("env"), "spec.env")
    found: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for i, component in components(obj):
        index = main_container_index(component)
        own: list[tuple[str, str, str]] = []
        if index is not None:
            container_path = f"{component_path(i)}.podTemplate.spec.containers[{index}].env"
            own = _entries(
                dig(component, "podTemplate", "spec", "containers")[index].get("env"),
                container_path,
            )
        merged = {name: (value, path) for name, value, path in graph_env}
        merged.update({name: (value, path) for name, value, path in own})
        for name, (value, path) in sorted(merged.items()):
            for ref in _REFERENCE.findall(value):
                if ref in merged and ref >= name and (path, ref) not in seen:
                    seen.add((path, ref))
                    found.append(
                        Finding(
                            "warning",
                            "lint",
                            path,
                            f"$({ref}) is not expanded in {name}: the operator sorts the merged env by name, "
                            f"so {ref} comes after {name}",
                            "env-order-reference",
                        )
                    )
    return found
