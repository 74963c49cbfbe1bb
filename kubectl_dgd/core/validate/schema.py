"""Layer "schema": the CRD's structural schema, checked as the API server checks it.

Driven by the openAPIV3Schema as data. Messages follow kube-apiserver: kube-openapi's validation
errors turned into ``field.Error`` text (``Required value``, ``Unsupported value: ...``,
``Invalid value: <v>: <path> in body should match '<re>'``, ``Too many: 26: must have at most 25
items``), list-type map/set uniqueness as ``Duplicate value``. Fields the schema does not declare
are pruned by a real API server; we report them (warning, or error with ``strict``).

Each schema node is compiled once into a ``_Node`` (cached by ``id()``; the bundled schema is
loaded once and shared), so a graph costs a walk over its own values only.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Protocol

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.lazyre import LazyPattern
from kubectl_dgd.core.paths import child, index, schema_form
from kubectl_dgd.core.validate.derived import WALKS
from kubectl_dgd.core.validate.fielderr import go_float, go_value

# field.Error types that stop the API server from running CEL rules ("hasBlockingErr").
BLOCKING_CODES = frozenset(
    {
        "schema-type",
        "schema-required",
        "schema-enum",
        "schema-max-length",
        "schema-max-items",
        "schema-max-properties",
    }
)
CEL_NOT_CHECKED = (
    "some validation rules were not checked because the object was invalid; "
    "correct the existing errors to complete validation"
)

_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_ROOT_IMPLICIT = frozenset({"apiVersion", "kind", "metadata"})
_RFC3339 = LazyPattern(r"\A\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z")
_MISSING = object()
_STR: dict[str, Any] = {"type": "string"}
_STR_MAP: dict[str, Any] = {"type": "object", "additionalProperties": _STR}
# ObjectMeta is not in the CRD schema; the server decodes it into typed Go fields, so its basic
# types are checked here (other fields are kept without a warning).
OBJECT_META: dict[str, Any] = {
    "type": "object",
    "x-kubernetes-preserve-unknown-fields": True,
    "properties": {
        **{k: _STR for k in ("name", "namespace", "generateName", "uid", "resourceVersion")},
        "labels": _STR_MAP,
        "annotations": _STR_MAP,
        "generation": {"type": "integer", "format": "int64"},
        "finalizers": {"type": "array", "items": _STR},
        "ownerReferences": {
            "type": "array",
            "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        },
    },
}


_CONTROL = {c: f"\\x{c:02x}" for c in range(32)} | {10: "\\n", 13: "\\r", 9: "\\t", 127: "\\x7f"}


def one_line(text: str) -> str:
    """Control characters (from keys or values) escaped, so that a finding stays on one line."""
    return text.translate(_CONTROL) if not text.isprintable() else text


def _type_name(value: Any) -> str:
    """The JSON type name kube-openapi reports for a value (zero values report as "null")."""
    if (
        value is None
        or value == ""
        or (value is False)
        or (type(value) in (int, float) and value == 0)
    ):
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# The patterns of the bundled CRDs (a test keeps this list equal to theirs): known to run fast
# on Python's backtracking engine. Any other pattern (a CRD from --crd or the cluster) is
# compiled with RE2, the API server's own engine, whose time is linear in the input.
BUNDLED_PATTERNS = frozenset(
    {
        r"^(([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$",
        r"^(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})$",
        r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
        r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
        r"^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$",
        r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
        r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
        r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$",
    }
)


class _Matcher(Protocol):
    def search(self, text: str) -> object | None: ...


def _go_regex(pattern: str) -> _Matcher | None:
    """A CRD ``pattern`` compiled with Go's semantics: RE2 for any pattern we do not ship
    (linear time, whatever the pattern: ``^(a+)+$`` cannot stall a run), Python's engine with
    ``$`` made end-of-text for the bundled ones (``re2`` costs a few ms to import)."""
    if pattern not in BUNDLED_PATTERNS:
        try:
            import re2
        except ImportError:  # pragma: no cover - google-re2 is a dependency
            pass
        else:
            try:
                compiled: _Matcher = re2.compile(pattern)
            except Exception:  # re2.error; an invalid pattern checks nothing, as before
                return None
            return compiled
    return _python_regex(pattern)


def _python_regex(pattern: str) -> re.Pattern[str] | None:
    """Compile an RE2 pattern for Python: ``$`` outside classes means end of text, as in Go."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        elif ch == "$" and not in_class:
            ch = r"\Z"
        out.append(ch)
        i += 1
    try:
        return re.compile("".join(out))
    except (re.error, RecursionError, OverflowError):
        return None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


class _Node:
    """What validation needs from one schema node, computed once."""

    __slots__ = (
        "additional",
        "any_of_first",
        "default",
        "embedded",
        "enum",
        "enum_set",
        "excl_max",
        "excl_min",
        "format",
        "int_or_string",
        "items",
        "list_type",
        "map_keys",
        "max_items",
        "max_len",
        "max_props",
        "maximum",
        "min_items",
        "min_len",
        "min_props",
        "minimum",
        "nullable",
        "pattern",
        "pattern_text",
        "preserve",
        "properties",
        "required",
        "type",
    )

    def __init__(self, s: dict[str, Any]) -> None:
        t = s.get("type")
        self.type: str | None = t if isinstance(t, str) else None
        self.nullable = s.get("nullable") is True
        self.int_or_string = s.get("x-kubernetes-int-or-string") is True
        # The type of anyOf's first branch: the server also reports that branch's error when
        # no branch holds (int-or-string: anyOf [integer, string])
        any_of = s.get("anyOf")
        first = any_of[0] if isinstance(any_of, list) and any_of else None
        self.any_of_first: str | None = (
            first.get("type")
            if isinstance(first, dict) and isinstance(first.get("type"), str)
            else None
        )
        self.preserve = s.get("x-kubernetes-preserve-unknown-fields") is True
        self.embedded = s.get("x-kubernetes-embedded-resource") is True
        enum = s.get("enum")
        self.enum: list[Any] | None = enum if isinstance(enum, list) else None
        self.enum_set: frozenset[str] | None = (
            frozenset(v for v in self.enum if isinstance(v, str)) if self.enum is not None else None
        )
        p = s.get("pattern")
        self.pattern_text: str | None = p if isinstance(p, str) else None
        self.pattern = _go_regex(p) if isinstance(p, str) else None
        self.min_len = _int(s.get("minLength"))
        self.max_len = _int(s.get("maxLength"))
        self.minimum = _num(s.get("minimum"))
        self.maximum = _num(s.get("maximum"))
        self.excl_min = s.get("exclusiveMinimum") is True
        self.excl_max = s.get("exclusiveMaximum") is True
        self.min_items = _int(s.get("minItems"))
        self.max_items = _int(s.get("maxItems"))
        self.min_props = _int(s.get("minProperties"))
        self.max_props = _int(s.get("maxProperties"))
        req = s.get("required")
        self.required: list[str] = (
            [r for r in req if isinstance(r, str)] if isinstance(req, list) else []
        )
        props = s.get("properties")
        self.properties: dict[str, dict[str, Any]] = (
            {k: v for k, v in props.items() if isinstance(v, dict)}
            if isinstance(props, dict)
            else {}
        )
        add = s.get("additionalProperties")
        self.additional: dict[str, Any] | bool | None = (
            add if isinstance(add, (dict, bool)) else None
        )
        items = s.get("items")
        self.items: dict[str, Any] | None = items if isinstance(items, dict) else None
        lt = s.get("x-kubernetes-list-type")
        self.list_type: str | None = lt if isinstance(lt, str) else None
        keys = s.get("x-kubernetes-list-map-keys")
        self.map_keys: list[str] = (
            [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []
        )
        fmt = s.get("format")
        self.format: str | None = fmt if isinstance(fmt, str) else None
        self.default: Any = s.get("default", _MISSING)


_CACHE: dict[int, tuple[dict[str, Any], _Node]] = {}


def _node(schema: dict[str, Any]) -> _Node:
    hit = _CACHE.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    node = _Node(schema)
    _CACHE[id(schema)] = (schema, node)  # keeps the dict alive, so its id stays unique
    return node


_KEYWORD_BELOW: dict[tuple[int, str], tuple[dict[str, Any], bool]] = {}


# The keywords by which the defaults and CEL walks skip subtrees: one visit of a subtree finds
# both (the two walks used to visit the pod template schema's thousands of nodes once each).
_WALK_KEYWORDS = frozenset({"default", "x-kubernetes-validations"})
_BELOW: dict[int, tuple[dict[str, Any], frozenset[str]]] = {}


def _walk_keywords_below(schema: dict[str, Any], depth: int) -> frozenset[str]:
    hit = _BELOW.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    seeded = WALKS.pop(id(schema), None)
    if seeded is not None and seeded[0] is schema:
        found = _seeded_keywords(schema, seeded[1])
        if found is not None:
            _BELOW[id(schema)] = (schema, found)
            return found
    found = _walk(schema, depth)
    _BELOW[id(schema)] = (schema, found)
    return found


def _walk(schema: dict[str, Any], depth: int) -> frozenset[str]:
    found = _WALK_KEYWORDS.intersection(schema)
    if depth < 200:
        props = schema.get("properties")
        children = list(props.values()) if isinstance(props, dict) else []
        children += [schema.get("items"), schema.get("additionalProperties")]
        for sub in children:
            if len(found) == len(_WALK_KEYWORDS):
                break
            if isinstance(sub, dict):
                found = found | _walk_keywords_below(sub, depth + 1)
    return found


# The walk's answers as derived.py ships them: bit 1 ``default``, bit 2 a rule.
_BITS: tuple[frozenset[str], ...] = (
    frozenset(),
    frozenset({"default"}),
    frozenset({"x-kubernetes-validations"}),
    _WALK_KEYWORDS,
)


def _seeded_keywords(schema: dict[str, Any], entry: Any) -> frozenset[str] | None:
    """A node's answer from its shipped entry (format in derived.py); its children's answers
    are registered for when a walk asks about them. None for an entry of another shape (then
    the node is walked)."""
    if type(entry) is int and 0 <= entry < len(_BITS):
        bits, props_entries, items_entry, additional_entry = entry, {}, None, None
    elif type(entry) is list and len(entry) == 4 and entry[0] in (1, 2, 3):
        bits, props_entries, items_entry, additional_entry = entry
        if not isinstance(props_entries, dict):
            return None
    else:
        return None
    if bits:  # below a node without bits no walk goes, so its children need no answers
        props = schema.get("properties")
        for key, sub in props.items() if isinstance(props, dict) else ():
            _seed_child(sub, props_entries.get(key))
        _seed_child(schema.get("items"), items_entry)
        _seed_child(schema.get("additionalProperties"), additional_entry)
    return _BITS[bits]


def _seed_child(sub: Any, entry: Any) -> None:
    if not isinstance(sub, dict):
        return
    if entry is None:  # not listed: nothing below it
        _BELOW[id(sub)] = (sub, _BITS[0])
    else:
        WALKS[id(sub)] = (sub, entry)


def walk_index(schema: dict[str, Any], depth: int = 0) -> Any:
    """The entry derived.py ships for ``schema``, computed by the walk itself (for the script
    that writes the derived files, and the test that regenerates them)."""
    found = _walk(schema, depth)
    bits = ("default" in found) | ("x-kubernetes-validations" in found) << 1
    if not bits:
        return 0
    props = schema.get("properties")
    children = {
        k: sub_entry
        for k, v in (props.items() if isinstance(props, dict) else ())
        if isinstance(v, dict) and (sub_entry := walk_index(v, depth + 1)) != 0
    }
    items, additional = schema.get("items"), schema.get("additionalProperties")
    items_entry = walk_index(items, depth + 1) if isinstance(items, dict) else 0
    additional_entry = walk_index(additional, depth + 1) if isinstance(additional, dict) else 0
    if not children and not items_entry and not additional_entry:
        return bits
    return [bits, children, items_entry or None, additional_entry or None]


def keyword_below(schema: dict[str, Any], keyword: str, depth: int = 0) -> bool:
    """Whether ``schema`` or any node below it carries ``keyword`` (e.g. ``default``, or
    ``x-kubernetes-validations``): lets a walk skip whole subtrees. Cached by node identity."""
    if keyword in _WALK_KEYWORDS:
        return keyword in _walk_keywords_below(schema, depth)
    hit = _KEYWORD_BELOW.get((id(schema), keyword))
    if hit is not None and hit[0] is schema:
        return hit[1]
    props = schema.get("properties")
    children = list(props.values()) if isinstance(props, dict) else []
    children += [schema.get("items"), schema.get("additionalProperties")]
    found = keyword in schema or (
        depth < 200
        and any(
            isinstance(sub, dict) and keyword_below(sub, keyword, depth + 1) for sub in children
        )
    )
    _KEYWORD_BELOW[(id(schema), keyword)] = (schema, found)
    return found


def _defaults_below(schema: dict[str, Any]) -> bool:
    return keyword_below(schema, "default")


class _Checker:
    __slots__ = ("late", "out", "unknown_severity")

    def __init__(self, strict: bool) -> None:
        self.out: list[Finding] = []
        # The list-type checks (uniqueness, map items that are not objects): the API server
        # runs them after the whole schema walk, so their errors follow every other one.
        self.late: list[Finding] = []
        self.unknown_severity: Any = "error" if strict else "warning"

    def err(self, path: str, message: str, code: str) -> None:
        self.out.append(_schema_finding(path, message, code))

    def late_err(self, path: str, message: str, code: str) -> None:
        self.late.append(_schema_finding(path, message, code))

    def value(self, v: Any, schema: dict[str, Any], path: str, root: bool = False) -> None:
        n = _node(schema)
        if v is None:
            if n.nullable or (n.type is None and not n.int_or_string):
                return
            want = "integer,string" if n.int_or_string else n.type
            self.err(
                path,
                f'Invalid value: "null": {path} in body must be of type {want}: "null"',
                "schema-type",
            )
            return
        if not self.type_ok(v, n, path):
            if n.enum is not None:
                # The server reports the enum too, with the value as pruned: a mapping where a
                # scalar belongs keeps none of its (undeclared) fields.
                self.enum({} if isinstance(v, dict) else v, n, path)
            return
        if isinstance(v, dict):
            self.obj(v, n, path, root)
        elif isinstance(v, list):
            self.array(v, n, path)
        elif isinstance(v, str):
            self.string(v, n, path)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            self.number(v, n, path)
        if n.enum is not None:
            self.enum(v, n, path)

    def type_ok(self, v: Any, n: _Node, path: str) -> bool:
        if n.int_or_string:
            ok = isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))
            ok = ok or (isinstance(v, float) and v.is_integer())
            want = "integer,string"
        else:
            t = n.type
            if t is None:
                return True
            if t == "object":
                ok = isinstance(v, dict)
            elif t == "array":
                ok = isinstance(v, list)
            elif t == "string":
                ok = isinstance(v, str)
            elif t == "boolean":
                ok = isinstance(v, bool)
            elif t == "integer":
                ok = (isinstance(v, int) and not isinstance(v, bool)) or (
                    isinstance(v, float) and v.is_integer()
                )
                if ok and isinstance(v, int) and not _INT64[0] <= v <= _INT64[1]:
                    # JSON decoding turns an integer beyond int64 into a float64.
                    self.err(
                        path,
                        f'Invalid value: "number": {path} in body must be of type '
                        f'integer: "number"',
                        "schema-type",
                    )
                    return False
            elif t == "number":
                ok = isinstance(v, (int, float)) and not isinstance(v, bool)
            else:
                return True
            want = t
        if ok:
            return True
        if isinstance(v, dict) and n.type == "integer" and n.format in ("int32", "int64"):
            # Pruned to {} (none of its fields is declared), the mapping fails the format check
            # first on the real server (kube-apiserver 1.37), which words it this way.
            self.err(
                path,
                f'Invalid value: "": {path} in body must be of type {n.format}: ""',
                "schema-type",
            )
            return False
        actual = _type_name(v)
        self.err(
            path,
            f'Invalid value: "{actual}": {path} in body must be of type {want}: "{actual}"',
            "schema-type",
        )
        if n.int_or_string and n.any_of_first is not None:
            # then anyOf's own verdict (no field of its own) and its first branch's error
            self.err(
                "",
                f'Invalid value: "": "{schema_form(path)}" must validate at least one schema (anyOf)',
                "schema-any-of",
            )
            self.err(
                path,
                f'Invalid value: "{actual}": {path} in body must be of type '
                f'{n.any_of_first}: "{actual}"',
                "schema-type",
            )
        return False

    def enum(self, v: Any, n: _Node, path: str) -> None:
        assert n.enum is not None
        if isinstance(v, str) and n.enum_set is not None:
            hit = v in n.enum_set  # a string equals only a string
        else:
            hit = any(e == v and isinstance(e, bool) == isinstance(v, bool) for e in n.enum)
        if hit:
            return
        supported = ", ".join(go_value(e if isinstance(e, str) else json.dumps(e)) for e in n.enum)
        self.err(
            path, f"Unsupported value: {go_value(v)}: supported values: {supported}", "schema-enum"
        )

    def string(self, v: str, n: _Node, path: str) -> None:
        self.string_shape(v, n, path)
        if n.format == "date-time" and not _RFC3339.match(v):
            self.err(
                path,
                f"Invalid value: {go_value(v)}: {path} in body must be of type date-time: "
                f"{go_value(v)}",
                "schema-format",
            )

    def string_shape(self, v: str, n: _Node, path: str) -> None:
        # kube-openapi's string validator stops at the first failure: maxLength, minLength, pattern.
        if n.max_len is not None and len(v) > n.max_len:
            unit = "byte" if n.max_len == 1 else "bytes"
            self.err(
                path, f"Too long: may not be more than {n.max_len} {unit}", "schema-max-length"
            )
            return
        if n.min_len is not None and len(v) < n.min_len:
            self.err(
                path,
                f"Invalid value: {go_value(v)}: {path} in body should be at least "
                f"{n.min_len} chars long",
                "schema-min-length",
            )
            return
        if n.pattern is not None and n.pattern.search(v) is None:
            self.err(
                path,
                f"Invalid value: {go_value(v)}: {path} in body should match '{n.pattern_text}'",
                "schema-pattern",
            )

    def number(self, v: float, n: _Node, path: str) -> None:
        if n.format in ("int32", "int64") and isinstance(v, int):
            low, high = _INT32 if n.format == "int32" else _INT64
            if not low <= v <= high:
                self.err(
                    path,
                    f'Invalid value: "": Checked value must be of type integer with format '
                    f'{n.format}: strconv.ParseInt: parsing "{v}": value out of range',
                    "schema-format",
                )
                return
        if n.maximum is not None:
            over = v >= n.maximum if n.excl_max else v > n.maximum
            if over:
                rel = "less than" if n.excl_max else "less than or equal to"
                self.err(
                    path,
                    f"Invalid value: {go_value(v)}: {path} in body should be {rel} "
                    f"{_bound(n.maximum, v)}",
                    "schema-maximum",
                )
        if n.minimum is not None:
            under = v <= n.minimum if n.excl_min else v < n.minimum
            if under:
                rel = "greater than" if n.excl_min else "greater than or equal to"
                self.err(
                    path,
                    f"Invalid value: {go_value(v)}: {path} in body should be {rel} "
                    f"{_bound(n.minimum, v)}",
                    "schema-minimum",
                )

    def array(self, v: list[Any], n: _Node, path: str) -> None:
        size = len(v)
        if n.max_items is not None and size > n.max_items:
            noun = "item" if n.max_items == 1 else "items"
            self.err(
                path,
                f"Too many: {size}: must have at most {n.max_items} {noun}",
                "schema-max-items",
            )
        if n.min_items is not None and size < n.min_items:
            self.err(
                path,
                f"Invalid value: {size}: {path} in body should have at least {n.min_items} items",
                "schema-min-items",
            )
        items = n.items
        if items is not None:
            for i, item in enumerate(v):
                self.value(item, items, index(path, i))
        if n.list_type == "set":
            self.unique_set(v, path)
        elif n.list_type == "map" and n.map_keys:
            stray = next(
                (i for i, x in enumerate(v) if x is not None and not isinstance(x, dict)), None
            )
            if stray is not None:  # the first item that is not an object, and nothing more
                self.late_err(
                    index(path, stray),
                    f"Invalid value: {go_value(v[stray])}: must be an object for an array of "
                    "list-type map",
                    "schema-list-map-item",
                )
            else:
                self.unique_map(v, n, path)

    def unique_set(self, v: list[Any], path: str) -> None:
        seen: set[str] = set()
        repeated: set[str] = set()
        for i, item in enumerate(v):
            if isinstance(item, (dict, list)):
                continue  # sets hold scalars; the type error is reported elsewhere
            key = go_value(item) + type(item).__name__
            if key in seen and key not in repeated:  # the second occurrence only, as the server
                repeated.add(key)
                self.late_err(
                    index(path, i), f"Duplicate value: {go_value(item)}", "schema-duplicate"
                )
            seen.add(key)

    def unique_map(self, v: list[Any], n: _Node, path: str) -> None:
        item_props = _node(n.items).properties if n.items is not None else {}
        seen: set[str] = set()
        repeated: set[str] = set()
        for i, item in enumerate(v):
            if not isinstance(item, dict):
                continue
            key: dict[str, Any] = {}
            for k in n.map_keys:
                if k in item and item[k] is not None:
                    key[k] = item[k]
                else:
                    sub = item_props.get(k)
                    default = _node(sub).default if sub is not None else _MISSING
                    if default is not _MISSING:
                        key[k] = default
            if not key:
                continue
            # The key as the API server prints it since Kubernetes 1.34: JSON, keys sorted (until
            # 1.33 Go's %#v, ``map[string]interface {}{"name":"a"}``, as the operator's tables show).
            text = json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            if text in seen and text not in repeated:  # the second occurrence only
                repeated.add(text)
                self.late_err(index(path, i), f"Duplicate value: {text}", "schema-duplicate")
            seen.add(text)

    def obj(self, v: dict[str, Any], n: _Node, path: str, root: bool) -> None:
        props = n.properties
        for req in n.required:
            if v.get(req) is None and not (
                req in v and req in props and _node(props[req]).nullable
            ):
                self.err(child(path, req), "Required value", "schema-required")
        if n.max_props is not None and len(v) > n.max_props:
            noun = "item" if n.max_props == 1 else "items"
            self.err(
                path,
                f"Too many: {len(v)}: must have at most {n.max_props} {noun}",
                "schema-max-properties",
            )
        if n.min_props is not None and len(v) < n.min_props:
            self.err(
                path,
                f"Invalid value: {len(v)}: {path} in body should have at least "
                f"{n.min_props} properties",
                "schema-min-properties",
            )
        additional = n.additional
        for raw_key, item in v.items():
            key = raw_key if isinstance(raw_key, str) else str(raw_key)
            sub = props.get(key)
            if sub is not None:
                if item is None and not _node(sub).nullable:
                    continue  # the server prunes a non-nullable null before validating
                if (root or n.embedded) and key == "metadata":
                    sub = OBJECT_META
                self.value(item, sub, child(path, key))
            elif isinstance(additional, dict):
                self.value(item, additional, child(path, key))
            elif additional is True or n.preserve:
                continue
            elif (root or n.embedded) and key in _ROOT_IMPLICIT:
                continue  # kept by the server beside the declared fields
            else:
                where = child(path, key)
                self.out.append(
                    Finding(
                        self.unknown_severity,
                        "schema",
                        where,
                        one_line(f'unknown field "{where}"'),
                        "unknown-field",
                    )
                )


def _bound(bound: float, value: float) -> str:
    """A minimum/maximum as kube-openapi prints it: int64 for integer values, else Go's float."""
    if isinstance(value, int) and bound.is_integer():
        return str(int(bound))
    return go_float(bound)


def check(obj: dict[str, Any], schema: dict[str, Any], *, strict: bool = False) -> list[Finding]:
    """Findings of the structural schema for ``obj``; unknown fields are warnings (errors if strict)."""
    checker = _Checker(strict)
    if not isinstance(schema, dict):
        return []
    try:
        checker.value(obj, schema, "", root=True)
    except RecursionError:
        checker.err("", 'Invalid value: "object": nesting too deep to validate', "schema-depth")
    return checker.out + checker.late


def blocks_cel(findings: list[Finding]) -> bool:
    """Whether the API server would skip the CEL rules because of these schema errors."""
    return any(f.severity == "error" and f.code in BLOCKING_CODES for f in findings)


def apply_structural_defaults(obj: Any, schema: dict[str, Any]) -> None:
    """Apply the schema's ``default:`` values in place, as the API server does before validation.

    A default is set only where the parent object exists; a ``null`` that is not nullable is
    replaced by the default, or removed when there is none (the server prunes such nulls).
    Defaults are applied to list items and map values too. Never raises.
    """
    if not isinstance(schema, dict):
        return
    try:
        _default(obj, schema, root=True)
    except RecursionError:
        return


class _DefaultPlan:
    """What the defaults walk needs of one object schema, worked out once per node: visiting
    every property of a large schema (a pod spec has dozens) for each object was most of the
    walk's time, though an object names few of them."""

    __slots__ = ("additional", "additional_below", "below", "defaults", "non_nullable", "props")

    def __init__(self, schema: dict[str, Any], root: bool) -> None:
        props = schema.get("properties")
        self.props: dict[str, Any] = props if isinstance(props, dict) else {}
        subs = {
            key: sub
            for key, sub in self.props.items()
            if isinstance(sub, dict) and not (root and key == "metadata")
        }
        # In property order: the order in which missing defaults are added to an object.
        self.defaults = [(k, sub["default"]) for k, sub in subs.items() if "default" in sub]
        self.non_nullable = {k: sub for k, sub in subs.items() if sub.get("nullable") is not True}
        self.below = [(k, sub) for k, sub in subs.items() if _defaults_below(sub)]
        additional = schema.get("additionalProperties")
        self.additional: dict[str, Any] | None = None
        self.additional_below = False
        if isinstance(additional, dict):
            self.additional = additional
            self.additional_below = _defaults_below(additional)


_DEFAULT_PLANS: dict[tuple[int, bool], tuple[dict[str, Any], _DefaultPlan]] = {}


def _default_plan(schema: dict[str, Any], root: bool) -> _DefaultPlan:
    hit = _DEFAULT_PLANS.get((id(schema), root))
    if hit is not None and hit[0] is schema:
        return hit[1]
    plan = _DefaultPlan(schema, root)
    _DEFAULT_PLANS[(id(schema), root)] = (schema, plan)
    return plan


def _default(v: Any, schema: dict[str, Any], root: bool = False) -> None:
    if not _defaults_below(schema):
        return
    if isinstance(v, dict):
        plan = _default_plan(schema, root)
        props = plan.props
        # A null that is not nullable takes the default, or is removed (in place: the key keeps
        # its position); then missing properties with a default are added, in property order.
        nulls = [k for k, item in v.items() if item is None and k in plan.non_nullable]
        for key in nulls:
            sub = plan.non_nullable[key]
            if "default" in sub:
                v[key] = copy.deepcopy(sub["default"])
            else:
                del v[key]
        for key, default in plan.defaults:
            if key not in v:
                v[key] = copy.deepcopy(default)
        for key, sub in plan.below:
            if key in v:
                _default(v[key], sub)
        additional = plan.additional
        if additional is not None and additional.get("nullable") is not True:
            for key in [k for k, item in v.items() if item is None and k not in props]:
                if "default" not in additional:
                    del v[key]  # a null map value is pruned too (e.g. a v1alpha1 service: null)
        if additional is not None and plan.additional_below:
            for key, item in v.items():
                if key not in props:
                    _default(item, additional)
    elif isinstance(v, list):
        items = schema.get("items")
        if isinstance(items, dict) and _defaults_below(items):
            for item in v:
                _default(item, items)


def _schema_finding(path: str, message: str, code: str) -> Finding:
    """A schema error as the API server words it: kube-openapi joins a map key to its path
    with a dot whatever the key (``limits.nvidia.com/gpu``), where our paths bracket keys that
    are not identifiers; the line still comes from our form of the path (``where``)."""
    shown = schema_form(path)
    if shown == path:
        return Finding("error", "schema", path, one_line(message), code)
    return Finding(
        "error", "schema", shown, one_line(message.replace(path, shown)), code, where=path
    )
