"""Argo CD ``generate``: the application's files in, its validated objects out.

Validate every file (graphs as admission would on create), refuse what Argo CD would turn into a
prune (no objects, a bare list, an object defined twice), stamp ``spec.restart`` when a restart
id is asked for, and add each graph's preview when a preview builder is given. The front end
(argocd/generate.py) reads Argo CD's environment into a ``GenerateRequest`` and prints the
result; nothing here reads the environment or writes to the terminal.

Fail closed: any error means no objects are emitted, because Argo CD treats empty output with
exit 0 as "the application has no resources" and prunes them all. Messages name the file, line
and field path; they never quote the contents of a file that holds a Secret.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from kubectl_dgd.adapters.resources import (
    CGROUP_ROOT,
    Reservation,
    hold_slot,
    read_capacity,
    total_size,
)
from kubectl_dgd.adapters.yamlload import Document, load_file
from kubectl_dgd.core.findings import Finding
from kubectl_dgd.core.graph import mapping
from kubectl_dgd.core.nulls import without_nulls
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.errors import InputError
from kubectl_dgd.model.kinds import is_dgd
from kubectl_dgd.usecases.listcheck import list_item_problems
from kubectl_dgd.usecases.workers import WAIT_SECONDS, WorkerRequest, own_bytes, plan_workers

MAX_CHUNK = 16  # files per batch sent to a worker
DGD_API = "nvidia.com/v1beta1/DynamoGraphDeployment"

RESTART_IN_GIT = (
    "(warning: fine for a graph that exists, as after `kubectl dgd restart -f`; "
    "the first sync of a new graph must not carry spec.restart)"
)

# (graph, profile, namespace, source) -> (an object to emit after the graph, a warning or '')
PreviewBuilder = Callable[[dict[str, Any], Profile, str, str], tuple[dict[str, Any], str]]


@dataclass
class Entry:
    """One object of the application, where it came from, and what we emit for it."""

    obj: dict[str, Any]
    source: str
    line: int
    graph: bool = False


@dataclass
class Outcome:
    """The objects to emit, in order, or the errors that forbid emitting any."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class Sizing:
    """Where ``generate`` learns what it may use: the cgroup mount, and the directory of slots
    shared by the generates running at the same time (None: plan alone)."""

    cgroup_root: Path = CGROUP_ROOT
    slot_dir: Path | None = None


@dataclass(frozen=True)
class GenerateRequest:
    """One `generate` run: the files, the operator profile and the application's context."""

    files: list[tuple[Path, str]]  # each manifest file and its name as shown in messages
    profile: Profile
    namespace: str  # the application's destination namespace ('' when Argo CD gave none)
    app_label: str  # where messages say the manifests are: "below the application path 'x'"
    listing_errors: list[str] = field(default_factory=list)
    served_apis: frozenset[str] = frozenset()  # empty: the cluster's APIs are unknown
    restart_id: str | None = None
    restart_strategy: Literal["Sequential", "Parallel"] | None = None
    preview: PreviewBuilder | None = None
    workers: int = 0  # 0: automatic; 1: no worker processes; N: at most N (memory permitting)
    sizing: Sizing = field(default_factory=Sizing)


def generate_objects(request: GenerateRequest) -> Outcome:
    """Everything ``generate`` does between reading its parameters and printing."""
    outcome = Outcome()
    outcome.errors.extend(request.listing_errors)
    for result in _check_files(request.files, request.profile, request.workers, request.sizing):
        outcome.entries.extend(result.entries)
        outcome.errors.extend(result.errors)
        outcome.warnings.extend(result.warnings)
    if not request.files and not request.listing_errors:
        outcome.errors.append(
            f"no manifests (*.yaml, *.yml, *.json) {request.app_label}; refusing to "
            "generate nothing, which would make Argo CD prune every resource of the application"
        )
    elif not outcome.entries and not outcome.errors:
        outcome.errors.append(
            f"no Kubernetes objects {request.app_label}; refusing to generate nothing, "
            "which would make Argo CD prune every resource of the application"
        )
    _check_duplicates(outcome, request.namespace)
    graphs = [e for e in outcome.entries if e.graph]
    served = request.served_apis
    if served and graphs and DGD_API not in served:
        outcome.warnings.append(
            f"the destination cluster does not serve {DGD_API}: install the Dynamo operator "
            "first, or the sync will fail"
        )
    if outcome.errors:
        return outcome
    if request.restart_id:
        _stamp_restart(outcome, graphs, request.restart_id, request.restart_strategy)
        if outcome.errors:
            return outcome
    _mark_restart_from_git(graphs)
    if request.preview is not None:
        _add_previews(outcome, request.preview, request.profile, request.namespace)
        _check_duplicates(outcome, request.namespace)
    return outcome


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


def _identity(obj: Mapping[str, Any], namespace: str) -> tuple[str, str, str, str]:
    group = str(obj["apiVersion"]).rpartition("/")[0]
    meta = mapping(obj.get("metadata"))
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
    """One file's objects to emit, its errors and its warnings."""

    entries: list[Entry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def check_file(path: Path, shown: str, profile: Profile) -> FileResult:
    """Read one file and validate its graphs; everything it finds, in line order."""
    from kubectl_dgd.adapters.crdfile import bundled_schemas
    from kubectl_dgd.usecases.validate import is_restart_on_create, validate_documents

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
        # A graph's explicit nulls go, as the API server prunes them (core/nulls.py says why).
        result.entries.extend(
            Entry(without_nulls(obj), shown, line, graph=True)
            if is_dgd(obj)
            else Entry(obj, shown, line)
            for obj, line in objs
        )
    report = validate_documents(docs, bundled_schemas(profile.operator_version), profile)
    for item in report.items:
        for finding in sorted(item.findings, key=lambda f: (f.line or 0, f.path)):
            if is_restart_on_create(finding):
                if finding.layer == "cel":
                    result.warnings.append(f"{finding_text(shown, finding)} {RESTART_IN_GIT}")
            elif finding.severity == "error":
                result.errors.append(finding_text(shown, finding))
            elif finding.severity == "warning":
                result.warnings.append(f"{finding_text(shown, finding)} (warning)")
    return result


def _check_files(
    files: list[tuple[Path, str]], profile: Profile, wanted: int, sizing: Sizing
) -> list[FileResult]:
    """Results in file order, checked by as many workers as the sidecar has room for
    (usecases/workers.py decides; the slot is held until the results are in)."""
    jobs = [(path, shown, profile) for path, shown in files]
    size = total_size(path for path, _ in files)

    def decide(others: list[Reservation], must: bool) -> Reservation | None:
        capacity = read_capacity(sizing.cgroup_root)
        return plan_workers(WorkerRequest(len(jobs), size, wanted, capacity), others, must)

    if sizing.slot_dir is None:
        planned = decide([], True)
        assert planned is not None
        return _check_with(jobs, planned.workers)
    # The results stay in this process until it has printed them and exits: so does the
    # reservation, without the workers' bytes once they have gone.
    alone = own_bytes(size)
    with hold_slot(
        sizing.slot_dir,
        decide,
        max_wait=WAIT_SECONDS,
        keep=lambda held: Reservation(held.workers, alone),
    ) as held:
        return _check_with(jobs, held.workers)


def _check_with(jobs: list[tuple[Path, str, Profile]], workers: int) -> list[FileResult]:
    """Large applications fan out to forked workers after the first file has been checked
    here, so they inherit the loaded schema and compiled CEL rules."""
    if workers <= 1 or not jobs:
        return [check_file(*job) for job in jobs]
    import gc

    from kubectl_dgd.usecases.forked import map_forked

    first = check_file(*jobs[0])
    # Small batches: a worker holds a whole batch of results until it is sent, so batch size
    # is worker memory; 16 files cost a few hundred KiB and little time in messages.
    chunk = max(1, min(MAX_CHUNK, len(jobs) // (workers * 4)))
    # Frozen objects are never visited by the collector, so workers do not copy on write the
    # pages of everything the parent loaded just by collecting.
    gc.freeze()
    try:
        rest = map_forked(_check_job, jobs[1:], workers, chunk)
    finally:
        gc.unfreeze()
    return [first, *rest]


def _check_job(job: tuple[Path, str, Profile]) -> FileResult:
    return check_file(*job)


def _add_previews(
    outcome: Outcome, preview: PreviewBuilder, profile: Profile, namespace: str
) -> None:
    """Each graph followed by what ``preview`` builds for it."""
    entries: list[Entry] = []
    for entry in outcome.entries:
        entries.append(entry)
        if entry.graph:
            extra, warning = preview(entry.obj, profile, namespace, entry.source)
            entries.append(Entry(extra, entry.source, entry.line))
            if warning:
                outcome.warnings.append(warning)
    outcome.entries = entries


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


# On a graph whose spec.restart comes from Git (the restart-id parameter, or written in the
# files): the Argo CD restart actions read it and stay disabled, since a restart clicked on such
# a graph is undone by the next sync (and with selfHeal it restarts twice).
RESTART_FROM_ANNOTATION = "kubectl-dgd.nvidia.com/restart-from"


def _mark_restart_from_git(graphs: list[Entry]) -> None:
    for entry in graphs:
        spec = entry.obj.get("spec")
        restart = spec.get("restart") if isinstance(spec, dict) else None
        if isinstance(restart, dict) and restart.get("id"):
            metadata = entry.obj.setdefault("metadata", {})
            annotations = metadata.get("annotations")
            if not isinstance(annotations, dict):
                annotations = metadata["annotations"] = {}
            annotations[RESTART_FROM_ANNOTATION] = "git"


def _stamp_restart(
    outcome: Outcome,
    graphs: list[Entry],
    restart_id: str,
    strategy: Literal["Sequential", "Parallel"] | None,
) -> None:
    """Set ``spec.restart`` on every graph through the core's restart plan (admission's checks)."""
    from kubectl_dgd.core.restart import (
        LPX_PARALLEL_MESSAGE,
        RestartRefused,
        RestartRequest,
        has_lpx,
        plan_restart,
    )

    for entry in graphs:
        chosen = strategy or ("Parallel" if has_lpx(entry.obj) else None)
        request = RestartRequest(parallel=chosen == "Parallel", restart_id=restart_id)
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
            f"restart-id {restart_id!r} set on {len(graphs)} graph(s): graphs that do not "
            "exist yet are rejected (spec.restart must be unset on create)"
        )
