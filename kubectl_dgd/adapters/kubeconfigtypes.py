"""A kubeconfig's fields checked as kubectl's decoder checks them (client-go's
``tools/clientcmd/api/v1`` types, decoded from YAML through JSON).

kubectl refuses a file whose field holds the wrong JSON type (``insecure-skip-tls-verify:
"false"`` is a string, not a bool: "json: cannot unmarshal string into Go struct field
Cluster.clusters.cluster.insecure-skip-tls-verify of type bool"), whose ``[]byte`` field is not
base64, whose ``kind``/``apiVersion`` is not ``Config``/``v1`` when given, or which names two
entries of one list alike. Unknown fields are ignored and ``null`` is the zero value, as in Go:
``checked`` drops null fields, so what follows sees only values of the declared types (the
Python client would read the string ``"false"`` as true). Messages name the field and its line,
never its value: the file holds tokens and keys.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from kubectl_dgd.core.paths import child, index
from kubectl_dgd.errors import InputError

# Go types, by the name used in messages; a struct is a dict of field -> type, a list is
# ("list", item), a map is ("map", value).
STRING, BOOL, BYTES, RAW = "string", "boolean", "base64 string", "any"
_EXTENSIONS = ("list", {"name": STRING, "extension": RAW})
_CLUSTER = {
    "server": STRING,
    "tls-server-name": STRING,
    "insecure-skip-tls-verify": BOOL,
    "certificate-authority": STRING,
    "certificate-authority-data": BYTES,
    "proxy-url": STRING,
    "disable-compression": BOOL,
    "extensions": _EXTENSIONS,
}
_EXEC = {
    "command": STRING,
    "args": ("list", STRING),
    "env": ("list", {"name": STRING, "value": STRING}),
    "apiVersion": STRING,
    "installHint": STRING,
    "provideClusterInfo": BOOL,
    "interactiveMode": STRING,
}
_USER = {
    "client-certificate": STRING,
    "client-certificate-data": BYTES,
    "client-key": STRING,
    "client-key-data": BYTES,
    "token": STRING,
    "tokenFile": STRING,
    "as": STRING,
    "as-uid": STRING,
    "as-groups": ("list", STRING),
    "as-user-extra": ("map", ("list", STRING)),
    "username": STRING,
    "password": STRING,
    "auth-provider": {"name": STRING, "config": ("map", STRING)},
    "exec": _EXEC,
    "extensions": _EXTENSIONS,
}
_CONTEXT = {"cluster": STRING, "user": STRING, "namespace": STRING, "extensions": _EXTENSIONS}
# The named lists: section -> (the entry's body key, its type).
NAMED = {
    "clusters": ("cluster", _CLUSTER),
    "users": ("user", _USER),
    "contexts": ("context", _CONTEXT),
}
CONFIG = {
    "kind": STRING,
    "apiVersion": STRING,
    "preferences": {"colors": BOOL, "extensions": _EXTENSIONS},
    **{section: ("list", {"name": STRING, key: body}) for section, (key, body) in NAMED.items()},
    "current-context": STRING,
    "extensions": _EXTENSIONS,
}


def checked(data: Any, source: str, lines: dict[str, int]) -> dict[str, Any]:
    """The kubeconfig document ``data`` with null fields dropped, or InputError (one line,
    naming the field and its line) where kubectl's decoder refuses it."""
    if data is None:
        return {}
    config: dict[str, Any] = _Checker(source, lines).value(data, CONFIG, "")
    for field, wanted in (("kind", "Config"), ("apiVersion", "v1")):
        if config.get(field) not in (None, "", wanted):
            raise InputError(
                f"kubeconfig {field} must be {wanted} (kubectl reads no other)",
                source,
                lines.get(field),
            )
    for section in NAMED:
        seen: set[str] = set()
        for i, entry in enumerate(config.get(section) or []):
            name = str(entry.get("name") or "")
            if name in seen:
                raise InputError(
                    f"kubeconfig {section} has two entries named {json.dumps(name)} "
                    "(kubectl refuses the file)",
                    source,
                    lines.get(index(section, i)),
                )
            seen.add(name)
    return config


class _Checker:
    def __init__(self, source: str, lines: dict[str, int]) -> None:
        self.source, self.lines = source, lines

    def value(self, value: Any, kind: Any, path: str) -> Any:
        if isinstance(kind, dict):
            if not isinstance(value, dict):
                self.refuse(path, "an object", value)
            return {  # unknown fields are kept unchecked, null ones dropped (Go's zero value)
                key: self.value(item, kind[key], child(path, key)) if key in kind else item
                for key, item in value.items()
                if key not in kind or item is not None
            }
        if isinstance(kind, tuple):
            shape, item_kind = kind
            if shape == "list":
                if not isinstance(value, list):
                    self.refuse(path, "a list", value)
                return [
                    _zero(item_kind)
                    if item is None
                    else self.value(item, item_kind, index(path, i))
                    for i, item in enumerate(value)
                ]
            if not isinstance(value, dict):
                self.refuse(path, "an object", value)
            # A map's keys are the user's text: the message names the map, not the key.
            return {
                key: _zero(item_kind) if item is None else self.value(item, item_kind, path)
                for key, item in value.items()
            }
        if kind == RAW:
            return value
        if kind == BOOL:
            if not isinstance(value, bool):
                self.refuse(path, "a boolean (true or false, unquoted)", value)
            return value
        if not isinstance(value, str):
            self.refuse(path, "a string", value)
        if kind == BYTES:
            try:  # Go's base64.StdEncoding: padded, line breaks ignored
                base64.b64decode(value.replace("\r", "").replace("\n", ""), validate=True)
            except (binascii.Error, ValueError):
                raise InputError(
                    f"kubeconfig field {path} is not valid base64", self.source, self.line(path)
                ) from None
        return value

    def refuse(self, path: str, wanted: str, value: Any) -> None:
        raise InputError(
            f"kubeconfig field {path or 'document'} must be {wanted}, not {_json_type(value)} "
            "(kubectl refuses the file)",
            self.source,
            self.line(path),
        )

    def line(self, path: str) -> int | None:
        return self.lines.get(path)


def _zero(kind: Any) -> Any:
    """Go's zero value of a type (what null decodes to inside a list or a map)."""
    if isinstance(kind, dict):
        return {}
    if isinstance(kind, tuple):
        return [] if kind[0] == "list" else {}
    return False if kind == BOOL else None if kind == RAW else ""


def _json_type(value: Any) -> str:
    """The JSON type of a value, as Go's decoder names it ("cannot unmarshal number ...")."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"
