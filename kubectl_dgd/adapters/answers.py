"""What the API server answered, checked before anyone uses it: the object asked for, a list
that is a list, metadata of the types Kubernetes gives it, strings that are text, and the
``Warning`` headers it sent.

kubectl decodes every answer into Go types, so a GET answered with a ConfigMap, a LIST answered
with one object, or ``annotations: 7`` fail there with one line. Plain dicts would take them
silently (and ``restart`` would then PATCH what it never read), or fail much later with a
traceback; here each becomes one ``ApiError`` line (exit 4) naming what was wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kubectl_dgd.errors import ApiError

# ObjectMeta fields and the JSON type Kubernetes gives each (others are not read here).
_META_STRINGS = ("name", "namespace", "uid", "resourceVersion", "generateName")
_META_TIMES = ("creationTimestamp", "deletionTimestamp")
_META_MAPS = ("labels", "annotations")
# A \u escape of a UTF-16 surrogate: only these can make a lone surrogate in a decoded string.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
# One warning of a Warning header (RFC 7234 5.5): code, agent, quoted text, optional date.
_WARNING = re.compile(r'\s*(\d{3})\s+(\S+)\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?\s*(?:,|$)')


def wrong(what: str, description: str) -> ApiError:
    return ApiError(f"the API server answered {what} with {description}", None, "WrongAnswer")


def _shown(obj: dict[str, Any]) -> str:
    """``ConfigMap "x" (v1)`` or, for ``{}``, a description of its absence."""
    kind, version = obj.get("kind"), obj.get("apiVersion")
    meta = obj.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    if not kind and not version and not name:
        return "an object without apiVersion, kind or name"
    return f'{kind or "an object without kind"} "{name or ""}" ({version or "no apiVersion"})'


def check_object(
    obj: dict[str, Any], what: str, api_version: str, kind: str, name: str, namespace: str
) -> dict[str, Any]:
    """``obj`` if it is the object asked for (``what``: ``get dgd "x" in namespace "y"``)."""
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    same = (
        obj.get("apiVersion") == api_version
        and obj.get("kind") == kind
        and (not name or meta.get("name") == name)
        and meta.get("namespace", namespace) == namespace
    )
    if not same:
        raise wrong(what, f"{_shown(obj)}, not the object asked for")
    check_metadata(obj, what)
    return obj


def check_list(page: dict[str, Any], what: str) -> list[dict[str, Any]]:
    """The items of one page of a LIST; every item an object with well-typed metadata."""
    kind = page.get("kind")
    items = page.get("items")
    if "items" not in page or not (kind is None or str(kind).endswith("List")):
        raise wrong(what, f"{_shown(page)}, not a list")
    if items is None:
        return []
    if not isinstance(items, list):
        raise wrong(what, "a list whose items are not a JSON array")
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("metadata"), dict):
            raise wrong(what, "a list item that is not an object with metadata")
        check_metadata(item, what)
    return items


def check_metadata(obj: dict[str, Any], what: str) -> None:
    """The ObjectMeta fields that are read, of the JSON types Kubernetes decodes them into."""
    meta = obj.get("metadata")
    if meta is None:
        return
    if not isinstance(meta, dict):
        raise wrong(what, "an object whose metadata is not an object")
    for key in (*_META_STRINGS, *_META_TIMES):
        value = meta.get(key)
        if value is not None and not isinstance(value, str):
            raise wrong(what, f"an object whose metadata.{key} is not a string")
    generation = meta.get("generation")
    if generation is not None and (isinstance(generation, bool) or not isinstance(generation, int)):
        raise wrong(what, "an object whose metadata.generation is not an integer")
    for key in _META_MAPS:
        value = meta.get(key)
        if value is not None and not (
            isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
        ):
            raise wrong(what, f"an object whose metadata.{key} is not a map of strings")
    refs = meta.get("ownerReferences")
    if refs is not None and not (
        isinstance(refs, list) and all(isinstance(ref, dict) for ref in refs)
    ):
        raise wrong(what, "an object whose metadata.ownerReferences is not a list of objects")


def text_only(data: Any, raw: bytes) -> Any:
    """``data`` (decoded from ``raw``) with every lone UTF-16 surrogate replaced by U+FFFD, as
    Go's JSON decoder does; a string holding one cannot be written to a UTF-8 terminal. Only a
    ``\\uD800``-``\\uDFFF`` escape in ``raw`` can make one, so other answers are not walked."""
    if not _SURROGATE_ESCAPE.search(raw):
        return data
    return _replace_surrogates(data)


def _replace_surrogates(data: Any) -> Any:
    if isinstance(data, str):
        return data.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(data, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_replace_surrogates(v) for v in data]
    return data


def warning_texts(values: Iterable[str]) -> list[str]:
    """The texts of ``Warning`` header values, as client-go reads them: code 299 only (what
    kube-apiserver sends for deprecations and admission warnings), the quoted text unescaped."""
    texts: list[str] = []
    for value in values:
        position = 0
        while position < len(value):
            match = _WARNING.match(value, position)
            if match is None:
                break
            if match.group(1) == "299":
                texts.append(re.sub(r"\\(.)", r"\1", match.group(3)))
            position = match.end()
    return texts
