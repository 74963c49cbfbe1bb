"""restart -f: request a restart by editing the manifest in Git (the GitOps way).

Only ``spec.restart`` of the chosen graph changes; every other byte of the file stays. The
file is read and replaced under an advisory lock (two ``restart -f`` on one file take turns),
and compared just before the replace, so an edit someone else made meanwhile is never
overwritten. The edit is read back with the reader ``validate`` uses before anything is
written. ``-`` and ``/dev/stdin`` mean: read standard input, print the edited stream.

Work is linear in the file: only the chosen document's text is composed for the splice and
read back; the rest of the file is copied around it unchanged. Files up to 256 KiB are first
read whole as validate reads them (a malformed document anywhere refuses the edit); in larger
ones, documents whose kind is plainly another word than DynamoGraphDeployment are not parsed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.adapters.files import atomic_write, locked_for_edit, set_spec_field
from kubectl_dgd.adapters.yamlload import (
    MAX_FILE_BYTES,
    Document,
    decode,
    encoding_of,
    is_stream_path,
    load_text,
    parse_manifest,
    read_bytes,
)
from kubectl_dgd.adapters.yamlscan import document_pieces, plainly_another_kind
from kubectl_dgd.core.restart import RestartPlan, RestartRefused, RestartRequest, plan_restart
from kubectl_dgd.core.views import RestartSummary
from kubectl_dgd.errors import (
    DgdError,
    GraphNotInFileError,
    InputError,
    NoGraphError,
    RefusedError,
)
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.validate import as_beta, refuse_unserved

_BOM = b"\xef\xbb\xbf"
# Files up to this size are read whole by validate's reader (a malformed document anywhere
# refuses the edit); larger ones only where a graph may be, to stay linear and fast.
WHOLE_READ_BYTES = 256 * 1024


@dataclass(frozen=True)
class RestartFileResult:
    """A restart written into a file."""

    path: str
    name: str
    namespace: str
    plan: RestartPlan
    diff: str
    written: bool
    # False when the document is a saved live object (it has a uid): it already exists.
    may_be_new: bool
    # Standard input was read: ``output`` is the edited stream, for standard output.
    streamed: bool = False
    output: str = ""

    def summary(self) -> RestartSummary:
        plan = self.plan
        graph = f"{self.namespace}/{self.name}" if self.namespace else self.name
        if self.streamed:
            outcome = "edited stream written to standard output"
        elif self.written:
            outcome = f"updated {self.path}"
        else:
            outcome = f"dry run: nothing written to {self.path}"
        return RestartSummary(
            graph,
            plan.old_id,
            plan.new_id,
            plan.describe(),
            outcome,
            diff="" if self.written or self.streamed else self.diff,
        )


@dataclass(frozen=True)
class _Edit:
    """A file's text before and after an edit."""

    text: str
    new_text: str
    graph: dict[str, Any]
    plan: RestartPlan
    output: str
    encoding: str  # the file's: a UTF-16 file is written back in UTF-16


def restart_file(
    path: str,
    request: RestartRequest,
    now: datetime,
    *,
    name: str | None = None,
    dry_run: bool = False,
) -> RestartFileResult:
    if is_stream_path(path):
        edit = _edit(read_bytes(path), path, request, now, name)
        return _result(path, edit, written=False, streamed=True)
    with locked_for_edit(path, MAX_FILE_BYTES) as snapshot:
        edit = _edit(snapshot.raw, path, request, now, name)
        if not dry_run:
            atomic_write(path, edit.output, expected=snapshot, encoding=edit.encoding)
    return _result(path, edit, written=not dry_run, streamed=False)


def _edit(raw: bytes, path: str, request: RestartRequest, now: datetime, name: str | None) -> _Edit:
    text = decode(raw, path)
    candidates = _graph_candidates(text, path)
    documents = (
        [document for _, document in candidates]
        if candidates is not None
        else parse_manifest(text, path)
    )
    document = _choose_graph(documents, name, path)
    graph: dict[str, Any] = document.data
    try:
        plan = plan_restart(as_beta(graph), request, now)
    except RestartRefused as err:
        raise RefusedError(f"refused, the file is unchanged: {err}") from err
    base = next((o for o, d in candidates or [] if d is document), 0)
    new_text = _splice(text, base, document, plan.restart, path)
    if new_text is None and candidates is not None:
        documents = parse_manifest(text, path)
        document = _choose_graph(documents, name, path)
        new_text = _splice(text, 0, document, plan.restart, path)
    if new_text is None:  # the document could not be cut out alone: edit and check it all
        new_text = set_spec_field(text, document.position, "restart", plan.restart, path)
        _verify(documents, parse_manifest(new_text, path), document.position, plan.restart, path)
    encoding = encoding_of(raw)
    prefix = "\ufeff" if raw.startswith(_BOM) or encoding != "utf-8" else ""
    return _Edit(text, new_text, graph, plan, prefix + new_text, encoding)


def _graph_candidates(text: str, path: str) -> list[tuple[int, Document]] | None:
    """For a large file, the documents that may be graphs, each parsed alone, with the offset
    of its text; the others are not parsed (they are copied byte for byte). None: parse the
    file whole, as validate reads it (always done below WHOLE_READ_BYTES: it costs little)."""
    if len(text) <= WHOLE_READ_BYTES:
        return None
    pieces = None if path.endswith(".json") else document_pieces(text)
    if pieces is None:
        return None
    found: list[tuple[int, Document]] = []
    for start, end in pieces:
        piece = text[start:end]
        if plainly_another_kind(piece, "DynamoGraphDeployment"):
            continue
        try:
            documents = load_text(piece, path)
        except InputError:
            return None  # parsed whole, the error names the file's own line
        if len(documents) > 1:
            return None
        found.extend((start, document) for document in documents)
    return found


def _result(path: str, edit: _Edit, *, written: bool, streamed: bool) -> RestartFileResult:
    meta = edit.graph.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return RestartFileResult(
        path=path,
        name=str(meta.get("name", "")),
        namespace=str(meta.get("namespace") or ""),
        plan=edit.plan,
        diff=unified_diff(edit.text, edit.new_text, path),
        written=written,
        may_be_new=not meta.get("uid"),
        streamed=streamed,
        output=edit.output if streamed else "",
    )


def _splice(
    text: str, base: int, document: Document, restart: dict[str, Any], path: str
) -> str | None:
    """The file with only the chosen document's text edited, or None when that text does not
    read back alone as the same document (directives, unusual line breaks, JSON files).
    ``document`` was read from ``text[base:]``."""
    span = _document_span(text, base, document)
    if span is None or path.endswith(".json"):
        return None
    start, end = span
    piece = text[start:end]
    try:
        alone = load_text(piece, path)
    except InputError:
        return None
    if len(alone) != 1 or alone[0].data != document.data:
        return None
    new_piece = set_spec_field(piece, 0, "restart", restart, path)
    try:
        after = load_text(new_piece, path)
    except InputError:
        after = []
    _verify(alone, after, 0, restart, path)
    return text[:start] + new_piece + text[end:]


def _document_span(text: str, base: int, document: Document) -> tuple[int, int] | None:
    """Character offsets of the lines holding the document's root node."""
    if document.end is None:
        return None
    end_line, end_column = document.end
    start = _line_offset(text, base, document.line - 1)
    end = _line_offset(text, base, end_line if end_column == 0 else end_line + 1)
    if end <= start:
        return None
    return start, end


def _line_offset(text: str, base: int, line: int) -> int:
    """Offset of the start of 0-based ``line`` counted from ``base`` (len(text) past the end)."""
    offset = base
    for _ in range(line):
        newline = text.find("\n", offset)
        if newline < 0:
            return len(text)
        offset = newline + 1
    return offset


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def unified_diff(old: str, new: str, path: str) -> str:
    """A unified diff with three lines of context, computed on the changed region only:
    difflib over a whole 16 MiB file is slow, and only one region ever changes here."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    low = max(0, head - 3)
    a_window = a[low : len(a) - max(0, tail - 3)]
    b_window = b[low : len(b) - max(0, tail - 3)]
    lines = []
    for raw_line in difflib.unified_diff(a_window, b_window, path, path):
        match = _HUNK.match(raw_line) if low else None
        line = raw_line
        if match:  # the window's line numbers, shifted back to the file's
            old_start, old_len, new_start, new_len = match.groups()
            line = (
                f"@@ -{int(old_start) + low}{old_len or ''} "
                f"+{int(new_start) + low}{new_len or ''} @@" + raw_line[match.end() :]
            )
        lines.append(line if line.endswith("\n") else line + "\n")
    return "".join(lines)


def _choose_graph(documents: list[Document], name: str | None, path: str) -> Document:
    for document in documents:
        refuse_unserved(document.data, path, document.line)
    graphs = [d for d in documents if is_dgd(d.data)]
    if not graphs:
        listed = any(
            isinstance(d.data, dict) and any(is_dgd(i) for i in d.data.get("items") or [])
            for d in documents
            if isinstance(d.data, dict) and isinstance(d.data.get("items"), list)
        )
        if listed:
            raise InputError(
                "no DynamoGraphDeployment in the file (graphs inside a List are not edited; "
                "save the graph as its own document)",
                path,
            )
        raise NoGraphError(path, 1, sum(isinstance(d.data, dict) for d in documents))
    names = [_name(d) for d in graphs]
    if name is not None:
        chosen = [d for d in graphs if _name(d) == name]
        if not chosen:
            raise GraphNotInFileError(
                f"no DynamoGraphDeployment named {name!r} (found: {', '.join(names)})", path
            )
        if len(chosen) > 1:
            raise InputError(f"{len(chosen)} DynamoGraphDeployments are named {name!r}", path)
        return chosen[0]
    if len(graphs) > 1:
        raise InputError(
            f"{len(graphs)} DynamoGraphDeployments ({', '.join(names)}); choose one with --name",
            path,
        )
    return graphs[0]


def _name(document: Document) -> str:
    meta = document.data.get("metadata")
    return str(meta.get("name", "")) if isinstance(meta, dict) else ""


def _verify(
    before: list[Document],
    after: list[Document],
    position: int,
    restart: dict[str, Any],
    path: str,
) -> None:
    """Read back by validate's own reader, everything but the chosen graph's ``spec.restart``
    must be the same, and ``spec.restart`` exactly what was planned."""
    ok = len(before) == len(after)
    if ok:
        old = [_without_restart(d.data) for d in before]
        new = [_without_restart(d.data) for d in after]
        spec = after[position].data.get("spec") if isinstance(after[position].data, dict) else None
        got = spec.get("restart") if isinstance(spec, dict) else None
        ok = got == restart and old == new
    if not ok:
        raise DgdError(
            f"{path}: the edit could not be made without touching other fields; the file is unchanged"
        )


def _without_restart(data: Any) -> Any:
    if isinstance(data, dict) and isinstance(data.get("spec"), dict):
        spec = {k: v for k, v in data["spec"].items() if k != "restart"}
        return {**data, "spec": spec}
    return data
