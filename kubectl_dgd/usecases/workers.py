"""How many worker processes one ``generate`` may fork: a pure decision.

Argo CD's cmp-server runs every request of the repo server at once, in one sidecar under one
memory limit, so a refresh storm of large applications must share it. Each running generate
reserves what it expects to use (``Reservation``, kept in a slot by adapters/resources.py);
a new one takes what the limit leaves after the others' reservations, its own files and the
cmp-server, in whole workers, and its fair share of the CPUs. When even a single process does
not fit it waits for room (the caller retries), and runs anyway once told it must.

The sizes below were measured with bench/bench_argocd_concurrency.py (proportional set size,
2000 five-component graph files); argocd-plugin/README.md has the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kubectl_dgd.adapters.resources import Capacity, Reservation

MIB = 1 << 20
# Below this many files a single process is faster than starting workers.
PARALLEL_MIN_FILES = 48
MAX_WORKERS = 8
# One generate before its files: interpreter, libraries, schema, compiled CEL rules.
PROCESS_BYTES = 24 * MIB
# Bytes held per byte of manifest until the stream is printed: the parsed objects, their
# findings and the output text (measured 12.8; a 1.5 KiB graph file costs about 20 KiB).
INPUT_FACTOR = 14
# One forked worker: what it copies of the parent on write, plus its batch of results.
WORKER_BYTES = 10 * MIB
# Not ours to plan with: the cmp-server itself and the repository copies it extracts.
SIDECAR_BYTES = 64 * MIB
# How long a generate waits for room before it runs anyway, in one process. The repo server
# gives a request 60 s by default (server/controller.repo.server.timeout.seconds), and the
# cmp-server kills the command's process group when it expires.
WAIT_SECONDS = 20.0


@dataclass(frozen=True)
class WorkerRequest:
    """The size of a job, to choose how many worker processes it gets."""

    files: int
    input_bytes: int  # the manifests' total size
    wanted: int = 0  # DGD_WORKERS: 0 auto, 1 no workers, N at most N
    capacity: Capacity = field(default_factory=lambda: Capacity(cpus=1))


def own_bytes(input_bytes: int) -> int:
    """What one generate of ``input_bytes`` of manifests uses in a single process."""
    return PROCESS_BYTES + INPUT_FACTOR * input_bytes


def plan_workers(
    request: WorkerRequest, others: Sequence[Reservation], must: bool = True
) -> Reservation | None:
    """Workers for this generate and the bytes it reserves; None: wait, there is no room yet.

    ``workers`` 1 means no worker processes (the generate checks its files itself)."""
    own = own_bytes(request.input_bytes)
    if request.files < PARALLEL_MIN_FILES or request.wanted == 1:
        return _fit(own, 1, request, others, must)
    cap = request.capacity
    cpus = cap.cpus if cap.cpu_quota is None else max(1, min(cap.cpus, _ceil(cap.cpu_quota)))
    most = request.wanted if request.wanted > 0 else min(cpus, MAX_WORKERS)
    # Automatic counts share the CPUs with every running generate (a share of one means no
    # workers); an explicit DGD_WORKERS is the operator's choice, bounded by memory only.
    share = most if request.wanted > 0 else max(1, most // (len(others) + 1))
    room = _room(own, request, others)
    by_memory = most if room is None else max(0, room) // WORKER_BYTES
    workers = min(share, by_memory)
    return _fit(own, workers if workers >= 2 else 1, request, others, must)


def _ceil(value: float) -> int:
    whole = int(value)
    return whole if whole == value else whole + 1


def _room(own: int, request: WorkerRequest, others: Sequence[Reservation]) -> int | None:
    """Bytes left for workers once this generate itself is counted; None without a limit.

    The tighter of two views: the others' reservations (they may not have grown yet), and the
    working set the kernel reports now (it also sees memory nobody reserved)."""
    limit = request.capacity.memory_limit
    if limit is None:
        return None
    room = limit - SIDECAR_BYTES - sum(o.bytes for o in others) - own
    used = request.capacity.memory_in_use
    if used is not None:  # this process is already running: only its files are still to come
        room = min(room, limit - used - INPUT_FACTOR * request.input_bytes)
    return room


def _fit(
    own: int, workers: int, request: WorkerRequest, others: Sequence[Reservation], must: bool
) -> Reservation | None:
    reserved = own + (workers * WORKER_BYTES if workers > 1 else 0)
    room = _room(own, request, others)
    if room is not None and room < 0 and others and not must:
        return None  # the others' reservations leave no room for this one: wait for them
    return Reservation(workers=workers, bytes=reserved)
