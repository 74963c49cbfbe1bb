"""Map a function over jobs in forked worker processes; results come back in job order.

Why not ``concurrent.futures``: its process pool loads multiprocessing, logging, socket,
tempfile and queue machinery (75 M instructions, some 13 ms before the first worker starts at
200 files) and runs threads to feed it. Fork and two pipes per worker are all this needs: the
workers inherit the jobs, so only chunk numbers go out, and pickled results come back.

A worker leaves when its task pipe reaches end of file: when the parent has no more chunks
for it, and also when the parent is gone (the OOM killer, Argo CD's timeout), since only the
parent holds the write end; a worker that finds its parent gone while it sends results leaves
on the broken pipe. A worker that dies fails the whole map (``WorkerDied``); an exception
raised by a job is raised again in the parent.

Where ``os.fork`` does not exist (Windows), or is not safe (another thread runs: the child
would get a copy of locks that thread may hold, and only the forking thread), the jobs run in
this process, in order: the same results, one CPU (``fork_usable``).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

from kubectl_dgd.errors import DgdError

J = TypeVar("J")
R = TypeVar("R")

# Chunks handed to each worker ahead of its results, so it never waits for the next one.
AHEAD = 2
_HEADER = 8  # bytes of the length before each message


class WorkerDied(DgdError):
    """A worker process ended before sending its results (killed, or out of memory). The
    Argo CD front end fails the generate with it, as with every error that is not a usage one."""


class _Worker:
    """The parent's side of one worker."""

    __slots__ = ("pending", "pid", "results", "tasks")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks  # the write end of its task pipe (-1 once closed)
        self.results = results  # the read end of its result pipe
        self.pending: deque[int] = deque()  # chunk numbers sent, oldest first


def fork_usable() -> bool:
    """``os.fork`` exists and this process runs one thread (threading is not imported for
    this: without it loaded, no thread of its making runs)."""
    if not hasattr(os, "fork") or not hasattr(select, "poll"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def map_forked(fn: Callable[[J], R], jobs: Sequence[J], workers: int, chunk: int) -> list[R]:
    """``[fn(job) for job in jobs]``, computed by up to ``workers`` forked processes, each
    given at most ``chunk`` jobs at a time; in this process where forking is not usable."""
    if not fork_usable():
        return [fn(job) for job in jobs]
    chunks = _chunks(len(jobs), workers, chunk)
    done: list[list[R] | None] = [None] * len(chunks)
    started: list[_Worker] = []
    clean = False
    try:
        for _ in range(min(workers, len(chunks))):
            started.append(_fork(fn, jobs, chunks, started))
        poll = select.poll()
        by_fd = {w.results: w for w in started}
        for fd in by_fd:
            poll.register(fd, select.POLLIN)
        given = 0
        for _ in range(AHEAD):
            for worker in started:
                given = _give(worker, given, len(chunks))
        remaining = len(chunks)
        while remaining:
            for fd, _event in poll.poll():
                worker = by_fd[fd]
                payload = _receive(fd)
                if payload is None or not worker.pending:
                    raise _died(worker)
                number = worker.pending.popleft()
                given = _give(worker, given, len(chunks))
                kind, value = pickle.loads(payload)
                if kind == "error":
                    raise value
                done[number] = value
                remaining -= 1
                if not worker.pending:
                    poll.unregister(fd)
        clean = True
    finally:
        _stop(started, clean)
    return [result for results in done if results is not None for result in results]


def _chunks(total: int, workers: int, most: int) -> list[list[int]]:
    """Job numbers in chunks of ``most``, shrinking towards the end (to a share of what is
    left), so that the workers finish together instead of one waiting for another's last
    full chunk."""
    chunks: list[list[int]] = []
    start = 0
    while start < total:
        size = max(1, min(most, (total - start) // (2 * workers)))
        chunks.append(list(range(start, min(start + size, total))))
        start += size
    return chunks


def _give(worker: _Worker, given: int, total: int) -> int:
    """Send the next chunk number to ``worker``; with none left and none pending, let it go."""
    if given < total:
        try:
            _send(worker.tasks, given.to_bytes(_HEADER, "little"))
        except BrokenPipeError:
            raise _died(worker) from None
        worker.pending.append(given)
        return given + 1
    if not worker.pending and worker.tasks >= 0:
        os.close(worker.tasks)  # end of file: the worker leaves
        worker.tasks = -1
    return given


def _died(worker: _Worker) -> WorkerDied:
    return WorkerDied(
        f"a worker process (pid {worker.pid}) ended before sending its results (out of memory?)"
    )


def _fork(
    fn: Callable[[J], R], jobs: Sequence[J], chunks: list[list[int]], others: list[_Worker]
) -> _Worker:
    task_read, task_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns into the parent's code
        code = 1
        try:
            # Only the parent may hold the write end of a task pipe (end of file is the signal
            # to leave), and the other workers' pipes are none of this one's business.
            for fd in (task_write, result_read, *(f for w in others for f in (w.tasks, w.results))):
                if fd >= 0:
                    os.close(fd)
            _work(fn, jobs, chunks, task_read, result_write)
            code = 0
        finally:
            os._exit(code)  # no atexit handlers, no flushing of the parent's buffers
    os.close(task_read)
    os.close(result_write)
    return _Worker(pid, task_write, result_read)


def _work(
    fn: Callable[[J], R], jobs: Sequence[J], chunks: list[list[int]], tasks: int, results: int
) -> None:
    while (message := _receive(tasks)) is not None:
        number = int.from_bytes(message, "little")
        out: tuple[str, Any]
        try:
            out = ("ok", [fn(jobs[i]) for i in chunks[number]])
        except Exception as err:
            out = ("error", err)
        try:
            payload = pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # an exception that does not pickle still reaches the parent
            payload = pickle.dumps(("error", RuntimeError(f"{type(err).__name__}: {err}")))
        _send(results, payload)


def _stop(started: list[_Worker], clean: bool) -> None:
    """Close the parent's ends and reap the workers (killed first when the map failed)."""
    for worker in started:
        if worker.tasks >= 0:
            os.close(worker.tasks)
        os.close(worker.results)
        if not clean:
            with suppress(ProcessLookupError):
                os.kill(worker.pid, signal.SIGKILL)
    for worker in started:
        with suppress(ChildProcessError):
            os.waitpid(worker.pid, 0)


def _send(fd: int, payload: bytes) -> None:
    view = memoryview(len(payload).to_bytes(_HEADER, "little") + payload)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int) -> bytes | None:
    """One message, or None at end of file before it."""
    head = _read(fd, _HEADER)
    if head is None:
        return None
    return _read(fd, int.from_bytes(head, "little"))


def _read(fd: int, size: int) -> bytes | None:
    parts: list[bytes] = []
    left = size
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
