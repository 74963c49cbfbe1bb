"""restart -f: request a restart by editing the manifest in Git (the GitOps way).

Only ``spec.restart`` of the chosen graph changes; every other byte of the file stays. The
edit is checked by parsing before and after, then written atomically (or shown as a diff).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubectl_dgd.adapters.files import atomic_write, plain_documents, set_spec_field
from kubectl_dgd.adapters.yamlload import Document, decode, parse_manifest, read_bytes
from kubectl_dgd.core.restart import RestartPlan, RestartRefused, RestartRequest, plan_restart
from kubectl_dgd.core.views import RestartSummary
from kubectl_dgd.errors import DgdError, InputError, RefusedError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.validate import as_beta, refuse_unserved

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class RestartFileResult:
    path: str
    name: str
    namespace: str
    plan: RestartPlan
    diff: str
    written: bool
    # False when the document is a saved live object (it has a uid): it already exists.
    may_be_new: bool

    def summary(self) -> RestartSummary:
        plan = self.plan
        graph = f"{self.namespace}/{self.name}" if self.namespace else self.name
        outcome = (
            f"updated {self.path}" if self.written else f"dry run: nothing written to {self.path}"
        )
        return RestartSummary(
            graph,
            plan.old_id,
            plan.new_id,
            plan.describe(),
            outcome,
            diff="" if self.written else self.diff,
        )


def restart_file(
    path: str,
    request: RestartRequest,
    now: datetime,
    *,
    name: str | None = None,
    dry_run: bool = False,
) -> RestartFileResult:
    raw = read_bytes(path)
    text = decode(raw, path)
    documents = parse_manifest(text, path)
    document = _choose_graph(documents, name, path)
    graph: dict[str, Any] = document.data
    try:
        plan = plan_restart(as_beta(graph), request, now)
    except RestartRefused as err:
        raise RefusedError(f"refused, the file is unchanged: {err}") from err
    new_text = set_spec_field(text, document.position, "restart", plan.restart, path)
    _verify(text, new_text, document.position, plan.restart, path)
    prefix = "\ufeff" if raw.startswith(_BOM) else ""
    if not dry_run:
        atomic_write(path, prefix + new_text)
    meta = graph.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return RestartFileResult(
        path=path,
        name=str(meta.get("name", "")),
        namespace=str(meta.get("namespace") or ""),
        plan=plan,
        diff=unified_diff(text, new_text, path),
        written=not dry_run,
        may_be_new=not meta.get("uid"),
    )


def unified_diff(old: str, new: str, path: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), path, path
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


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
        hint = (
            " (graphs inside a List are not edited; save the graph as its own document)"
            if listed
            else ""
        )
        raise InputError(f"no DynamoGraphDeployment in the file{hint}", path)
    names = [_name(d) for d in graphs]
    if name is not None:
        chosen = [d for d in graphs if _name(d) == name]
        if not chosen:
            raise InputError(
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


def _verify(old: str, new: str, position: int, restart: dict[str, Any], path: str) -> None:
    """Everything but the chosen graph's ``spec.restart`` must read back the same."""
    before = plain_documents(old, path)
    after = plain_documents(new, path)
    ok = len(before) == len(after)
    if ok:
        got = after[position]["spec"].pop("restart", None)
        before[position]["spec"].pop("restart", None)
        ok = got == restart and before == after
    if not ok:
        raise DgdError(
            f"{path}: the edit could not be made without touching other fields; the file is unchanged"
        )
