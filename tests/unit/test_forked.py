"""usecases/forked.py: jobs mapped by forked workers, results in job order, failures loud."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_dgd.usecases import forked
from kubectl_dgd.usecases.forked import WorkerDied, fork_usable, map_forked
from tests.argocd.harness import argocd_env, write_large_repo

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The worker tests fork whatever else this test process runs: a thread left by another
    test (the API server's) would otherwise send them down the in-process path."""
    monkeypatch.setattr(forked, "fork_usable", lambda: True)
    yield


def _square_with_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


@pytest.mark.parametrize(
    ("jobs", "workers", "chunk"), [(0, 2, 1), (1, 3, 4), (37, 3, 2), (50, 2, 16)]
)
def test_results_come_back_in_job_order(jobs: int, workers: int, chunk: int, forking: None) -> None:
    results = map_forked(_square_with_pid, list(range(jobs)), workers, chunk)
    assert [value for value, _ in results] == [n * n for n in range(jobs)]
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids  # computed in the workers, not here
    assert len(pids) <= workers


def test_every_worker_is_reaped_and_no_pipe_is_left_open(forking: None) -> None:
    before = set(os.listdir("/proc/self/fd"))
    map_forked(_square_with_pid, list(range(20)), 3, 1)
    assert set(os.listdir("/proc/self/fd")) == before
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left, not even a zombie


def _fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError(f"job {n} failed")
    return n


def test_an_exception_in_a_job_is_raised_in_the_parent(forking: None) -> None:
    with pytest.raises(ValueError, match="job 7 failed"):
        map_forked(_fail_on_seven, list(range(20)), 2, 3)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def _die_on_five(n: int) -> int:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
    return n


def test_a_worker_that_dies_fails_the_map_in_one_line(forking: None) -> None:
    with pytest.raises(WorkerDied, match=r"worker process \(pid \d+\) ended before sending"):
        map_forked(_die_on_five, list(range(20)), 2, 2)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_worker_leaves_when_its_parent_is_gone(forking: None) -> None:
    """The parent here is a forked child that maps slow jobs and is killed mid-way: its
    workers see their task pipe reach end of file (or their result pipe break) and exit."""
    read, write = os.pipe()
    parent = os.fork()
    if parent == 0:  # the doomed parent of the map
        os.close(read)

        def report_and_wait(n: int) -> int:
            os.write(write, f"{os.getpid()}\n".encode())
            time.sleep(0.2)
            return n

        try:
            map_forked(report_and_wait, list(range(100)), 2, 1)
        finally:
            os._exit(0)
    os.close(write)
    seen = b""
    while seen.count(b"\n") < 2:
        seen += os.read(read, 64)
    workers = {int(pid) for pid in seen.split()}
    os.kill(parent, signal.SIGKILL)
    os.waitpid(parent, 0)
    # The workers inherited the pipe's write end and never close it: end of file means every
    # one of them has exited (whoever reaps them now).
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
        if ready and not os.read(read, 4096):
            break
    else:
        pytest.fail(f"workers {sorted(workers)} outlived their parent")
    os.close(read)


@pytest.mark.parametrize(
    ("total", "workers", "most"), [(0, 2, 16), (1, 2, 16), (199, 2, 16), (57, 8, 3)]
)
def test_chunks_cover_every_job_once_and_shrink_towards_the_end(
    total: int, workers: int, most: int
) -> None:
    from kubectl_dgd.usecases.forked import _chunks

    chunks = _chunks(total, workers, most)
    assert [n for chunk in chunks for n in chunk] == list(range(total))
    sizes = [len(chunk) for chunk in chunks]
    assert all(1 <= size <= most for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # the last ones are the smallest
    if total:
        assert sizes[-1] == 1


# -- where forking is not usable, the jobs run in this process -----------------------------


@pytest.mark.parametrize("jobs", [0, 1, 37])
def test_without_fork_the_jobs_run_here_with_the_same_results(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    by_workers = [value for value, _ in map_forked(_square_with_pid, list(range(jobs)), 3, 2)]
    monkeypatch.delattr(os, "fork")  # as on Windows
    assert not fork_usable()
    results = map_forked(_square_with_pid, list(range(jobs)), 3, 2)
    assert [value for value, _ in results] == by_workers == [n * n for n in range(jobs)]
    assert {pid for _, pid in results} <= {os.getpid()}


def test_with_another_thread_running_the_jobs_run_here() -> None:
    """A fork copies only the calling thread (and any lock another one holds, held for ever)."""
    release = threading.Event()
    other = threading.Thread(target=release.wait, args=(60,))
    other.start()
    try:
        assert not fork_usable()
        results = map_forked(_square_with_pid, list(range(10)), 2, 1)
    finally:
        release.set()
        other.join()
    assert results == [(n * n, os.getpid()) for n in range(10)]


def test_an_exception_in_a_job_run_here_is_raised_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "fork")
    with pytest.raises(ValueError, match="job 7 failed"):
        map_forked(_fail_on_seven, list(range(20)), 2, 3)


def test_a_large_generate_without_fork_prints_what_its_workers_print(tmp_path: Path) -> None:
    """dgd-argocd generate over 60 files (workers asked for) in a Python without os.fork: the
    same stream as with three forked workers."""
    write_large_repo(tmp_path, 60)
    app = tmp_path / "apps" / "large"
    env = argocd_env("apps/large", sidecar_env={"DGD_WORKERS": "3", "TMPDIR": str(tmp_path)})
    env["PYTHONPATH"] = str(ROOT)
    streams = []
    for prelude in ("", "import os; del os.fork; "):
        code = f"{prelude}import sys; sys.argv = ['dgd-argocd', 'generate']; "
        code += "from kubectl_dgd.argocd.entry import main; main()"
        proc = subprocess.run(
            [sys.executable, "-c", code],
            cwd=app,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        streams.append(proc.stdout)
    assert streams[0] == streams[1] and streams[0].count("kind: DynamoGraphDeployment") == 60
