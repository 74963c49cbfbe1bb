"""Whether the scheduler may put a pod on a node at all, before resources: its nodeSelector,
its required node affinity and its tolerations of the node's NoSchedule and NoExecute taints
(the NodeAffinity and TaintToleration filters). Used to count only the GPUs a Pending pod could
get (why) or a change's new pods could (the peak check): a free node its selector excludes is
no help."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_BLOCKING = ("NoSchedule", "NoExecute")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _expression_holds(expression: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    key, operator = str(expression.get("key") or ""), expression.get("operator")
    values = [str(v) for v in _list(expression.get("values"))]
    present = key in labels
    if operator == "In":
        return present and labels[key] in values
    if operator == "NotIn":
        return not present or labels[key] not in values
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    if operator in ("Gt", "Lt") and present and len(values) == 1:
        try:
            have, bound = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return have > bound if operator == "Gt" else have < bound
    return False


def _affinity_holds(spec: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    required = _mapping(
        _mapping(_mapping(spec.get("affinity")).get("nodeAffinity")).get(
            "requiredDuringSchedulingIgnoredDuringExecution"
        )
    )
    terms = [_mapping(t) for t in _list(required.get("nodeSelectorTerms"))]
    if not terms:
        return True
    # terms are ORed, a term's expressions ANDed; matchFields (metadata.name) are not judged
    return any(
        all(_expression_holds(_mapping(e), labels) for e in _list(t.get("matchExpressions")))
        for t in terms
    )


def _tolerated(taint: Mapping[str, Any], tolerations: list[Mapping[str, Any]]) -> bool:
    for toleration in tolerations:
        effect = toleration.get("effect")
        if effect and effect != taint.get("effect"):
            continue
        key = toleration.get("key")
        if toleration.get("operator") == "Exists":
            if not key or key == taint.get("key"):
                return True
        elif key == taint.get("key") and str(toleration.get("value") or "") == str(
            taint.get("value") or ""
        ):
            return True
    return False


def labels_allow(spec: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """Whether a pod of ``spec`` passes the node's labels: its nodeSelector and required node
    affinity. Alone, for a pod template not yet admitted: admission may still add tolerations
    (the ExtendedResourceToleration plugin does for nvidia.com/gpu taints), never selectors."""
    selector = _mapping(spec.get("nodeSelector"))
    if any(labels.get(str(k)) != str(v) for k, v in selector.items()):
        return False
    return _affinity_holds(spec, labels)


def may_run_on(
    spec: Mapping[str, Any], labels: Mapping[str, str], taints: list[Mapping[str, Any]]
) -> bool:
    """Whether a pod of ``spec`` (as admitted) passes the node's label and taint filters."""
    if not labels_allow(spec, labels):
        return False
    tolerations = [_mapping(t) for t in _list(spec.get("tolerations"))]
    return all(
        _tolerated(taint, tolerations) for taint in taints if taint.get("effect") in _BLOCKING
    )
