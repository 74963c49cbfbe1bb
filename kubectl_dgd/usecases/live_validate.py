"""``validate --live``: check files against the live objects (update rules) and the cluster's CRD;
``--server-dry-run`` also submits each graph with ``dryRun=All`` so the real admission answers."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.report import ValidationReport
from kubectl_dgd.core.validate.crd import CrdSchemas, schemas_from_crd
from kubectl_dgd.errors import ApiError, NotFoundError, UsageError
from kubectl_dgd.model.kinds import CRD_MISSING, is_dgd
from kubectl_dgd.usecases.ports import GraphCluster
from kubectl_dgd.usecases.validate import readable_files, unpack, validate_documents


def cluster_schemas(cluster: GraphCluster, fallback: CrdSchemas) -> tuple[CrdSchemas, str | None]:
    """The installed CRD's schemas; ``fallback`` (with a note why) when the CRD object cannot be
    read but the API serves DGDs; NotFoundError when the CRD is not installed at all."""
    crd = cluster.get_crd()
    schemas = schemas_from_crd(crd) if crd is not None else None
    if schemas:
        return schemas, None
    if not cluster.crd_installed():
        raise NotFoundError(CRD_MISSING)
    return fallback, "cannot read the installed CRD object; checking against the bundled schema"


def _live(cluster: GraphCluster, obj: dict[str, Any], namespace: str) -> dict[str, Any] | None:
    meta = obj.get("metadata") or {}
    try:
        return cluster.get_graph(str(meta.get("name")), str(meta.get("namespace") or namespace))
    except NotFoundError:
        return None


def validate_live(
    paths: list[str],
    cluster: GraphCluster,
    profile: Profile,
    fallback: CrdSchemas,
    server_dry_run: bool = False,
    explicit_namespace: str | None = None,
) -> tuple[ValidationReport, str | None]:
    """The report, and a note when the bundled schema stood in for the cluster's CRD."""
    schemas, note = cluster_schemas(cluster, fallback)
    report = ValidationReport()
    for docs in readable_files(paths, report):
        for doc in docs:
            graphs = [obj for obj, _, _ in unpack(doc) if is_dgd(obj)]
            refuse_other_namespace(graphs, explicit_namespace)
            live = _live(cluster, graphs[0], cluster.namespace) if len(graphs) == 1 else None
            before = len(report.items)
            validate_documents([doc], schemas, profile, old=live, report=report)
            if server_dry_run and len(graphs) == 1 and len(report.items) > before:
                _dry_run(cluster, graphs[0], live, report)
    return report, note


def _dry_run(
    cluster: GraphCluster,
    obj: dict[str, Any],
    live: dict[str, Any] | None,
    report: ValidationReport,
) -> None:
    item = report.items[-1]
    body = copy.deepcopy(obj)
    meta = body.setdefault("metadata", {})
    namespace = str(meta.get("namespace") or cluster.namespace)
    meta["namespace"] = namespace
    if live is not None:
        meta["resourceVersion"] = (live.get("metadata") or {}).get("resourceVersion")
    body.pop("status", None)
    was_valid = item.valid
    try:
        cluster.dry_run_apply(body, namespace, exists=live is not None)
    except ApiError as err:
        item.findings.append(
            Finding("error", "webhook", "", f"server dry-run: {err}", "server-dry-run", item.line)
        )
    hooks = cluster.dgd_admission_webhooks()
    if not hooks:
        item.findings.append(
            Finding(
                "info",
                "webhook",
                "",
                _NO_WEBHOOK if hooks == [] else _UNKNOWN_WEBHOOK,
                "server-dry-run-no-webhook",
                item.line,
            )
        )
    if was_valid and not item.valid:
        report.summary.valid -= 1
        report.summary.invalid += 1


_NO_WEBHOOK = (
    "server dry-run: no admission webhook answered: none is registered for "
    "DynamoGraphDeployments on this cluster, so the server checked only the CRD's schema and "
    "CEL rules (the operator's webhook rules are the offline findings above)"
)
_UNKNOWN_WEBHOOK = (
    "server dry-run: cannot tell whether an admission webhook answered (the webhook "
    "configurations cannot be listed); without one the server checks only the CRD's schema "
    "and CEL rules"
)


def refuse_other_namespace(graphs: list[dict[str, Any]], flag: str | None) -> None:
    """As kubectl diff/apply: an explicit -n must agree with a namespace the file sets."""
    for graph in graphs:
        meta = graph.get("metadata") or {}
        theirs = meta.get("namespace")
        if flag and theirs and theirs != flag:
            raise UsageError(
                f'the namespace of {meta.get("name")!r} in the file ("{theirs}") does not match '
                f'the namespace "{flag}": pass -n {theirs} or remove it from the file'
            )
