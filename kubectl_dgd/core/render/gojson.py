"""``json.Marshal`` of the operator's Go types, byte for byte.

The worker hash is SHA-256 over Go's encoding of typed structs, so the bytes depend on what a
Python dict does not carry: struct fields come in declaration order (not sorted), ``omitempty``
drops zero values but never a non-pointer struct (a container always has ``"resources":{}``),
map keys are sorted, quantities print canonically, and ``<``, ``>``, ``&`` are escaped.

``GoType`` describes a type; ``marshal`` encodes a decoded-YAML value as that type. Keys a
struct description does not list are appended in sorted order (``approximate`` then says the
bytes may differ from the operator's), so a field we did not model never silently vanishes.
Field orders of Kubernetes types follow ``k8s.io/api/core/v1``; of Dynamo types, the operator's
``api/`` packages (fork 2a6da14c8 for 1.5; the 1.6 additions are placed as noted below).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any


@dataclass(frozen=True)
class F:
    """A struct field: JSON name, type, and whether ``omitempty`` is set."""

    name: str
    type: GoType
    omitempty: bool = True
    omitzero: bool = False


@dataclass(frozen=True)
class GoType:
    """A Go type of the operator's API, as far as its JSON encoding depends on it."""

    kind: str  # string int bool float quantity intstr any struct ptr slice map
    fields: tuple[F, ...] = ()
    elem: GoType | None = None


STRING = GoType("string")
INT = GoType("int")
BOOL = GoType("bool")
FLOAT = GoType("float")
QUANTITY = GoType("quantity")
INTSTR = GoType("intstr")
ANY = GoType("any")


def ptr(t: GoType) -> GoType:
    return GoType("ptr", elem=t)


def slice_of(t: GoType) -> GoType:
    return GoType("slice", elem=t)


def map_of(t: GoType) -> GoType:
    return GoType("map", elem=t)


def struct(*fields: F) -> GoType:
    return GoType("struct", fields)


STRINGS = slice_of(STRING)
STRING_MAP = map_of(STRING)

# ---- k8s.io/api/core/v1 and apimachinery (the fields Dynamo graphs use) ----------------------
OBJECT_META = struct(
    F("name", STRING),
    F("generateName", STRING),
    F("namespace", STRING),
    F("uid", STRING),
    F("resourceVersion", STRING),
    F("generation", INT),
    F("creationTimestamp", ANY, omitzero=True),
    F("labels", STRING_MAP),
    F("annotations", STRING_MAP),
    F("finalizers", STRINGS),
)
KEY_SELECTOR = struct(
    F("name", STRING), F("key", STRING, omitempty=False), F("optional", ptr(BOOL))
)
ENV_VAR_SOURCE = struct(
    F("fieldRef", ptr(struct(F("apiVersion", STRING), F("fieldPath", STRING, omitempty=False)))),
    F(
        "resourceFieldRef",
        ptr(
            struct(
                F("containerName", STRING),
                F("resource", STRING, omitempty=False),
                F("divisor", QUANTITY),
            )
        ),
    ),
    F("configMapKeyRef", ptr(KEY_SELECTOR)),
    F("secretKeyRef", ptr(KEY_SELECTOR)),
)
ENV_VAR = struct(
    F("name", STRING, omitempty=False), F("value", STRING), F("valueFrom", ptr(ENV_VAR_SOURCE))
)
LOCAL_REF = struct(F("name", STRING), F("optional", ptr(BOOL)))
ENV_FROM = struct(
    F("prefix", STRING), F("configMapRef", ptr(LOCAL_REF)), F("secretRef", ptr(LOCAL_REF))
)
RESOURCES = struct(
    F("limits", map_of(QUANTITY)),
    F("requests", map_of(QUANTITY)),
    F("claims", slice_of(struct(F("name", STRING, omitempty=False), F("request", STRING)))),
)
PORT = struct(
    F("name", STRING),
    F("hostPort", INT),
    F("containerPort", INT, omitempty=False),
    F("protocol", STRING),
    F("hostIP", STRING),
)
VOLUME_MOUNT = struct(
    F("name", STRING, omitempty=False),
    F("readOnly", BOOL),
    F("recursiveReadOnly", ptr(STRING)),
    F("mountPath", STRING, omitempty=False),
    F("subPath", STRING),
    F("mountPropagation", ptr(STRING)),
    F("subPathExpr", STRING),
)
HTTP_GET = struct(
    F("path", STRING),
    F("port", INTSTR, omitempty=False),
    F("host", STRING),
    F("scheme", STRING),
    F("httpHeaders", slice_of(ANY)),
)
PROBE = struct(
    F("exec", ptr(struct(F("command", STRINGS)))),
    F("httpGet", ptr(HTTP_GET)),
    F("tcpSocket", ptr(struct(F("port", INTSTR, omitempty=False), F("host", STRING)))),
    F("grpc", ptr(struct(F("port", INT, omitempty=False), F("service", ptr(STRING))))),
    F("initialDelaySeconds", INT),
    F("timeoutSeconds", INT),
    F("periodSeconds", INT),
    F("successThreshold", INT),
    F("failureThreshold", INT),
    F("terminationGracePeriodSeconds", ptr(INT)),
)
CONTAINER = struct(
    F("name", STRING, omitempty=False),
    F("image", STRING),
    F("command", STRINGS),
    F("args", STRINGS),
    F("workingDir", STRING),
    F("ports", slice_of(PORT)),
    F("envFrom", slice_of(ENV_FROM)),
    F("env", slice_of(ENV_VAR)),
    F("resources", RESOURCES),  # a non-pointer struct: always encoded
    F("resizePolicy", slice_of(ANY)),
    F("restartPolicy", ptr(STRING)),
    F("restartPolicyRules", slice_of(ANY)),
    F("volumeMounts", slice_of(VOLUME_MOUNT)),
    F("volumeDevices", slice_of(ANY)),
    F("livenessProbe", ptr(PROBE)),
    F("readinessProbe", ptr(PROBE)),
    F("startupProbe", ptr(PROBE)),
    F("lifecycle", ptr(ANY)),
    F("terminationMessagePath", STRING),
    F("terminationMessagePolicy", STRING),
    F("imagePullPolicy", STRING),
    F("securityContext", ptr(ANY)),
    F("stdin", BOOL),
    F("stdinOnce", BOOL),
    F("tty", BOOL),
)
TOLERATION = struct(
    F("key", STRING),
    F("operator", STRING),
    F("value", STRING),
    F("effect", STRING),
    F("tolerationSeconds", ptr(INT)),
)
VOLUME = struct(
    F("name", STRING, omitempty=False),
    # VolumeSource is inlined; its members are pointers, in this order.
    *(
        F(n, ptr(ANY))
        for n in [
            "hostPath",
            "emptyDir",
            "gcePersistentDisk",
            "awsElasticBlockStore",
            "gitRepo",
            "secret",
            "nfs",
            "iscsi",
            "glusterfs",
            "persistentVolumeClaim",
            "rbd",
            "flexVolume",
            "cinder",
            "cephfs",
            "flocker",
            "downwardAPI",
            "fc",
            "azureFile",
            "configMap",
            "vsphereVolume",
            "quobyte",
            "azureDisk",
            "photonPersistentDisk",
            "projected",
            "portworxVolume",
            "scaleIO",
            "storageos",
            "csi",
            "ephemeral",
            "image",
        ]
    ),
)
POD_SPEC = struct(
    F("volumes", slice_of(VOLUME)),
    F("initContainers", slice_of(CONTAINER)),
    F("containers", slice_of(CONTAINER), omitempty=False),
    F("ephemeralContainers", slice_of(ANY)),
    F("restartPolicy", STRING),
    F("terminationGracePeriodSeconds", ptr(INT)),
    F("activeDeadlineSeconds", ptr(INT)),
    F("dnsPolicy", STRING),
    F("nodeSelector", STRING_MAP),
    F("serviceAccountName", STRING),
    F("serviceAccount", STRING),
    F("automountServiceAccountToken", ptr(BOOL)),
    F("nodeName", STRING),
    F("hostNetwork", BOOL),
    F("hostPID", BOOL),
    F("hostIPC", BOOL),
    F("shareProcessNamespace", ptr(BOOL)),
    F("securityContext", ptr(ANY)),
    F("imagePullSecrets", slice_of(struct(F("name", STRING)))),
    F("hostname", STRING),
    F("subdomain", STRING),
    F("affinity", ptr(ANY)),
    F("schedulerName", STRING),
    F("tolerations", slice_of(TOLERATION)),
    F("hostAliases", slice_of(ANY)),
    F("priorityClassName", STRING),
    F("priority", ptr(INT)),
    F("dnsConfig", ptr(ANY)),
    F("readinessGates", slice_of(ANY)),
    F("runtimeClassName", ptr(STRING)),
    F("enableServiceLinks", ptr(BOOL)),
    F("preemptionPolicy", ptr(STRING)),
    F("overhead", map_of(QUANTITY)),
    F("topologySpreadConstraints", slice_of(ANY)),
    F("setHostnameAsFQDN", ptr(BOOL)),
    F("os", ptr(ANY)),
    F("hostUsers", ptr(BOOL)),
    F("schedulingGates", slice_of(ANY)),
    F("resourceClaims", slice_of(ANY)),
    F("resources", ptr(RESOURCES)),
    F("hostnameOverride", ptr(STRING)),
)
POD_TEMPLATE = struct(F("metadata", OBJECT_META), F("spec", POD_SPEC))


class Encoder:
    """One marshalling pass; ``approximate`` is set when a key had no modelled field."""

    def __init__(self) -> None:
        self.approximate = False

    def encode(self, value: Any, t: GoType) -> str:
        kind = t.kind
        if kind == "ptr":
            assert t.elem is not None
            return "null" if value is None else self.encode(value, t.elem)
        if kind == "struct" and (value is None or isinstance(value, dict)):
            return self._struct(value or {}, t)
        if value is None:
            return "null"
        expected = {"struct": dict, "map": dict, "slice": list}.get(kind)
        if expected is not None and not isinstance(value, expected):
            # A shape the Go type cannot hold (validation rejects it); encode it as it is.
            self.approximate = True
            return self._untyped(value)
        if kind == "slice":
            assert t.elem is not None
            elem = t.elem
            return "[" + ",".join(self.encode(v, elem) for v in value) + "]"
        if kind == "map":
            assert t.elem is not None
            elem = t.elem
            items = sorted((str(k), v) for k, v in value.items())
            return "{" + ",".join(f"{go_string(k)}:{self.encode(v, elem)}" for k, v in items) + "}"
        if kind == "quantity":
            return go_string(canonical_quantity(value))
        if kind == "intstr":
            return (
                str(value)
                if isinstance(value, int) and not isinstance(value, bool)
                else go_string(str(value))
            )
        if kind == "any":
            return self._untyped(value)
        return _scalar(value)

    def _struct(self, value: dict[str, Any], t: GoType) -> str:
        parts: list[str] = []
        fields, known = _layout(t)
        for f, key in fields:
            v = value.get(f.name)
            if (f.omitempty and _empty(v, f.type)) or (f.omitzero and v in (None, "", {}, [])):
                continue
            parts.append(f"{key}:{self.encode(v, f.type)}")
        for key in sorted(k for k in value if k not in known and value[k] is not None):
            self.approximate = True
            parts.append(f"{go_string(str(key))}:{self._untyped(value[key])}")
        return "{" + ",".join(parts) + "}"

    def _untyped(self, value: Any) -> str:
        """A value without a Go type description: JSON with sorted keys, Go's escaping."""
        if isinstance(value, dict):
            items = sorted((str(k), v) for k, v in value.items())
            return "{" + ",".join(f"{go_string(k)}:{self._untyped(v)}" for k, v in items) + "}"
        if isinstance(value, list):
            return "[" + ",".join(self._untyped(v) for v in value) + "]"
        return _scalar(value)


def _empty(value: Any, t: GoType) -> bool:
    """``omitempty``: false, 0, "", nil and empty slices and maps; a non-pointer struct never."""
    if t.kind == "struct":
        return False
    return (
        value is None
        or value is False
        or (value == 0 and not isinstance(value, bool) and t.kind in ("int", "float"))
        or value in ("", [], {})
    )


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else str(int(value))
    return go_string(str(value))


_Layout = tuple[tuple[tuple[F, str], ...], frozenset[str]]
# By id, with the type itself kept (so no other type can take its id). Struct types are module
# constants or built by cached functions: a handful. The bound is for the unforeseen.
_LAYOUTS: dict[int, tuple[GoType, _Layout]] = {}


def _layout(t: GoType) -> _Layout:
    """A struct's fields with their encoded keys, and the set of their names: the same for every
    value of the type, so worked out once (render hashes every worker's pod spec). Keyed by
    identity: hashing a frozen dataclass walks all its nested types, every time."""
    cached = _LAYOUTS.get(id(t))
    if cached is None or cached[0] is not t:
        if len(_LAYOUTS) > 1000:
            _LAYOUTS.clear()
        layout = (
            tuple((f, go_string(f.name)) for f in t.fields),
            frozenset(f.name for f in t.fields),
        )
        cached = _LAYOUTS[id(t)] = (t, layout)
    return cached[1]


def go_string(text: str) -> str:
    """A JSON string as Go writes it: HTML characters and U+2028/2029 escaped, UTF-8 kept."""
    if text.isascii() and text.isprintable() and not _NEEDS_ESCAPE.search(text):
        return f'"{text}"'  # what json.dumps gives for it, without its cost
    encoded = json.dumps(text, ensure_ascii=False)
    return (
        encoded.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


_NEEDS_ESCAPE = re.compile(r'["\\<>&]')
_QUANTITY = re.compile(r"^([+-]?[0-9.]+)([a-zA-Z]*)$")
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_DECIMAL_SUFFIX = {v: k for k, v in _DECIMAL.items()}


def canonical_quantity(value: Any) -> str:
    """``resource.Quantity.String()``: the largest exact suffix of the quantity's own format."""
    text = str(value).strip()
    match = _QUANTITY.match(text)
    if match is None:
        return text
    try:
        return _canonical(Decimal(match.group(1)), match.group(2)) or text
    except ArithmeticError:  # not a number, or past what a decimal context holds (1e999999999)
        return text


def _canonical(number: Decimal, suffix: str) -> str | None:
    if suffix in _BINARY:
        amount = number * (Decimal(1024) ** _BINARY[suffix])
        if amount == amount.to_integral_value():
            for name, power in sorted(_BINARY.items(), key=lambda kv: -kv[1]):
                scaled = amount / (Decimal(1024) ** power)
                if scaled == scaled.to_integral_value() and scaled != 0:
                    return f"{_digits(scaled)}{name}"
            return _digits(amount)
        number = amount
    elif suffix not in _DECIMAL:
        return None
    else:
        number = number.scaleb(_DECIMAL[suffix])
    if number == 0:
        return "0"
    for exponent in range(18, -10, -3):
        scaled = number.scaleb(-exponent)
        if scaled == scaled.to_integral_value():
            return f"{_digits(scaled)}{_DECIMAL_SUFFIX[exponent]}"
    return None


def _digits(whole: Decimal) -> str:
    """A whole number's digits; str(int(...)) refuses past 4,300 digits."""
    return format(whole.to_integral_value(), "f")


def marshal(value: Any, t: GoType) -> tuple[str, bool]:
    """The bytes Go would write, and whether some key had to be encoded without a type."""
    encoder = Encoder()
    text = encoder.encode(value, t)
    return text, encoder.approximate
