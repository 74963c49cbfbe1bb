"""The provider-override value decoded as the operator does: ``json.Unmarshal`` into the Grove type.

The operator (``validateKnownGroveShape``) unmarshals the value into ``grovev1alpha1.PodCliqueSet``,
``PodCliqueTemplateSpec`` or ``PodCliqueScalingGroupConfig`` and reports Go's first decoding error.
We model the fields of those types that Dynamo users write (names and Go types from the Grove API,
search index 70766669505, and the tags the operator pins: Grove v0.1.0-alpha.12-rc1 for 1.5, the
same ``TopologyConstraint`` of ``topologyName``, ``pack`` {``required``, ``preferred``} and the
deprecated ``packDomain`` in the 1.6 index version); unknown fields are ignored, as encoding/json
ignores them, and fields we do not model are accepted. Error text follows encoding/json's
``UnmarshalTypeError``: ``json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of
type <type>``. Go reports the first error in document order; the webhook's request body is the API
server's JSON of the object, whose map keys are sorted, so keys are visited sorted. Go also matches
a key to a field case-insensitively when no field has its exact name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GoType:
    """``name`` as Go prints it; ``kind`` one of struct, string, int32, bool, slice, map, any."""

    name: str
    kind: str
    fields: dict[str, GoType] = field(default_factory=dict)
    elem: GoType | None = None


ANY = GoType("any", "any")
STRING = GoType("string", "string")
INT32 = GoType("int32", "int32")
STRINGS = GoType("[]string", "slice", elem=STRING)
STRING_MAP = GoType("map[string]string", "map", elem=STRING)

DOMAIN = GoType("v1alpha1.TopologyDomain", "string")
TOPOLOGY = GoType(
    "v1alpha1.TopologyConstraint",
    "struct",
    {
        "topologyName": STRING,
        "pack": GoType(
            "v1alpha1.TopologyPackConstraint",
            "struct",
            {"required": DOMAIN, "preferred": DOMAIN},
        ),
        "packDomain": DOMAIN,
    },
)
CLIQUE_SPEC = GoType(
    "v1alpha1.PodCliqueSpec",
    "struct",
    {
        "roleName": STRING,
        "replicas": INT32,
        "minAvailable": INT32,
        "startsAfter": STRINGS,
    },
)
CLIQUE = GoType(
    "v1alpha1.PodCliqueTemplateSpec",
    "struct",
    {
        "name": STRING,
        "labels": STRING_MAP,
        "annotations": STRING_MAP,
        "topologyConstraint": TOPOLOGY,
        "spec": CLIQUE_SPEC,
    },
)
SCALING_GROUP = GoType(
    "v1alpha1.PodCliqueScalingGroupConfig",
    "struct",
    {
        "name": STRING,
        "cliqueNames": STRINGS,
        "replicas": INT32,
        "minAvailable": INT32,
        "topologyConstraint": TOPOLOGY,
    },
)
TEMPLATE = GoType(
    "v1alpha1.PodCliqueSetTemplateSpec",
    "struct",
    {
        "cliques": GoType("[]*v1alpha1.PodCliqueTemplateSpec", "slice", elem=CLIQUE),
        "cliqueStartupType": GoType("v1alpha1.CliqueStartupType", "string"),
        "priorityClassName": STRING,
        "topologyConstraint": TOPOLOGY,
        "podCliqueScalingGroups": GoType(
            "[]v1alpha1.PodCliqueScalingGroupConfig", "slice", elem=SCALING_GROUP
        ),
    },
)
OBJECT_META = GoType(
    "v1.ObjectMeta",
    "struct",
    {"name": STRING, "namespace": STRING, "labels": STRING_MAP, "annotations": STRING_MAP},
)
PCS = GoType(
    "v1alpha1.PodCliqueSet",
    "struct",
    {
        "metadata": OBJECT_META,
        "spec": GoType(
            "v1alpha1.PodCliqueSetSpec",
            "struct",
            {"replicas": INT32, "template": TEMPLATE},
        ),
    },
)
TARGETS: dict[str, GoType] = {
    "PodCliqueSet": PCS,
    "PodCliqueTemplateSpec": CLIQUE,
    "PodCliqueScalingGroupConfig": SCALING_GROUP,
}


def json_kind(value: Any) -> str:
    """encoding/json's name for a JSON value in a type error (numbers carry their text)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def not_an_object(value: Any) -> str:
    """Go's error for decoding a non-object into ``map[string]json.RawMessage``."""
    return f"json: cannot unmarshal {json_kind(value)} into Go value of type map[string]json.RawMessage"


def mismatch(target: str, value: Any) -> str | None:
    """Go's decoding error for ``value`` as ``target``, or None when it decodes."""
    go_type = TARGETS.get(target)
    if go_type is None:
        return None
    return _walk(value, go_type, None, ())


def _fits(value: Any, go_type: GoType) -> tuple[bool, str]:
    """Whether a scalar fits; the second item is the JSON description Go prints on failure."""
    kind = json_kind(value)
    if go_type.kind == "string":
        return kind == "string", kind
    if go_type.kind == "int32":
        if kind != "number":
            return False, kind
        if (isinstance(value, float) and not value.is_integer()) or not -(2**31) <= value < 2**31:
            return False, f"number {value:g}" if isinstance(value, float) else f"number {value}"
        return True, kind
    if go_type.kind == "bool":
        return kind == "bool", kind
    return True, kind


def _walk(value: Any, go_type: GoType, struct: str | None, path: tuple[str, ...]) -> str | None:
    if value is None or go_type.kind == "any":
        return None  # JSON null leaves a Go value untouched
    kind = json_kind(value)
    expected = {"struct": "object", "map": "object", "slice": "array"}.get(go_type.kind)
    if expected is not None and kind != expected:
        return _error(kind, go_type, struct, path)
    if go_type.kind == "struct":
        for key in sorted(value, key=str):
            name = _field_name(go_type, str(key))
            if name is None:
                continue  # encoding/json ignores keys no field claims
            child = go_type.fields[name]
            problem = _walk(value[key], child, go_type.name.rpartition(".")[2], (*path, name))
            if problem is not None:
                return problem
        return None
    if go_type.kind in ("map", "slice"):
        items = value.values() if go_type.kind == "map" else value
        assert go_type.elem is not None
        for item in items:
            problem = _walk(item, go_type.elem, struct, path)
            if problem is not None:
                return problem
        return None
    ok, shown = _fits(value, go_type)
    return None if ok else _error(shown, go_type, struct, path)


def _field_name(go_type: GoType, key: str) -> str | None:
    """The field ``key`` decodes into: the exact JSON name, else a case-insensitive match."""
    if key in go_type.fields:
        return key
    folded = key.lower()
    return next((name for name in go_type.fields if name.lower() == folded), None)


def _error(shown: str, go_type: GoType, struct: str | None, path: tuple[str, ...]) -> str:
    if struct is None or not path:
        return f"json: cannot unmarshal {shown} into Go value of type {go_type.name}"
    return f"json: cannot unmarshal {shown} into Go struct field {struct}.{'.'.join(path)} of type {go_type.name}"
