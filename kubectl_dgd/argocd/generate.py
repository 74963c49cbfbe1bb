"""``generate``: the application's manifests in, one validated YAML stream out.

Fail closed: any error leaves stdout empty and exits non-zero, because Argo CD treats empty
output with exit 0 as "the application has no resources" and prunes them all. Messages name the
file, line and field path; they never quote the contents of a file that holds a Secret.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kubectl_dgd.adapters.yamlload import Document, load_file
from kubectl_dgd.argocd.listcheck import list_item_problems
from kubectl_dgd.argocd.settings import Settings, api_versions, read_settings
from kubectl_dgd.argocd.source import AppSource, list_manifests, locate
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import is_dgd

MAX_ERRORS_SHOWN = 50
# Below this many files a single process is faster than starting workers.
PARALLEL_MIN_FILES = 48
MAX_WORKERS = 8
MAX_WARNINGS_SHOWN = 20
DGD_API = "nvidia.com/v1beta1/DynamoGraphDeployment"


@dataclass
class Entry:
    """One object of the application, where it came from, and what we emit for it."""

    obj: dict[str, Any]
    source: str
    line: int
    graph: bool = False


@dataclass
class Outcome:
    stdout: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


RESTART_IN_GIT = (
    "(warning: fine for a graph that exists, as after `kubectl dgd restart -f`; "
    "the first sync of a new graph must not carry spec.restart)"
)


def _is_restart_on_create(finding: Finding) -> bool:
    """The CRD's create-only rule on spec.restart. The plugin cannot see whether the graph
    exists, and a restart requested in Git (restart -f) is the GitOps way: warn, do not fail.
    The lint layer's own restart-on-create warning says the same and is dropped."""
    if finding.layer == "lint" and finding.code == "restart-on-create":
        return True
    return finding.layer == "cel" and finding.path == "spec" and "spec.restart" in finding.message


def finding_text(source: str, finding: Finding) -> str:
    """``FILE:LINE: PATH: MESSAGE``; Argo CD shows these lines verbatim in the UI."""
    where = f"{source}:{finding.line}" if finding.line is not None else source
    path = f" {finding.path}:" if finding.path else ""
    return f"{where}:{path} {finding.message}"


def _input_error_text(err: InputError, shown: str) -> str:
    # The reader never quotes text of a document that is or may be a Secret (core/redact.py).
    text = str(err)
    where = err.source if err.line is None else f"{err.source}:{err.line}"
    message = text[len(where) + 2 :] if where and text.startswith(where + ": ") else text
    location = shown if err.line is None else f"{shown}:{err.line}"
    return f"{location}: {message}"


def _objects(doc: Document) -> tuple[list[tuple[dict[str, Any], int]], bool]:
    """The Kubernetes objects of a document (``List`` kinds unpacked), and whether it had others."""
    from kubectl_dgd.usecases.validate import unpack

    objects, stray = [], False
    for obj, _prefix, line in unpack(doc):
        if isinstance(obj.get("apiVersion"), str) and isinstance(obj.get("kind"), str):
            objects.append((obj, line))
        else:
            stray = True
    if doc.data is not None and not unpack(doc):
        stray = True
    return objects, stray


def _lists_objects(data: Any) -> bool:
    """A top-level sequence holding something shaped like a Kubernetes object."""
    return isinstance(data, list) and any(
        isinstance(item, dict) and "apiVersion" in item and "kind" in item for item in data
    )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _identity(obj: Mapping[str, Any], namespace: str) -> tuple[str, str, str, str]:
    group = str(obj["apiVersion"]).rpartition("/")[0]
    meta = _mapping(obj.get("metadata"))
    # Only a string metadata.name identifies an object: anything else (a mapping in a Secret's
    # name) is never printed, and objects sharing a generateName (Argo CD hooks) each get
    # their own name from the API server.
    name = meta.get("name")
    space = meta.get("namespace")
    return (
        group,
        str(obj["kind"]),
        space if isinstance(space, str) and space else namespace,
        name if isinstance(name, str) else "",
    )


@dataclass
class FileResult:
    entries: list[Entry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def check_file(path: Path, shown: str, profile: Profile) -> FileResult:
    """Read one file and validate its graphs; everything it finds, in line order."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.usecases.validate import validate_documents

    result = FileResult()
    try:
        docs = load_file(str(path))
    except InputError as err:
        result.errors.append(_input_error_text(err, shown))
        return result
    per_doc = [_objects(doc) for doc in docs]
    if not any(objs for objs, _ in per_doc):
        listed = next((doc for doc in docs if _lists_objects(doc.data)), None)
        if listed is not None:  # skipping it would make Argo CD prune those objects
            result.errors.append(
                f"{shown}:{listed.line}: a bare list of objects is not a Kubernetes object; "
                "write one object per document, or wrap them in kind: List"
            )
        elif any(stray for _, stray in per_doc):
            result.warnings.append(f"{shown}: skipped: no Kubernetes objects (apiVersion and kind)")
        return result
    for doc, (objs, stray) in zip(docs, per_doc, strict=True):
        result.errors.extend(list_item_problems(doc, shown))
        if stray:
            result.errors.append(
                f"{shown}:{doc.line}: document is not a Kubernetes object (needs apiVersion and kind)"
            )
        result.entries.extend(Entry(obj, shown, line, graph=is_dgd(obj)) for obj, line in objs)
    report = validate_documents(docs, bundled_schemas(), profile)
    for item in report.items:
        for finding in sorted(item.findings, key=lambda f: (f.line or 0, f.path)):
            if _is_restart_on_create(finding):
                if finding.layer == "cel":
                    result.warnings.append(f"{finding_text(shown, finding)} {RESTART_IN_GIT}")
            elif finding.severity == "error":
                result.errors.append(finding_text(shown, finding))
            elif finding.severity == "warning":
                result.warnings.append(f"{finding_text(shown, finding)} (warning)")
    return result


def _workers(env: Mapping[str, str], files: int) -> int:
    """Worker processes for large applications; DGD_WORKERS=1 turns them off."""
    try:
        wanted = int(env.get("DGD_WORKERS", "0"))
    except ValueError:
        wanted = 0
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    count = wanted if wanted > 0 else min(cpus, MAX_WORKERS)
    return count if files >= PARALLEL_MIN_FILES else 1


def _check_files(
    files: list[Path], source: AppSource, profile: Profile, env: Mapping[str, str]
) -> list[FileResult]:
    """Results in file order. Large applications fan out to forked workers after the first
    file has been checked here, so they inherit the loaded schema and compiled CEL rules."""
    jobs = [(path, source.display(path), profile) for path in files]
    workers = _workers(env, len(jobs))
    if workers <= 1 or not jobs:
        return [check_file(*job) for job in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    first = check_file(*jobs[0])
    chunk = max(1, len(jobs) // (workers * 4))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        rest = list(pool.map(_check_job, jobs[1:], chunksize=chunk))
    return [first, *rest]


def _check_job(job: tuple[Path, str, Profile]) -> FileResult:
    return check_file(*job)


def generate(app_dir: Path, env: Mapping[str, str]) -> Outcome:
    """Everything ``generate`` does except printing; raises UsageError for bad parameters."""
    settings = read_settings(env)
    outcome = Outcome(warnings=list(settings.warnings))
    served = api_versions(env)
    profile = settings.profile(served)
    source = locate(app_dir, env)
    listing = list_manifests(source)
    outcome.errors.extend(f"{e}" for e in listing.errors)
    for result in _check_files(listing.files, source, profile, env):
        outcome.entries.extend(result.entries)
        outcome.errors.extend(result.errors)
        outcome.warnings.extend(result.warnings)
    if not listing.files and not listing.errors:
        outcome.errors.append(
            f"no manifests (*.yaml, *.yml, *.json) below {_app_label(source, env)}; refusing to "
            "generate nothing, which would make Argo CD prune every resource of the application"
        )
    elif not outcome.entries and not outcome.errors:
        outcome.errors.append(
            f"no Kubernetes objects below {_app_label(source, env)}; refusing to generate nothing, "
            "which would make Argo CD prune every resource of the application"
        )
    namespace = env.get("ARGOCD_APP_NAMESPACE", "")
    _check_duplicates(outcome, namespace)
    graphs = [e for e in outcome.entries if e.graph]
    if served and graphs and DGD_API not in served:
        outcome.warnings.append(
            f"the destination cluster does not serve {DGD_API}: install the Dynamo operator "
            "first, or the sync will fail"
        )
    if outcome.errors:
        return outcome
    if settings.restart_id:
        _stamp_restart(outcome, graphs, settings)
        if outcome.errors:
            return outcome
    if settings.children == "preview":
        _add_previews(outcome, profile, namespace)
        _check_duplicates(outcome, namespace)
        if outcome.errors:
            return outcome
    from kubectl_dgd.output.manifest_yaml import dump_stream

    outcome.stdout = dump_stream([e.obj for e in outcome.entries])
    return outcome


def _add_previews(outcome: Outcome, profile: Profile, namespace: str) -> None:
    """Each graph followed by its preview ConfigMap (see argocd/preview.py for why a ConfigMap)."""
    from kubectl_dgd.argocd.preview import preview_configmap

    entries: list[Entry] = []
    for entry in outcome.entries:
        entries.append(entry)
        if entry.graph:
            configmap, warning = preview_configmap(entry.obj, profile, namespace, entry.source)
            entries.append(Entry(configmap, entry.source, entry.line))
            if warning:
                outcome.warnings.append(warning)
    outcome.entries = entries


def _app_label(source: AppSource, env: Mapping[str, str]) -> str:
    path = env.get("ARGOCD_APP_SOURCE_PATH", "").strip()
    return f"the application path {path!r}" if path else "the application path"


def _check_duplicates(outcome: Outcome, namespace: str) -> None:
    first: dict[tuple[str, str, str, str], Entry] = {}
    for entry in outcome.entries:
        key = _identity(entry.obj, namespace)
        if not key[3]:
            continue
        if key in first:
            seen = first[key]
            ns = f"{key[2]}/" if key[2] else ""
            outcome.errors.append(
                f"{entry.source}:{entry.line}: {key[1]} {ns}{key[3]} is defined twice "
                f"(first at {seen.source}:{seen.line})"
            )
        else:
            first[key] = entry


def _stamp_restart(outcome: Outcome, graphs: list[Entry], settings: Settings) -> None:
    """Set ``spec.restart`` on every graph through the core's restart plan (admission's checks)."""
    from kubectl_dgd.core.restart import (
        LPX_PARALLEL_MESSAGE,
        RestartRefused,
        RestartRequest,
        has_lpx,
        plan_restart,
    )

    for entry in graphs:
        strategy = settings.restart_strategy or ("Parallel" if has_lpx(entry.obj) else None)
        request = RestartRequest(parallel=strategy == "Parallel", restart_id=settings.restart_id)
        # The id is given, so the clock is never consulted; a fixed instant keeps output pure.
        try:
            plan = plan_restart(entry.obj, request, datetime(1970, 1, 1, tzinfo=UTC))
        except RestartRefused as refused:
            for given in refused.reasons:
                reason = (
                    f"{LPX_PARALLEL_MESSAGE} (set the parameter restart-strategy to Parallel)"
                    if given.startswith(LPX_PARALLEL_MESSAGE)
                    else given
                )
                outcome.errors.append(f"{entry.source}:{entry.line}: spec.restart: {reason}")
            continue
        spec = entry.obj.setdefault("spec", {})
        spec["restart"] = plan.restart
    if graphs and not outcome.errors:
        outcome.warnings.append(
            f"restart-id {settings.restart_id!r} set on {len(graphs)} graph(s): graphs that do not "
            "exist yet are rejected (spec.restart must be unset on create)"
        )


def capped(lines: list[str], limit: int, noun: str) -> list[str]:
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"... and {len(lines) - limit} more {noun}"]
