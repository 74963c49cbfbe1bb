"""Which operator release a cluster runs, for ``validate --live`` (and, with the exact release
and the reason when unknown, ``version``: usecases/version.py).

First the operator's image tag (the chart appVersion by default), else the newest
``nvidia.com/dynamo-operator-origin-version`` stamped on the graphs being checked or on the
namespace's graphs (a lower bound: the operator that created them), else the newest we know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kubectl_dgd.core.profile import (
    NEWEST_VERSION,
    ORIGIN_VERSION_ANNOTATION,
    nearest_supported,
    release_of,
    version_key,
)
from kubectl_dgd.core.runtime_version import image_tag
from kubectl_dgd.errors import DgdError
from kubectl_dgd.usecases.ports import GraphCluster

# What the operator Deployment's manager container runs (the platform chart's image).
OPERATOR_IMAGE = "kubernetes-operator"


def newest_origin(graphs: Iterable[dict[str, Any]]) -> str | None:
    """The newest ``nvidia.com/dynamo-operator-origin-version`` on the graphs, as written."""
    found = [
        text
        for graph in graphs
        if release_of(
            text := str(
                ((graph.get("metadata") or {}).get("annotations") or {}).get(
                    ORIGIN_VERSION_ANNOTATION, ""
                )
            ).strip()
        )
    ]
    return max(found, key=lambda text: version_key(str(release_of(text)))) if found else None


def _origin(graphs: Iterable[dict[str, Any]]) -> str | None:
    newest = newest_origin(graphs)
    return release_of(newest) if newest else None


def detect(cluster: GraphCluster, graphs: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    """``(supported version, how it was found)``; never raises for a cluster that hides things."""
    for image in cluster.operator_images():
        tag = image_tag(image)
        release = release_of(tag) if tag else None
        if release:
            return nearest_supported(release), f"the operator image {image}"
    release = _origin(graphs or [])
    if release is None:
        try:
            listed = cluster.list_graphs(cluster.namespace).get("items") or []
        except DgdError:
            listed = []
        release = _origin(listed)
    if release:
        return (
            nearest_supported(release),
            f"the {ORIGIN_VERSION_ANNOTATION} annotation {release} on the graphs",
        )
    return (
        NEWEST_VERSION,
        "not detected (no readable operator Deployment or origin-version annotation)",
    )


def describe(version: str, how: str) -> str:
    return f"checking against operator {version}: from {how}"
