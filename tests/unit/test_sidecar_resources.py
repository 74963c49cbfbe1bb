"""adapters/resources.py: cgroup limits read from fake trees, and the slot directory's locks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from kubectl_dgd.adapters.resources import (
    Capacity,
    Reservation,
    hold_slot,
    read_capacity,
    running,
    total_size,
)

MIB = 1 << 20
V1_UNLIMITED = "9223372036854771712"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")


def _proc(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "proc-self-cgroup"
    path.write_text(text)
    return path


def test_cgroup_v2_limits_of_a_container_are_read(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    _write(
        root,
        {
            "cgroup.controllers": "cpu memory",
            "cpu.max": "150000 100000",
            "memory.max": str(512 * MIB),
            "memory.current": str(200 * MIB),
            "memory.stat": f"anon 1\ninactive_file {50 * MIB}\nactive_file 3",
        },
    )
    got = read_capacity(root, _proc(tmp_path, "0::/\n"))
    assert got.cpu_quota == 1.5
    assert got.memory_limit == 512 * MIB
    assert got.memory_in_use == 150 * MIB  # the inactive page cache is reclaimable
    assert got.cpus == len(os.sched_getaffinity(0))


def test_cgroup_v2_without_limits_says_none(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    _write(
        root,
        {
            "cgroup.controllers": "cpu memory",
            "cpu.max": "max 100000",
            "memory.max": "max",
            "memory.current": "123",
        },
    )
    got = read_capacity(root, _proc(tmp_path, "0::/\n"))
    assert (got.cpu_quota, got.memory_limit, got.memory_in_use) == (None, None, None)


def test_cgroup_v2_limit_on_an_ancestor_counts_and_the_tightest_level_wins(
    tmp_path: Path,
) -> None:
    root = tmp_path / "cg"
    _write(
        root,
        {
            "cgroup.controllers": "cpu memory",
            "kubepods/memory.max": str(1024 * MIB),
            "kubepods/memory.current": str(1000 * MIB),  # 24 MiB left: the tightest
            "kubepods/cpu.max": "400000 100000",
            "kubepods/pod1/memory.max": "max",
            "kubepods/pod1/ctr/memory.max": str(512 * MIB),
            "kubepods/pod1/ctr/memory.current": str(100 * MIB),
            "kubepods/pod1/ctr/cpu.max": "50000 100000",
        },
    )
    got = read_capacity(root, _proc(tmp_path, "0::/kubepods/pod1/ctr\n"))
    assert (got.memory_limit, got.memory_in_use) == (1024 * MIB, 1000 * MIB)
    assert got.cpu_quota == 0.5


def test_cgroup_v1_fallbacks_are_read(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    _write(
        root,
        {
            "cpu,cpuacct/cpu.cfs_quota_us": "200000",
            "cpu,cpuacct/cpu.cfs_period_us": "100000",
            "memory/memory.limit_in_bytes": str(256 * MIB),
            "memory/memory.usage_in_bytes": str(100 * MIB),
            "memory/memory.stat": f"cache 5\ntotal_inactive_file {20 * MIB}",
        },
    )
    proc = _proc(tmp_path, "4:memory:/\n2:cpu,cpuacct:/\n0::/\n")
    got = read_capacity(root, proc)
    assert got.cpu_quota == 2.0
    assert (got.memory_limit, got.memory_in_use) == (256 * MIB, 80 * MIB)


def test_cgroup_v1_unlimited_and_no_quota_say_none(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    _write(
        root,
        {
            "cpu/cpu.cfs_quota_us": "-1",
            "cpu/cpu.cfs_period_us": "100000",
            "memory/memory.limit_in_bytes": V1_UNLIMITED,
            "memory/memory.usage_in_bytes": "4096",
        },
    )
    got = read_capacity(root, _proc(tmp_path, "4:memory:/x\n1:cpu:/x\n"))
    assert (got.cpu_quota, got.memory_limit) == (None, None)


def test_missing_or_garbled_files_never_fail(tmp_path: Path) -> None:
    root = tmp_path / "cg"
    _write(root, {"cgroup.controllers": "", "cpu.max": "lots", "memory.max": "a lot"})
    got = read_capacity(root, tmp_path / "no-such-file")
    assert got == Capacity(cpus=got.cpus)
    assert read_capacity(tmp_path / "absent", tmp_path / "absent").memory_limit is None


def test_a_held_slot_is_seen_by_others_and_freed_on_exit(tmp_path: Path) -> None:
    slots = tmp_path / "slots"
    seen: list[list[Reservation]] = []

    def decide(others: list[Reservation], must: bool) -> Reservation:
        seen.append(others)
        return Reservation(3, 30 * MIB)

    with hold_slot(slots, decide) as mine:
        assert mine.workers == 3
        assert [(r.workers, r.bytes, r.pid) for r in running(slots)] == [(3, 30 * MIB, os.getpid())]
        with hold_slot(slots, decide):
            assert len(running(slots)) == 2
        assert seen[-1] == [Reservation(3, 30 * MIB, os.getpid())]
    assert running(slots) == []


def test_decide_may_ask_to_wait_and_must_answer_at_the_deadline(tmp_path: Path) -> None:
    calls: list[bool] = []

    def decide(others: list[Reservation], must: bool) -> Reservation | None:
        calls.append(must)
        return Reservation(1, 1) if must else None

    started = time.monotonic()
    with hold_slot(tmp_path / "slots", decide, max_wait=0.3, poll=0.05):
        pass
    assert time.monotonic() - started >= 0.3
    assert calls[0] is False and calls[-1] is True and len(calls) >= 3


def test_an_unusable_directory_plans_alone(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with hold_slot(blocker / "slots", lambda others, must: Reservation(2, 5)) as held:
        assert held == Reservation(2, 5)


HOLDER = """
import sys, time
from pathlib import Path
from kubectl_dgd.adapters.resources import Reservation, hold_slot
with hold_slot(Path(sys.argv[1]), lambda others, must: Reservation(4, 99)):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_killed_holder_does_not_leak_its_slot(tmp_path: Path) -> None:
    slots = tmp_path / "slots"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(slots)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert [(r.workers, r.bytes, r.pid) for r in running(slots)] == [(4, 99, holder.pid)]
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        assert running(slots) == []
        with hold_slot(slots, lambda others, must: Reservation(1, len(others))) as mine:
            assert mine.bytes == 0  # nobody else counted
        assert sorted(p.name for p in slots.glob("slot-*")) == ["slot-00"]  # the slot reused
    finally:
        holder.kill()
        holder.wait()


def test_total_size_counts_the_files_that_exist(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("x" * 100)
    (tmp_path / "b.yaml").write_text("y" * 23)
    assert total_size([tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "gone.yaml"]) == 123


KEEPER = """
import sys, time
from pathlib import Path
from kubectl_dgd.adapters.resources import Reservation, hold_slot
with hold_slot(Path(sys.argv[1]), lambda o, m: Reservation(8, 100), keep=lambda r: Reservation(r.workers, 7)):
    pass
print("kept", flush=True)
time.sleep(60)
"""


def test_a_kept_slot_records_what_remains_until_the_process_exits(tmp_path: Path) -> None:
    slots = tmp_path / "slots"
    keeper = subprocess.Popen(
        [sys.executable, "-c", KEEPER, str(slots)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert keeper.stdout is not None and keeper.stdout.readline() == "kept\n"
        assert running(slots) == [Reservation(8, 7, keeper.pid)]
        keeper.terminate()
        keeper.wait()
        assert running(slots) == []
    finally:
        keeper.kill()
        keeper.wait()
