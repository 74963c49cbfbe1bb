"""convert: rewrite the v1alpha1 graphs of a manifest as v1beta1, the operator's way.

Each v1alpha1 graph goes through the operator's conversion (core.convert). A graph is refused,
with the file unchanged, when the conversion cannot carry it (fields v1beta1 has no place for)
or when its v1beta1 form would not be judged as the original is (the v1beta1 CEL rules that a
v1alpha1 request never meets). Other documents stay byte for byte; comments of the converted
graphs are kept where the new structure has a place for them.

``--in-place`` edits as ``restart -f`` does: the file is read and replaced under its advisory
edit lock (the two take turns on one file), and compared just before the replace, so an edit
someone else made meanwhile is kept and reported instead of overwritten.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from kubectl_dgd.adapters.files import atomic_write, locked_for_edit
from kubectl_dgd.adapters.yamlload import (
    MAX_FILE_BYTES,
    Document,
    decode,
    parse_manifest,
    read_bytes,
)
from kubectl_dgd.adapters.yamlrewrite import SourceOf, replace_documents
from kubectl_dgd.core.convert import Conversion, alpha_to_beta, is_alpha
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.paths import line_for
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.validate.crd import CrdSchemas
from kubectl_dgd.core.validate.pipeline import validate_object
from kubectl_dgd.core.validate.webhook_alpha import line_path
from kubectl_dgd.core.wording import plural
from kubectl_dgd.errors import InputError, NoGraphError, RefusedError
from kubectl_dgd.model.kinds import is_dgd_kind
from kubectl_dgd.output.serialize import to_json
from kubectl_dgd.usecases.validate import inputs_named, refuse_unserved, unpack

_BOM = b"\xef\xbb\xbf"
# Findings only a v1alpha1 object can have: the version's deprecation and the ignored fields the
# conversion drops (reported to the user as notes instead).
ALPHA_ONLY_CODES = frozenset(
    {"deprecated-version", "dynamo-namespace-deprecated", "autoscaling-deprecated"}
)


@dataclass
class ConvertResult:
    """A converted stream, as text and as data."""

    text: str  # the converted stream in the file's own format (printed, or written in place)
    documents: list[Any] = field(default_factory=list)  # the converted stream as data
    converted: list[str] = field(default_factory=list)  # names of the graphs converted
    notes: list[str] = field(
        default_factory=list
    )  # fields dropped because the operator ignores them
    written: bool = False


def convert_file(
    path: str,
    schemas: CrdSchemas,
    profile: Profile,
    *,
    in_place: bool = False,
) -> ConvertResult:
    if not in_place:
        return _convert(read_bytes(path), path, schemas, profile)
    with locked_for_edit(path, MAX_FILE_BYTES) as snapshot:
        result = _convert(snapshot.raw, path, schemas, profile)
        if result.converted:
            prefix = "\ufeff" if snapshot.raw.startswith(_BOM) else ""
            atomic_write(path, prefix + result.text, expected=snapshot)
            result.written = True
    return result


def _convert(raw: bytes, path: str, schemas: CrdSchemas, profile: Profile) -> ConvertResult:
    text = decode(raw, path)
    documents = parse_manifest(text, path)
    conversions: dict[int, Conversion] = {}
    result = ConvertResult(text="")
    refused: list[tuple[str, list[str]]] = []  # each refused graph and its blockers
    graphs = others = 0
    for document in documents:
        _refuse_listed(document, path)
        refuse_unserved(document.data, path, document.line)
        objects = unpack(document)
        graphs += sum(1 for obj, _, _ in objects if is_dgd_kind(obj))
        others += sum(1 for obj, _, _ in objects if not is_dgd_kind(obj))
        if not is_alpha(document.data) or document.data.get("kind") != "DynamoGraphDeployment":
            continue
        conversion = alpha_to_beta(document.data)
        name = _name(document.data)
        blockers = [_lossy_line(reason, document, path) for reason in conversion.lossy]
        if not blockers:  # a graph that cannot be carried over is not judged again
            blockers = [
                f"{path}:{line_for(document.lines, where, document.line)}: {finding.path or 'spec'}: "
                f"as v1beta1 it would be judged differently: {_described(finding)}"
                for finding, where in verdict_differences(
                    document.data, conversion, schemas, profile
                )
            ]
        if blockers:
            refused.append((f"{path}:{document.line}: {name}", blockers))
            continue
        conversions[document.position] = conversion
        result.converted.append(name)
        result.notes.extend(f"{name}: {note}" for note in conversion.dropped)
    if not graphs:  # nothing to convert because the file holds no graph at all: say so
        raise NoGraphError(inputs_named([path]), 1, others)
    if refused:
        raise NotConverted(path, refused)
    new_data = [
        conversions[d.position].obj if d.position in conversions else d.data
        for d in documents
        if d.data is not None
    ]
    result.documents = new_data
    if path.endswith(".json"):  # a JSON file stays JSON
        result.text = to_json(as_one_document(new_data))
    elif conversions:
        replacements: dict[int, tuple[dict[str, Any], SourceOf]] = {
            i: (c.obj, c.alpha_path) for i, c in conversions.items()
        }
        result.text = replace_documents(text, replacements, path)
    else:
        result.text = text
    return result


class NotConverted(RefusedError):
    """Graphs convert refuses, each with every blocker as ``FILE:LINE: PATH: REASON``."""

    def __init__(self, path: str, refused: list[tuple[str, list[str]]]) -> None:
        self.blockers = [line for _, lines in refused for line in lines]
        count = plural(len(self.blockers), "blocker")
        where = refused[0][0] if len(refused) == 1 else f"{path}: {len(refused)} graphs"
        super().__init__(f"{where}: not converted, the file is unchanged: {count} above")


def _lossy_line(reason: str, document: Document, path: str) -> str:
    """A field the conversion cannot carry, at the line of that field ("PATH: why")."""
    field_path = reason.partition(": ")[0]
    return f"{path}:{line_for(document.lines, line_path(field_path), document.line)}: {reason}"


def _described(finding: Finding) -> str:
    return f"{finding.message} ({finding.severity}, {finding.layer}/{finding.code})"


def verdict_differences(
    alpha: dict[str, Any], conversion: Conversion, schemas: CrdSchemas, profile: Profile
) -> list[tuple[Finding, str]]:
    """Every finding one form gets and the other does not (paths aside), in order, with the
    path of the v1alpha1 document to take its line from."""
    before = validate_object(alpha, schemas, profile)
    after = validate_object(conversion.obj, schemas, profile)
    extra = (Counter(_comparable(before)) - Counter(_comparable(after))) + (
        Counter(_comparable(after)) - Counter(_comparable(before))
    )
    found: list[tuple[Finding, str]] = []
    for finding, alpha_side in [(f, True) for f in before] + [(f, False) for f in after]:
        key = (finding.severity, finding.code, finding.message)
        if finding.code in ALPHA_ONLY_CODES or extra[key] <= 0:
            continue
        extra[key] -= 1
        where = finding.where or finding.path
        if not alpha_side:
            where = conversion.alpha_path(finding.path) or finding.path
        found.append((finding, line_path(where)))
    return sorted(found, key=lambda pair: (pair[0].path, pair[0].message))


def comparable_findings(findings: list[Finding]) -> list[tuple[str, str, str]]:
    """Findings as the operator's verdict compares them: severity, code and message, no path."""
    return sorted(_comparable(findings))


def _comparable(findings: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.severity, f.code, f.message) for f in findings if f.code not in ALPHA_ONLY_CODES]


def as_one_document(items: list[Any]) -> Any:
    """One document as it is; several as a v1 List (how kubectl prints several as JSON)."""
    if len(items) == 1:
        return items[0]
    return {"apiVersion": "v1", "kind": "List", "items": items}


def _name(obj: dict[str, Any]) -> str:
    meta = obj.get("metadata")
    return str(meta.get("name", "")) if isinstance(meta, dict) else ""


def _refuse_listed(document: Document, path: str) -> None:
    data = document.data
    items = data.get("items") if isinstance(data, dict) else None
    if isinstance(items, list) and any(is_alpha(item) for item in items):
        raise InputError(
            "v1alpha1 graphs inside a List are not converted; save each graph as its own document",
            path,
            document.line,
        )
