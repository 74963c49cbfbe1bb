"""``upgrade-check``: what upgrading the operator to a release does to each graph (core/upgrade.py).

The graphs are those of files (-f, each compared with its live object when a cluster answers),
one live graph (NAME) or every graph the account can list (-A). The release running now is
found as ``validate --live`` finds it (usecases/operator_version.py), unless given.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.core.upgrade import UpgradeReport, check_graph
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.errors import DgdError, NoGraphError, NotFoundError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.graph_lookup import named_graph
from kubectl_dgd.usecases.ports import GraphCluster
from kubectl_dgd.usecases.validate import inputs_named, readable_files, unpack


def _as_stored(live: dict[str, Any]) -> dict[str, Any]:
    """The live object as its next write would carry it: no status."""
    obj = copy.deepcopy(live)
    obj.pop("status", None)
    return obj


def file_graphs(paths: list[str]) -> list[tuple[dict[str, Any], str]]:
    report = ValidationReport()
    found: list[tuple[dict[str, Any], str]] = []
    others = 0
    for docs in readable_files(paths, report):
        for doc in docs:
            if doc.data is None:
                continue
            for obj, _, line in unpack(doc):
                if is_dgd(obj):
                    found.append((obj, f"{doc.source}:{line}"))
                else:
                    others += 1
    if report.input_errors:
        raise report.input_errors[0]
    if not found:
        raise NoGraphError(inputs_named(paths), report.files_read, others)
    return found


def upgrade_check(
    current: tuple[str, str],
    target: str,
    schemas: dict[str, CrdSchemas],
    *,
    paths: list[str] | None = None,
    cluster: GraphCluster | None = None,
    name: str | None = None,
    all_namespaces: bool = False,
) -> tuple[UpgradeReport, list[str]]:
    """The report and its warnings (live objects that could not be read for a file's graph)."""
    from kubectl_dgd.core.validate.pipeline import validate_object

    report = UpgradeReport(current=current[0], target=target, how=current[1])
    warnings: list[str] = []
    pairs: list[tuple[dict[str, Any], dict[str, Any] | None, str]] = []
    if paths:
        for obj, source in file_graphs(paths):
            live: dict[str, Any] | None = (
                obj  # without a cluster: the file's graph as its own old object
            )
            if cluster is not None:
                meta = obj.get("metadata") or {}
                namespace = str(meta.get("namespace") or cluster.namespace)
                try:
                    live = cluster.get_graph(str(meta.get("name")), namespace)
                except NotFoundError:
                    live = None  # not created yet: its next write is a create
                except DgdError as err:
                    warnings.append(
                        f"{meta.get('name')}: live object not read ({err}): checked as a create"
                    )
            pairs.append((obj, live, source))
    elif cluster is not None and name is not None:
        stored = named_graph(cluster, name, cluster.namespace)
        pairs.append((_as_stored(stored), stored, "live"))
    elif cluster is not None:
        listed = cluster.list_graphs(None if all_namespaces else cluster.namespace)
        for stored in listed.get("items") or []:
            pairs.append((_as_stored(stored), stored, "live"))
    for obj, live, source in pairs:
        report.graphs.append(
            check_graph(
                obj,
                live,
                source,
                (current[0], schemas[current[0]]),
                (target, schemas[target]),
                validate_object,
            )
        )
    return report, warnings
