"""What the container lets a process use, and which generates run at the same time.

Two kinds of I/O, both best effort (a value that cannot be read is ``None``, never an error:
sizing must not fail a sync):

- ``read_capacity``: the CPUs this process may run on (``sched_getaffinity``), the CPU quota
  and the memory limit and working set of its cgroup. cgroup v2 (``cpu.max``, ``memory.max``,
  ``memory.current``) and v1 (``cpu.cfs_quota_us``/``cpu.cfs_period_us``,
  ``memory.limit_in_bytes``/``memory.usage_in_bytes``). A limit may sit on any ancestor of the
  process's cgroup, so every level from the process's cgroup up to the mount is read and the
  tightest one wins. The working set is usage minus inactive file cache, as the kubelet counts
  it: the cache is reclaimed before the OOM killer runs.
- ``hold_slot``: a slot in a directory of lock files (the sidecar's /tmp), one per running
  generate, holding what it reserved. ``flock`` locks belong to the open file, so a killed
  process (and its forked workers) releases its slot with its last descriptor: nothing leaks.
  Slot files are never removed, so no process can lock a file another has just unlinked.
"""

from __future__ import annotations

import errno
import fcntl
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_SELF_CGROUP = Path("/proc/self/cgroup")
SLOT_DIR_NAME = "dgd-argocd-generates"
MAX_SLOTS = 64
# Values at or above this mean "no limit" (cgroup v1 writes a page-rounded 2**63 - 1).
_UNLIMITED = 1 << 62


@dataclass(frozen=True)
class Capacity:
    """What this process may use; ``None`` where nothing says (no limit, or unreadable)."""

    cpus: int  # CPUs in the affinity mask
    cpu_quota: float | None = None  # CPUs' worth of time per period (cgroup cpu.max)
    memory_limit: int | None = None  # bytes, of the tightest cgroup level
    memory_in_use: int | None = None  # that level's working set, bytes


@dataclass(frozen=True)
class Reservation:
    """What one running generate holds: its worker processes and the bytes it expects to use."""

    workers: int  # as decided (1: none); informational once they have gone
    bytes: int
    pid: int = 0


def read_capacity(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_SELF_CGROUP) -> Capacity:
    """This process's CPUs, CPU quota and memory limit (see the module docstring)."""
    paths = _cgroup_paths(proc_cgroup)
    if (root / "cgroup.controllers").exists():  # cgroup v2, unified hierarchy
        levels = _levels(root, paths.get("", "/"))
        quota = _min_opt(_v2_cpu(level) for level in levels)
        limit, used = _tightest(
            (_v2_int(level / "memory.max"), _used(level, "memory.current", "inactive_file"))
            for level in levels
        )
    else:  # cgroup v1: one hierarchy per controller
        cpu_root = next((root / n for n in ("cpu,cpuacct", "cpu") if (root / n).is_dir()), None)
        cpu_levels = _levels(cpu_root, paths.get("cpu", "/")) if cpu_root else []
        quota = _min_opt(_v1_cpu(level) for level in cpu_levels)
        memory = root / "memory"
        limit, used = _tightest(
            (
                _v2_int(level / "memory.limit_in_bytes"),
                _used(level, "memory.usage_in_bytes", "total_inactive_file"),
            )
            for level in (_levels(memory, paths.get("memory", "/")) if memory.is_dir() else [])
        )
    return Capacity(cpus=_affinity(), cpu_quota=quota, memory_limit=limit, memory_in_use=used)


def total_size(paths: Iterable[Path]) -> int:
    """Bytes of the files that exist among ``paths`` (the rest are reported when read)."""
    size = 0
    for path in paths:
        with suppress(OSError):
            size += path.stat().st_size
    return size


def _affinity() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _cgroup_paths(proc_cgroup: Path) -> dict[str, str]:
    """Controller -> path of this process's cgroup ("" is the v2 hierarchy)."""
    paths: dict[str, str] = {}
    try:
        text = proc_cgroup.read_text()
    except OSError:
        return paths
    for line in text.splitlines():
        _id, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path or "/"
    return paths


def _levels(mount: Path, path: str) -> list[Path]:
    """The process's cgroup directory and each ancestor up to the mount, where they exist.
    Inside a container the mount usually is the container's own cgroup (cgroup namespace)
    and the path is "/"; without a namespace the path leads down to it."""
    parts = [p for p in path.split("/") if p and p != ".."]
    levels = [mount.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]
    return [level for level in levels if level.is_dir()]


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _v2_int(path: Path) -> int | None:
    text = _read(path)
    if text is None or text == "max":
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 0 <= value < _UNLIMITED else None


def _stat(level: Path, key: str) -> int:
    text = _read(level / "memory.stat") or ""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            with suppress(ValueError):
                return int(value)
    return 0


def _used(level: Path, usage_file: str, inactive_key: str) -> int | None:
    usage = _v2_int(level / usage_file)
    return None if usage is None else max(0, usage - _stat(level, inactive_key))


def _v2_cpu(level: Path) -> float | None:
    fields = (_read(level / "cpu.max") or "").split()
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def _v1_cpu(level: Path) -> float | None:
    quota = _read(level / "cpu.cfs_quota_us")
    period = _read(level / "cpu.cfs_period_us")
    try:
        q, p = int(quota or ""), int(period or "")
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def _min_opt(values: Iterator[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return min(present) if present else None


def _tightest(levels: Iterator[tuple[int | None, int | None]]) -> tuple[int | None, int | None]:
    """The (limit, working set) of the level with the least room left."""
    best: tuple[int | None, int | None] = (None, None)
    room = math.inf
    for limit, used in levels:
        if limit is None:
            continue
        left = limit - (used or 0)
        if left < room:
            best, room = (limit, used), left
    return best


# (what the others hold, whether an answer is due now) -> what to hold, or None to wait
Decide = Callable[[list[Reservation], bool], Reservation | None]


@contextmanager
def hold_slot(
    directory: Path,
    decide: Decide,
    max_wait: float = 30.0,
    poll: float = 0.2,
    keep: Callable[[Reservation], Reservation] | None = None,
) -> Iterator[Reservation]:
    """Ask ``decide`` what to hold given what the other running generates hold, record it in
    a slot and keep the slot for the duration of the block. ``decide`` may answer None (no
    room yet): it is asked again every ``poll`` seconds, and after ``max_wait`` it must answer.
    With ``keep``, the slot outlives the block: it then records ``keep(answer)`` until the
    process exits (a process that still holds its results after its workers have gone).
    Without a usable directory (read-only, full) the decision is made alone and not recorded."""
    deadline = time.monotonic() + max_wait
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        guard = os.open(directory / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        answer = decide([], True)
        assert answer is not None
        yield answer
        return
    slot = -1
    try:
        while True:
            fcntl.flock(guard, fcntl.LOCK_EX)  # one decision at a time: no two see the same room
            try:
                others = running(directory)
                must = time.monotonic() >= deadline
                answer = decide(others, must)
                if answer is not None:
                    slot = _claim(directory, answer)
                    break
            finally:
                fcntl.flock(guard, fcntl.LOCK_UN)
            time.sleep(poll)
    finally:
        os.close(guard)
    try:
        yield answer
    finally:
        if slot >= 0 and keep is not None:
            _write(slot, keep(answer))  # kept until this process exits, which drops the lock
        elif slot >= 0:
            os.close(slot)  # the lock goes with the last descriptor (forked workers share it)


def running(directory: Path) -> list[Reservation]:
    """What the generates running now hold (their slots are locked)."""
    held: list[Reservation] = []
    try:  # listdir, not Path.glob: a third of the time at 64 slots, and no pattern to compile
        names = sorted(name for name in os.listdir(directory) if name.startswith("slot-"))
    except OSError:
        return held
    for name in names:
        try:
            fd = os.open(os.path.join(directory, name), os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError as err:
                if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    held.append(_parse(os.pread(fd, 128, 0)))
                continue
            fcntl.flock(fd, fcntl.LOCK_UN)  # free: a finished or killed generate's slot
        finally:
            os.close(fd)
    return held


def _parse(raw: bytes) -> Reservation:
    """``workers bytes pid``; a slot whose owner has not written yet counts as a bare process."""
    try:
        workers, size, pid = (int(f) for f in raw.split()[:3])
        return Reservation(workers, size, pid)
    except ValueError:
        return Reservation(1, 0, 0)


def _claim(directory: Path, answer: Reservation) -> int:
    """Lock the first free slot and write ``answer`` into it; -1 when every slot is taken."""
    for index in range(MAX_SLOTS):
        try:
            fd = os.open(directory / f"slot-{index:02d}", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return -1
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _write(fd, answer)
        return fd
    return -1


def _write(fd: int, answer: Reservation) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{answer.workers} {answer.bytes} {os.getpid()}\n".encode(), 0)
