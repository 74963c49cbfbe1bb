"""usecases/workers.py: how many workers a generate forks, from limits and the running others."""

from __future__ import annotations

from pathlib import Path

from kubectl_dgd.adapters.resources import Capacity, Reservation, read_capacity
from kubectl_dgd.usecases.workers import (
    INPUT_FACTOR,
    MAX_WORKERS,
    MIB,
    PARALLEL_MIN_FILES,
    PROCESS_BYTES,
    SIDECAR_BYTES,
    WORKER_BYTES,
    WorkerRequest,
    own_bytes,
    plan_workers,
)

LARGE = 2000
LARGE_INPUT = 3 * MIB  # 2000 five-component graph files
NO_LIMIT = Capacity(cpus=16)
SIDECAR_512 = Capacity(cpus=16, memory_limit=512 * MIB)


def _plan(
    capacity: Capacity, others: list[Reservation] | None = None, wanted: int = 0, files: int = LARGE
) -> Reservation | None:
    size = LARGE_INPUT * files // LARGE
    return plan_workers(WorkerRequest(files, size, wanted, capacity), others or [], must=False)


def _workers(*args: object, **kwargs: object) -> int:
    got = _plan(*args, **kwargs)  # type: ignore[arg-type]
    assert got is not None
    return got.workers


def test_small_applications_never_fork() -> None:
    assert _workers(NO_LIMIT, files=PARALLEL_MIN_FILES - 1) == 1
    assert _workers(NO_LIMIT, files=PARALLEL_MIN_FILES) == MAX_WORKERS


def test_dgd_workers_1_turns_workers_off_and_n_is_an_upper_bound() -> None:
    assert _workers(NO_LIMIT, wanted=1) == 1
    assert _workers(Capacity(cpus=2), wanted=5) == 5  # the operator's choice, not the CPUs'
    assert _workers(SIDECAR_512, wanted=50) == (
        512 * MIB - SIDECAR_BYTES - own_bytes(LARGE_INPUT)
    ) // (WORKER_BYTES)


def test_cpus_bound_the_count_affinity_and_quota_alike() -> None:
    assert _workers(Capacity(cpus=3)) == 3
    assert _workers(Capacity(cpus=64)) == MAX_WORKERS
    assert _workers(Capacity(cpus=64, cpu_quota=2.5)) == 3  # a partial CPU still runs a worker
    assert _workers(Capacity(cpus=2, cpu_quota=6.0)) == 2  # the affinity mask is tighter
    assert _workers(Capacity(cpus=64, cpu_quota=1.0)) == 1


def test_concurrent_generates_share_the_cpus() -> None:
    busy = [Reservation(1, 50 * MIB)] * 3
    assert _workers(Capacity(cpus=8), busy) == 2
    assert _workers(Capacity(cpus=8), busy * 3) == 1  # more generates than CPUs: no workers


def test_memory_bounds_the_count_in_whole_workers() -> None:
    room = 300 * MIB
    limit = SIDECAR_BYTES + own_bytes(LARGE_INPUT) + room
    assert _workers(Capacity(cpus=64, memory_limit=limit)) == min(MAX_WORKERS, room // WORKER_BYTES)
    limit = SIDECAR_BYTES + own_bytes(LARGE_INPUT) + 3 * WORKER_BYTES + WORKER_BYTES // 2
    assert _workers(Capacity(cpus=64, memory_limit=limit)) == 3
    limit = SIDECAR_BYTES + own_bytes(LARGE_INPUT) + WORKER_BYTES  # one worker is slower than none
    assert _workers(Capacity(cpus=64, memory_limit=limit)) == 1


def test_the_others_reservations_are_taken_off_the_limit() -> None:
    others = [Reservation(8, 150 * MIB), Reservation(1, 200 * MIB)]
    left = 512 * MIB - SIDECAR_BYTES - 350 * MIB - own_bytes(LARGE_INPUT)
    assert _workers(SIDECAR_512, others, wanted=8) == left // WORKER_BYTES


def test_the_working_set_counts_memory_nobody_reserved() -> None:
    capacity = Capacity(cpus=64, memory_limit=512 * MIB, memory_in_use=400 * MIB)
    left = 512 * MIB - 400 * MIB - INPUT_FACTOR * LARGE_INPUT
    assert _workers(capacity) == left // WORKER_BYTES


def test_the_reservation_is_the_process_its_files_and_its_workers() -> None:
    got = _plan(Capacity(cpus=4))
    assert got == Reservation(4, PROCESS_BYTES + INPUT_FACTOR * LARGE_INPUT + 4 * WORKER_BYTES)
    assert _plan(Capacity(cpus=4), wanted=1) == Reservation(1, own_bytes(LARGE_INPUT))


def test_no_room_for_even_one_process_waits_while_others_run() -> None:
    full = [Reservation(8, 512 * MIB - SIDECAR_BYTES - own_bytes(LARGE_INPUT) + 1)]
    assert _plan(SIDECAR_512, full) is None
    forced = plan_workers(WorkerRequest(LARGE, LARGE_INPUT, 0, SIDECAR_512), full, must=True)
    assert forced == Reservation(1, own_bytes(LARGE_INPUT))
    # Alone there is nobody to wait for: a limit below one process runs anyway, without workers.
    alone = plan_workers(
        WorkerRequest(LARGE, LARGE_INPUT, 0, Capacity(cpus=8, memory_limit=MIB)), [], False
    )
    assert alone == Reservation(1, own_bytes(LARGE_INPUT))


def test_eight_large_generates_arriving_one_by_one_stay_within_the_limit() -> None:
    """The storm of the benchmark, decided in order: the sum of reservations never passes the
    limit minus the cmp-server's share, and those without room wait."""
    held: list[Reservation] = []
    waiting = 0
    for _ in range(8):
        got = _plan(SIDECAR_512, held, wanted=8)
        if got is None:
            waiting += 1
            continue
        held.append(got)
        assert sum(r.bytes for r in held) <= 512 * MIB - SIDECAR_BYTES
    assert held[0].workers == MAX_WORKERS
    assert len(held) + waiting == 8 and len(held) >= 2


def test_the_decision_from_a_fake_cgroup_tree(tmp_path: Path) -> None:
    """The adapter's reading feeds the decision: a 192 MiB container with 1.5 CPUs."""
    root = tmp_path / "cg"
    root.mkdir()
    (root / "cgroup.controllers").write_text("cpu memory\n")
    (root / "cpu.max").write_text("150000 100000\n")
    (root / "memory.max").write_text(f"{192 * MIB}\n")
    (root / "memory.current").write_text(f"{30 * MIB}\n")
    proc = tmp_path / "cgroup"
    proc.write_text("0::/\n")
    capacity = read_capacity(root, proc)
    cpus = min(2, capacity.cpus)
    assert _workers(capacity) == (cpus if cpus >= 2 else 1)
    by_memory = (192 * MIB - SIDECAR_BYTES - own_bytes(LARGE_INPUT)) // WORKER_BYTES
    assert 2 <= by_memory < 8
    assert _workers(capacity, wanted=8) == by_memory


def test_memory_is_planned_by_the_manifests_size_not_their_count() -> None:
    """Fifty files of 62 MiB in all weigh what about 40 000 small graph files would."""
    capacity = Capacity(cpus=64, memory_limit=1024 * MIB)
    few_small = plan_workers(WorkerRequest(50, 75 * 1024, 8, capacity), [], must=False)
    few_large = plan_workers(WorkerRequest(50, 62 * MIB, 8, capacity), [], must=False)
    assert few_small is not None and few_large is not None
    assert few_small.workers == 8
    left = 1024 * MIB - SIDECAR_BYTES - own_bytes(62 * MIB)
    assert few_large.workers == left // WORKER_BYTES < 8
    assert few_large.bytes - few_small.bytes > 600 * MIB
