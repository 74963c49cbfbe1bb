"""1.6 minimum availability: the deprecated component ``minAvailable`` and its native form.

From 1.6 a component's minimum lives in its Grove provider override (``value.spec.minAvailable``
on a clique, ``value.minAvailable`` on a scaling group); the old field stays for existing graphs.
What the operator's code gives (``provideroverride/availability.go``, search index 70722253782):
the native minimum is read as ``GroveMinAvailable`` reads it, and the effective minimum is the old
field, else the native one, else 1 (``EffectiveGroveMinAvailable``). What its 1.6 docs state
(70638219375, 70243226474), and we check:

- mixing the two forms anywhere in one graph is refused (migrate every component in one update);
- a native minimum must fit a positive replica count (scaling to 0 keeps it), as the CRD rule
  "minAvailable must be less than or equal to replicas unless replicas is 0" does for the old;
- the effective minimum is immutable, across both forms (moving the same value is allowed, and
  the CRD lets the old field be removed for that);
- introducing or changing the old field gets a deprecation warning;
- under an explicitly selected ``Coherent`` strategy, an explicit minimum (either form) that
  equals a positive replica count could take the whole component offline: a warning on create
  and on the edits that would roll it or introduce the risk (replica-only and metadata edits that
  leave the risk as it was do not repeat it).

The operator's message texts for these five are not in the sources we have (the indexed 1.6
webhook predates them), so ours say the same thing in its style and the rules table marks them.
"""

from __future__ import annotations

from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import as_int
from kubectl_dgd.core.validate.fielderr import forbidden, invalid, warning
from kubectl_dgd.core.validate.graphview import annotations_of, component_path, components

GROVE_API = "grove.io/v1alpha1"
STRATEGY_ANNOTATION = "nvidia.com/grove-update-strategy"
INT32 = range(-(2**31), 2**31)

MIXED = (
    "cannot combine the deprecated component minAvailable with a providerOverride minAvailable; "
    "migrate every component to providerOverride in one update"
)
DEPRECATED = (
    "{path} is deprecated; set the minimum in the component providerOverride "
    "(value.spec.minAvailable, or value.minAvailable for a scaling group) instead"
)
OFFLINE = (
    "{path}: under the Coherent update strategy a minimum of {minimum} equal to replicas could "
    "take the entire component offline during an update"
)


def native_minimum(component: dict[str, Any]) -> int | None:
    """``GroveMinAvailable``: ``value.minAvailable``, else ``value.spec.minAvailable``, when the
    override is Grove's and both decode (as ``*int32``); None otherwise."""
    override = component.get("providerOverride")
    if not isinstance(override, dict) or override.get("apiVersion") != GROVE_API:
        return None
    value = override.get("value")
    if not isinstance(value, dict):
        return None
    top, nested = value.get("minAvailable"), value.get("spec")
    if nested is not None and not isinstance(nested, dict):
        return None  # json.Unmarshal fails on the whole value
    inner = nested.get("minAvailable") if isinstance(nested, dict) else None
    if not all(_int32_or_null(v) for v in (top, inner)):
        return None
    return top if top is not None else inner


def effective_minimum(component: dict[str, Any]) -> int:
    """``EffectiveGroveMinAvailable``: the old field, else the native minimum, else 1."""
    legacy = as_int(component.get("minAvailable"))
    if legacy is not None:
        return legacy
    native = native_minimum(component)
    return 1 if native is None else native


def check(obj: dict[str, Any], old: dict[str, Any] | None, grove: bool) -> list[Finding]:
    """The rules of every create and update (the stored object, if any, for the warnings). Off
    the Grove pathway the old field is refused outright (``min-available-grove-only``), so the
    deprecation warning is for Grove graphs."""
    listed = components(obj)
    found: list[Finding] = []
    if any(c.get("minAvailable") is not None for _, c in listed) and any(
        native_minimum(c) is not None for _, c in listed
    ):
        found.append(forbidden("spec.components", MIXED, "min-available-mixed-forms"))
    for i, component in listed:
        found += _native_fits_replicas(component, component_path(i))
    before = _by_name(old)
    for i, component in listed:
        previous = before.get(str(component.get("name")))
        legacy = component.get("minAvailable")
        changed = previous is None or previous.get("minAvailable") != legacy
        if grove and legacy is not None and changed:
            path = f"{component_path(i)}.minAvailable"
            found.append(warning(path, DEPRECATED.format(path=path), "min-available-deprecated"))
    return found + _coherent_offline(obj, old)


def check_update(new: dict[str, Any], old: dict[str, Any]) -> list[Finding]:
    """The effective minimum of a component may not change, whichever form carries it. A change
    of the old field on both sides is the CRD rule's (``minAvailable is immutable after
    creation``), so it is left to the CEL layer."""
    before = _by_name(old)
    found: list[Finding] = []
    for i, component in components(new):
        previous = before.get(str(component.get("name")))
        if previous is None:
            continue
        if component.get("minAvailable") is not None and previous.get("minAvailable") is not None:
            continue
        was, now = effective_minimum(previous), effective_minimum(component)
        if was != now:
            found.append(
                invalid(
                    f"{component_path(i)}.minAvailable",
                    now,
                    f"the effective minimum availability is immutable after creation (was {was}); "
                    "move the same value between minAvailable and providerOverride",
                    "min-available-effective-immutable",
                )
            )
    return found


def _native_fits_replicas(component: dict[str, Any], base: str) -> list[Finding]:
    minimum, replicas = native_minimum(component), as_int(component.get("replicas"))
    if minimum is None or replicas is None or replicas == 0 or minimum <= replicas:
        return []
    value = component["providerOverride"]["value"]
    where = "minAvailable" if value.get("minAvailable") is not None else "spec.minAvailable"
    return [
        invalid(
            f"{base}.providerOverride.value.{where}",
            minimum,
            f"must be less than or equal to replicas ({replicas}) unless replicas is 0",
            "min-available-native-replicas",
        )
    ]


def _coherent_offline(obj: dict[str, Any], old: dict[str, Any] | None) -> list[Finding]:
    if annotations_of(obj).get(STRATEGY_ANNOTATION) != "Coherent":
        return []
    was_coherent = old is not None and annotations_of(old).get(STRATEGY_ANNOTATION) == "Coherent"
    before = _by_name(old)
    found: list[Finding] = []
    for i, component in components(obj):
        if not _at_risk(component):
            continue
        previous = before.get(str(component.get("name")))
        if (
            was_coherent
            and previous is not None
            and _at_risk(previous)
            and previous.get("podTemplate") == component.get("podTemplate")
        ):
            continue  # the risk was already there and nothing here rolls the component
        path = component_path(i)
        minimum = effective_minimum(component)
        found.append(
            warning(path, OFFLINE.format(path=path, minimum=minimum), "coherent-offline-risk")
        )
    return found


def _at_risk(component: dict[str, Any]) -> bool:
    """An explicit minimum (either form) that equals or exceeds a positive replica count."""
    explicit = component.get("minAvailable") is not None or native_minimum(component) is not None
    replicas = as_int(component.get("replicas"))  # defaulted to 1, except LPX (externally scaled)
    return explicit and replicas is not None and 0 < replicas <= effective_minimum(component)


def _by_name(obj: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {} if obj is None else {str(c.get("name")): c for _, c in components(obj)}


def _int32_or_null(value: Any) -> bool:
    number = as_int(value)
    return value is None or (number is not None and number in INT32)
