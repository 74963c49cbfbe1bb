"""``generate`` sizes its workers from the sidecar's limits and the generates running beside it.

Run as the repo server runs the plugin, as real processes (they fork, hold slots by pid and
are killed), with a fake cgroup tree given through
``DGD_TEST_CGROUP_ROOT`` (a variable only tests set) and the slot directory in ``TMPDIR``.
What each generate decided is in its slot file (``workers bytes pid``), which stays readable
after it has ended.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kubectl_dgd.adapters.resources import SLOT_DIR_NAME, Reservation, hold_slot, running
from kubectl_dgd.usecases.workers import MIB
from tests.argocd.harness import argocd_env, plugin_spec, run_plugin, write_large_repo

FILES = 60  # above the threshold for workers, small enough to be quick


def _cgroup(tmp_path: Path, limit_mib: int, used_mib: int = 0) -> Path:
    root = tmp_path / "cgroup"
    root.mkdir()
    (root / "cgroup.controllers").write_text("cpu memory\n")
    (root / "cpu.max").write_text("max 100000\n")
    (root / "memory.max").write_text(f"{limit_mib * MIB}\n")
    (root / "memory.current").write_text(f"{used_mib * MIB}\n")
    return root


def _sidecar(tmp_path: Path, limit_mib: int, workers: str = "8") -> dict[str, str]:
    tmp = tmp_path / "sidecar-tmp"
    tmp.mkdir(exist_ok=True)
    return {
        "DGD_TEST_CGROUP_ROOT": str(_cgroup(tmp_path, limit_mib)),
        "TMPDIR": str(tmp),
        "DGD_WORKERS": workers,
    }


def _decided(sidecar: dict[str, str]) -> int:
    """The worker count the generate recorded in its slot (not the test's own slots)."""
    records = [
        [int(field) for field in path.read_text().split()]
        for path in sorted((Path(sidecar["TMPDIR"]) / SLOT_DIR_NAME).glob("slot-*"))
    ]
    (workers,) = [record[0] for record in records if record[2] != os.getpid()]
    return workers


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_large_repo(tmp_path_factory.mktemp("repo"), FILES)


@pytest.fixture(scope="module")
def expected(repo: Path) -> str:
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env={"DGD_WORKERS": "1"})
    assert run.returncode == 0, run.stderr[:2000]
    assert len(run.objects) == FILES
    return run.stdout


def test_a_roomy_sidecar_forks_the_workers_asked_for(
    repo: Path, expected: str, tmp_path: Path
) -> None:
    sidecar = _sidecar(tmp_path, 1024)
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    assert run.returncode == 0, run.stderr[:2000]
    assert _decided(sidecar) == 8
    assert run.stdout == expected


def test_a_tight_memory_limit_checks_in_one_process_with_the_same_output(
    repo: Path, expected: str, tmp_path: Path
) -> None:
    sidecar = _sidecar(tmp_path, 100)
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    assert run.returncode == 0, run.stderr[:2000]
    assert _decided(sidecar) == 1
    assert run.stdout == expected


def test_cgroup_v1_limits_and_a_cpu_quota_are_read_through_the_plugin(
    repo: Path, expected: str, tmp_path: Path
) -> None:
    tmp = tmp_path / "sidecar-tmp"
    tmp.mkdir()
    v1 = tmp_path / "v1"
    (v1 / "memory").mkdir(parents=True)
    (v1 / "memory" / "memory.limit_in_bytes").write_text(f"{1024 * MIB}\n")
    (v1 / "memory" / "memory.usage_in_bytes").write_text(f"{970 * MIB}\n")
    sidecar = {"DGD_TEST_CGROUP_ROOT": str(v1), "TMPDIR": str(tmp), "DGD_WORKERS": "8"}
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    assert run.returncode == 0, run.stderr[:2000]
    assert _decided(sidecar) == 5  # 54 MiB left by the working set, 1.3 for the files
    assert run.stdout == expected
    # Automatic counts follow the CPU quota: one CPU's worth means no workers.
    (v1 / "cpu").mkdir()
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("100000\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    sidecar["DGD_WORKERS"] = ""
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    assert run.returncode == 0, run.stderr[:2000]
    assert _decided(sidecar) == 1


def test_what_running_generates_hold_is_taken_off_the_budget(
    repo: Path, expected: str, tmp_path: Path
) -> None:
    sidecar = _sidecar(tmp_path, 512)
    slots = Path(sidecar["TMPDIR"]) / SLOT_DIR_NAME
    with hold_slot(slots, lambda others, must: Reservation(8, 400 * MIB)):
        run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    assert run.returncode == 0, run.stderr[:2000]
    # 512 - 64 (cmp-server) - 400 (the other) - 25 (this generate) leaves 23 MiB: 2 workers.
    assert _decided(sidecar) == 2
    assert run.stdout == expected


def test_a_full_sidecar_makes_the_next_generate_wait_for_room(
    repo: Path, expected: str, tmp_path: Path
) -> None:
    sidecar = _sidecar(tmp_path, 512)
    slots = Path(sidecar["TMPDIR"]) / SLOT_DIR_NAME
    holding, release = threading.Event(), threading.Event()

    def other_generate() -> None:
        with hold_slot(slots, lambda others, must: Reservation(8, 500 * MIB)):
            holding.set()
            release.wait(10)

    other = threading.Thread(target=other_generate)
    other.start()
    holding.wait(10)
    threading.Timer(1.5, release.set).start()
    started = time.monotonic()
    run = run_plugin(repo, "apps/large", subprocess=True, sidecar_env=sidecar)
    other.join()
    assert run.returncode == 0, run.stderr[:2000]
    assert time.monotonic() - started >= 1.5
    assert _decided(sidecar) == 8  # decided once the other had ended
    assert run.stdout == expected


def test_a_killed_generate_frees_its_slot_and_its_workers_go_with_it(
    repo: Path, tmp_path: Path
) -> None:
    """The OOM killer or Argo CD's timeout may kill a generate: its slot must not leak."""
    write_large_repo(tmp_path / "big", 400)
    sidecar = _sidecar(tmp_path, 1024, workers="2")
    slots = Path(sidecar["TMPDIR"]) / SLOT_DIR_NAME
    step = plugin_spec()["generate"]
    proc = subprocess.Popen(
        [*step["command"], *step.get("args", [])],
        cwd=tmp_path / "big" / "apps" / "large",
        env=argocd_env("apps/large", sidecar_env=sidecar),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not _children_of(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children_of(proc.pid)
        assert workers, "the generate never forked its workers"
        assert [r.pid for r in running(slots)] == [proc.pid]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 20
        while running(slots) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert running(slots) == []
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        proc.kill()
        proc.wait()


def _children_of(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"
