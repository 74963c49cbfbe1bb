"""1.6 provider-override values of embedded Grove targets, and the rollingUpdate budget.

The newest registry (``po/registry.go`` · ``validateComponentValue``, search index 71643200112)
lets a ``PodCliqueTemplateSpec`` or ``PodCliqueScalingGroupConfig`` value write three subtrees:
``topologyConstraint``, the native minimum (``spec.minAvailable`` on a clique,
``minAvailable`` on a scaling group) and ``rollingUpdate.maxUnavailable``. The policy is chosen
by target, so multinode role overrides (target ``PodCliqueTemplateSpec``) get it too.

The validator (``val/shared_v1beta1.go`` · ``validateProviderOverride``, 70561057532) then judges
a positive budget in its component context, whatever the value errors were: outside component
scope it belongs to the owning component; under ``OnDelete`` it is refused; it may not exceed
the component's replicas; under ``Coherent`` it may not be below the component's (legacy)
``minAvailable``. The 1.6 API docs (70638219375) still say DGD does not expose
``maxUnavailable``; the code is newer and is what we follow (docs/operator-semantics.md).
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.validate import grove_shape
from kubectl_dgd.core.validate.fielderr import forbidden, invalid

CLIQUE = "PodCliqueTemplateSpec"
OWNED = "is Dynamo-owned or not enabled for provider override"
POSITIVE = "must be a positive 32-bit integer"
NOTHING_WRITTEN = "topologyConstraint, minAvailable or rollingUpdate is required"
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def component_value(value: dict[str, Any], target: str, base: str) -> list[Finding]:
    """``validateComponentValue`` of the 1.6 registry on an object ``value`` (paths under ``base``)."""
    availability_key = "spec" if target == CLIQUE else "minAvailable"
    availability_path = "spec.minAvailable" if target == CLIQUE else "minAvailable"
    found = _unknown(value, "", ("topologyConstraint", availability_key, "rollingUpdate"), base)
    if "topologyConstraint" in value:
        found += _object_error(value["topologyConstraint"], f"{base}.topologyConstraint")
    has_availability = availability_key in value
    if "topologyConstraint" not in value and not has_availability and "rollingUpdate" not in value:
        found.append(
            invalid(
                f"{base}.topologyConstraint",
                None,
                NOTHING_WRITTEN,
                "provider-override-required-path",
            )
        )
    if "rollingUpdate" in value:
        rolling = value["rollingUpdate"]
        problem = _object_error(rolling, f"{base}.rollingUpdate")
        if problem:
            found += problem
        else:
            found += _unknown(rolling, "rollingUpdate", ("maxUnavailable",), base)
            found += _positive(rolling, "maxUnavailable", f"{base}.rollingUpdate.maxUnavailable")
    if not has_availability:
        return found
    owner = value
    if target == CLIQUE:
        problem = _object_error(value["spec"], f"{base}.spec")
        if problem:
            return found + problem
        owner = value["spec"]
        found += _unknown(owner, "spec", ("minAvailable",), base)
    return found + _positive(owner, "minAvailable", f"{base}.{availability_path}")


def budget(
    value: Any, base: str, scope: str, component: dict[str, Any] | None, strategy: Any
) -> list[Finding]:
    """The rollingUpdate budget in its authored context (only a well-formed positive budget)."""
    maximum = _budget(value)
    if maximum is None or maximum <= 0:
        return []
    rolling = f"{base}.rollingUpdate"
    if scope != "component" or component is None:
        return [
            forbidden(
                rolling,
                "member cliques use the owning component's rollingUpdate budget",
                "provider-override-budget",
            )
        ]
    replicas = _int_or_one(component.get("replicas"))
    minimum = _int_or_one(component.get("minAvailable"))
    found: list[Finding] = []
    if strategy == "OnDelete":
        found.append(
            forbidden(
                rolling,
                "must not be set when the update strategy is OnDelete",
                "provider-override-budget",
            )
        )
    if maximum > replicas:
        found.append(
            invalid(
                f"{rolling}.maxUnavailable",
                maximum,
                f"must not be greater than replicas ({replicas}); lower or remove the budget "
                "before scaling down",
                "provider-override-budget",
            )
        )
    if strategy == "Coherent" and maximum < minimum:
        found.append(
            invalid(
                f"{rolling}.maxUnavailable",
                maximum,
                f"must not be less than minAvailable ({minimum}) under the Coherent update strategy",
                "provider-override-budget",
            )
        )
    return found


def _budget(value: Any) -> int | None:
    """``GroveMaxUnavailable``: the budget when ``rollingUpdate.maxUnavailable`` decodes as int32."""
    if not isinstance(value, dict):
        return None
    rolling = value.get("rollingUpdate")
    if not isinstance(rolling, dict):
        return None
    maximum = rolling.get("maxUnavailable")
    return maximum if _is_int32(maximum) else None


def _is_int32(value: Any) -> bool:
    return (
        isinstance(value, int) and not isinstance(value, bool) and INT32_MIN <= value <= INT32_MAX
    )


def _int_or_one(value: Any) -> int:
    return value if _is_int32(value) else 1


def _positive(owner: dict[str, Any], key: str, path: str) -> list[Finding]:
    number = owner.get(key)
    if number is None:  # absent or JSON null
        return [invalid(path, None, "is required", "provider-override-required-path")]
    if not _is_int32(number) or number < 1:
        return [invalid(path, None, POSITIVE, "provider-override-number")]
    return []


def _object_error(node: Any, path: str) -> list[Finding]:
    if isinstance(node, dict):
        return []
    detail = "must be a JSON object"
    if node is not None:
        detail += f": {grove_shape.not_an_object(node)}"
    return [invalid(path, None, detail, "provider-override-schema")]


def _unknown(node: dict[str, Any], path: str, allowed: tuple[str, ...], base: str) -> list[Finding]:
    prefix = f"{base}.{path}." if path else f"{base}."
    return [
        forbidden(f"{prefix}{key}", OWNED, "provider-override-path")
        for key in sorted(str(k) for k in node)
        if key not in allowed
    ]
