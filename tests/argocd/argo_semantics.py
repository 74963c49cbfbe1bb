"""Argo CD's diff normalisation and RespectIgnoreDifferences sync, as its controller does them.

What is emulated, read from Argo CD's source (util/argo/normalizers/diff_normalizer.go and
controller/sync.go):

- Each ``jsonPointers`` entry is one JSON-patch ``remove``; each ``jqPathExpressions`` entry is
  compiled on its own as ``del(<expression>)`` and run with **gojq** on the whole object. A patch
  that fails (a pointer to nothing, a jq error) is skipped, and the next one runs on the result
  of the previous one. The Application's rules come first, then the argocd-cm override's.
- ``RespectIgnoreDifferences=true``: the live object minus ``status`` is compared with the
  normalised live object; that difference (a merge patch) is applied onto the normalised target,
  and the result is what the sync applies. A CRD has no patch merge keys, so a list is replaced
  whole: a patch that touches anything inside ``spec.components[]`` carries the live list.
  Since 3.3.13, 3.4.5 and 3.5.0 (argo-cd#27136) the sync then puts back every field of the
  target that the normalizer left untouched, field by field down the maps; a list is one field,
  so ``spec.components`` comes back from Git only if no rule changed anything in Git's list.

gojq itself runs (Debian's ``gojq`` package): not jq, whose ``del`` on an explicit ``null``
differs from gojq before 0.12.19, the version Argo CD v3.1 to v3.4 ship.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from typing import Any

GOJQ = shutil.which("gojq")

Rule = dict[str, Any]  # one ignoreDifferences entry: group, kind, name?, jsonPointers, ...


def _matches(rule: Rule, obj: dict[str, Any]) -> bool:
    group = str(obj.get("apiVersion", "")).rpartition("/")[0]
    meta = obj.get("metadata") or {}
    return (
        rule.get("group", "") in ("*", group)
        and rule.get("kind", "") in ("*", obj.get("kind"))
        and rule.get("name", "") in ("", meta.get("name"))
        and rule.get("namespace", "") in ("", meta.get("namespace"))
    )


def _remove_pointer(obj: Any, pointer: str) -> Any:
    """RFC 6902 ``remove``; raises KeyError/IndexError when the path does not exist."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    result = copy.deepcopy(obj)
    node = result
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if isinstance(node, list):
        del node[int(last)]
    else:
        del node[last]
    return result


def _gojq_delete(obj: Any, expression: str) -> Any:
    assert GOJQ is not None, "gojq is not installed (Debian package gojq)"
    proc = subprocess.run(
        [GOJQ, "-c", f"del({expression})"],
        input=json.dumps(obj),
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    if proc.returncode != 0:
        raise ValueError(proc.stderr.strip())
    lines = proc.stdout.splitlines()
    if len(lines) != 1:
        raise ValueError("JQ patch returned multiple objects")
    return json.loads(lines[0])


def normalize(obj: dict[str, Any], rules: list[Rule]) -> dict[str, Any]:
    """The object as Argo CD's ignore normaliser leaves it, for diffing."""
    result: Any = obj
    for rule in (r for r in rules if _matches(r, obj)):
        for pointer in rule.get("jsonPointers") or []:
            try:
                result = _remove_pointer(result, pointer)
            except (KeyError, IndexError, ValueError, TypeError):
                continue
        for expression in rule.get("jqPathExpressions") or []:
            try:
                result = _gojq_delete(result, expression)
            except ValueError:
                continue
    assert isinstance(result, dict)
    return result


def create_merge_patch(original: Any, modified: Any) -> Any:
    """RFC 7386: what turns ``original`` into ``modified``; lists are replaced whole."""
    if not (isinstance(original, dict) and isinstance(modified, dict)):
        return copy.deepcopy(modified)
    patch: dict[str, Any] = {}
    for key in original.keys() - modified.keys():
        patch[key] = None
    for key, value in modified.items():
        if key not in original:
            patch[key] = copy.deepcopy(value)
        elif original[key] != value:
            patch[key] = create_merge_patch(original[key], value)
    return patch


def apply_merge_patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply_merge_patch(result.get(key), value)
    return result


def out_of_sync(target: dict[str, Any], live: dict[str, Any], rules: list[Rule]) -> bool:
    """Argo CD's verdict: the normalised target differs from the normalised live object."""
    live = {k: v for k, v in live.items() if k != "status"}
    return normalize(target, rules) != normalize(live, rules)


def _restore_untouched(
    patched: dict[str, Any],
    original: dict[str, Any],
    normalized: dict[str, Any],
    normalized_live: dict[str, Any],
) -> None:
    """The target's fields the normalizer did not change win over the live patch's (maps are
    walked into; anything else, a list included, is one field). Live-only keys the normalizer
    kept are dropped again."""
    for key, value in original.items():
        got, norm = patched.get(key), normalized.get(key)
        if isinstance(got, dict) and isinstance(value, dict) and isinstance(norm, dict):
            live_value = normalized_live.get(key)
            _restore_untouched(got, value, norm, live_value if isinstance(live_value, dict) else {})
            continue
        if key in normalized and norm == value and (key not in patched or got != value):
            patched[key] = copy.deepcopy(value)
    for key in [k for k in patched if k not in original and k in normalized_live]:
        del patched[key]


def applied_by_sync(
    target: dict[str, Any],
    live: dict[str, Any],
    rules: list[Rule],
    sync_options: list[str],
    *,
    restores_untouched: bool = True,
) -> dict[str, Any]:
    """What a sync sends to the API server for ``target`` given the ``live`` object, by a
    release with argo-cd#27136 (``restores_untouched``) or one before it."""
    if "RespectIgnoreDifferences=true" not in sync_options:
        return copy.deepcopy(target)
    live = {k: v for k, v in live.items() if k != "status"}
    normalized_live = normalize(live, rules)
    normalized_target = normalize(target, rules)
    live_patch = create_merge_patch(normalized_live, live)
    patched = apply_merge_patch(normalized_target, live_patch)
    assert isinstance(patched, dict)
    if restores_untouched:
        _restore_untouched(patched, target, normalized_target, normalized_live)
    return patched
