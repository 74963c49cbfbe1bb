"""validate: files in, a report of findings per document out."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from typing import Any

from kubectl_dgd.adapters.manifest_tree import expand_paths
from kubectl_dgd.adapters.yamlload import Document, iter_file, load_file
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.paths import line_for
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.report import ItemReport, ValidationReport
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.errors import GraphNotInFileError, InputError, NoGraphError
from kubectl_dgd.model.kinds import is_alpha, is_dgd, is_dgd_kind, unserved_message


def unpack(doc: Document) -> list[tuple[dict[str, Any], str, int]]:
    """Objects of a document with their path prefix and line; ``List`` kinds are unpacked."""
    data = doc.data
    if (
        isinstance(data, dict)
        and str(data.get("kind", "")).endswith("List")
        and isinstance(data.get("items"), list)
    ):
        return [
            (item, f"items[{i}]", doc.lines.get(f"items[{i}]", doc.line))
            for i, item in enumerate(data["items"])
            if isinstance(item, dict)
        ]
    if isinstance(data, dict):
        return [(data, "", doc.line)]
    return []


def _relative_lines(doc: Document, prefix: str) -> dict[str, int]:
    if not prefix:
        return doc.lines
    cut = len(prefix) + 1
    return {k[cut:]: v for k, v in doc.lines.items() if k.startswith(prefix + ".")} | {
        "": doc.lines.get(prefix, doc.line)
    }


SAVED_OBJECT_NOTE = (
    "a saved object (it has metadata.uid): checked with the update rules against itself; "
    "give --old to check a change"
)


def validate_documents(
    docs: Iterable[Document],
    schemas: CrdSchemas,
    profile: Profile,
    old: dict[str, Any] | None = None,
    report: ValidationReport | None = None,
) -> ValidationReport:
    # Here, not at the top: render and status -f use this module's unpacking only, and the
    # pipeline (CEL environment, webhook rules) is a large share of their start-up.
    from kubectl_dgd.core.validate.pipeline import validate_object

    report = report or ValidationReport()
    for doc in docs:
        if doc.data is None:
            continue  # empty document: nothing to count
        report.summary.documents += 1
        for obj, prefix, line in unpack(doc):
            if not is_dgd_kind(obj):
                report.summary.skipped += 1
                continue
            report.summary.graphs += 1
            meta = _metadata(obj)
            matching = _matching_old(old, meta)
            saved = matching is None and bool(meta.get("uid"))
            # A saved live object (kubectl get -o yaml) already exists: check it as an update of
            # itself, so create-only rules (e.g. spec.restart) do not fire on what was admitted.
            findings = validate_object(obj, schemas, profile, old=obj if saved else matching)
            if saved:
                findings.append(
                    Finding("info", "webhook", "metadata.uid", SAVED_OBJECT_NOTE, "saved-object")
                )
            elif old is not None and matching is None:
                old_name = _metadata(old).get("name")
                message = f"--old is graph {old_name!r}, not this one: validated as a create"
                findings.append(
                    Finding("warning", "webhook", "metadata.name", message, "old-not-matched")
                )
            if profile.strict:
                findings = [_strict(f) for f in findings]
            lines = _relative_lines(doc, prefix)
            item = ItemReport(
                source=doc.source,
                line=line,
                name=str(meta.get("name", "")),
                namespace=str(meta.get("namespace", "") or ""),
                findings=[f.at_line(line_for(lines, f.where or f.path, line)) for f in findings],
            )
            report.items.append(item)
            if item.valid:
                report.summary.valid += 1
            else:
                report.summary.invalid += 1
        if not unpack(doc):
            report.summary.skipped += 1
    return report


def is_restart_on_create(finding: Finding) -> bool:
    """The CRD's create-only rule on spec.restart, and the lint warning saying the same. A file
    cannot tell whether its graph exists, and a restart requested in Git (restart -f) is the
    GitOps way: the Argo CD plugin warns and ``render`` renders (the graph exists by then)."""
    if finding.layer == "lint" and finding.code == "restart-on-create":
        return True
    return finding.layer == "cel" and finding.path == "spec" and "spec.restart" in finding.message


def _metadata(obj: dict[str, Any]) -> dict[str, Any]:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _strict(finding: Finding) -> Finding:
    if finding.code == "unknown-field" and finding.severity == "warning":
        from dataclasses import replace

        return replace(finding, severity="error")
    return finding


def _matching_old(old: dict[str, Any] | None, meta: dict[str, Any]) -> dict[str, Any] | None:
    if old is None:
        return None
    old_meta = _metadata(old)
    if old_meta.get("name") and meta.get("name") and old_meta.get("name") != meta.get("name"):
        return None
    return old


def as_beta(obj: dict[str, Any]) -> dict[str, Any]:
    """The v1beta1 form of a DGD (v1alpha1 goes through the operator's conversion)."""
    if not is_alpha(obj):
        return obj
    from kubectl_dgd.core.convert import alpha_to_beta  # loaded for alpha objects only

    return alpha_to_beta(obj).obj


def validate_paths(
    paths: list[str], schemas: CrdSchemas, profile: Profile, old: dict[str, Any] | None = None
) -> ValidationReport:
    """Validate every manifest below ``paths``; unreadable inputs are reported, the rest still checked.

    Documents stream through the layers one at a time and are dropped once checked, so memory
    holds one document and the findings, whatever the size of a stream. A file that turns out
    to be unreadable part-way is reported as unreadable, none of its documents counted, as if
    it had been read whole first: its findings are kept apart until its end is reached.
    """
    report = ValidationReport()
    for path in expand_paths(paths):
        reading = _Reading(path)
        part = validate_documents(reading, schemas, profile, old=old, report=ValidationReport())
        if reading.error is not None:
            report.input_errors.append(reading.error)
            report.summary.unreadable += 1
            continue
        report.files_read += 1
        report.items.extend(part.items)
        for counter in fields(part.summary):
            name = counter.name
            setattr(
                report.summary, name, getattr(report.summary, name) + getattr(part.summary, name)
            )
    return report


class _Reading:
    """A file's documents as they are read; a reader's InputError ends them and is kept
    (an InputError of the layers is not the reader's, and is not caught here)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.error: InputError | None = None

    def __iter__(self) -> Iterator[Document]:
        try:
            yield from iter_file(self.path)
        except InputError as err:
            self.error = err


def readable_files(paths: list[str], report: ValidationReport) -> Iterator[list[Document]]:
    """The documents of every file below ``paths``; one that cannot be read is counted in the
    report, and the rest are still read."""
    for path in expand_paths(paths):
        try:
            docs = load_file(path)
        except InputError as err:
            report.input_errors.append(err)
            report.summary.unreadable += 1
            continue
        report.files_read += 1
        yield docs


def refuse_no_graph(paths: list[str], report: ValidationReport) -> None:
    """NoGraphError when every input was read and none held a graph (an unreadable one is
    reported as such instead: what could not be read is never "nothing found")."""
    if report.summary.graphs == 0 and not report.input_errors:
        raise NoGraphError(inputs_named(paths), report.files_read, report.summary.skipped)


def inputs_named(paths: list[str]) -> str:
    """The inputs as a message names them (``-`` is standard input)."""
    return ", ".join("standard input" if p == "-" else p for p in paths)


def refuse_unserved(obj: dict[str, Any], path: str, line: int | None = None) -> None:
    """A DGD of a version the CRD does not serve is an error (kubectl refuses it), not a skip."""
    if is_dgd_kind(obj) and not is_dgd(obj):
        raise InputError(unserved_message(obj.get("apiVersion")), path, line)


def graphs_in_file(path: str, name: str | None = None) -> list[dict[str, Any]]:
    """The DGDs of a file (``List`` kinds unpacked), optionally only the one named; v1alpha1
    graphs come back converted to v1beta1, as the operator stores and reads them."""
    graphs: list[dict[str, Any]] = []
    others = 0
    for doc in load_file(path):
        for obj, _, line in unpack(doc):
            refuse_unserved(obj, path, line)
            if is_dgd(obj):
                graphs.append(as_beta(obj))
            elif obj is not None:
                others += 1
    if name is not None:
        graphs = [g for g in graphs if _metadata(g).get("name") == name]
        if not graphs:
            raise GraphNotInFileError(f"no DynamoGraphDeployment named {name!r}", path)
    if not graphs:
        raise NoGraphError(path, 1, others)
    return graphs


def load_old(path: str) -> dict[str, Any]:
    """The live object given with --old: exactly one DGD."""
    graphs = graphs_in_file(path)
    if len(graphs) != 1:
        raise InputError(f"expected exactly one DynamoGraphDeployment, found {len(graphs)}", path)
    return graphs[0]
