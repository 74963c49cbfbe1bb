"""Argo CD plugin under a refresh storm: 8 concurrent ``dgd-argocd generate`` over one 2000-file app.

The cmp-server runs every request of the repo server at once in one sidecar, under one memory
limit (512Mi in argocd-plugin/kustomize/repo-server-patch.yaml). This starts 8 generates at the
same instant, each in the application path as the cmp-server would, and samples every process
of the 8 trees (the generates and the workers they fork): the peak of their summed
proportional set size (PSS, shared pages split between the processes mapping them: the
figure closest to what the cgroup charges) and of their summed RSS (an upper bound).

Scenarios:
- before: the code of ``--before`` (default: main when the adaptive parallelism was started),
  as it forks by default here, and with ``DGD_WORKERS=8``, which is what it forks on any node
  with 8 CPUs or more when the sidecar has no CPU limit (the shipped patch sets none).
- after: this tree, with a fake cgroup (``DGD_TEST_CGROUP_ROOT``) that sets the documented
  limit and whose ``memory.current`` follows the sampled PSS, the way the kernel would; by
  default and with ``DGD_WORKERS=8``. The generates share a slot directory (``TMPDIR``).

Every generate's output is compared: all scenarios must print the same bytes.
Figures only, no assertions: .venv/bin/python bench/bench_argocd_concurrency.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BEFORE_REF = "6f019c5"
LIMIT_MIB = 512
MIB = 1 << 20
PLUGIN = [sys.executable, "-c", "from kubectl_dgd.argocd.entry import main; main()", "generate"]


@dataclass
class Storm:
    peak_pss: int = 0  # KiB
    peak_rss: int = 0  # KiB
    peak_uss: int = 0  # KiB, private pages only
    peak_processes: int = 0
    samples: int = 0
    seconds: float = 0.0
    digests: set[str] = field(default_factory=set)


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc/*/stat (field 4 after the command's parenthesis)."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as fh:
                ppid = int(fh.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def _memory_kib(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, USS) in KiB of one process; zeros once it has gone."""
    rss = pss = uss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith(("Private_Clean:", "Private_Dirty:")):
                    uss += int(line.split()[1])
    except (OSError, ValueError):
        pass
    return rss, pss, uss


def storm(app: Path, env: dict[str, str], count: int, out: Path, current: Path | None) -> Storm:
    """Start ``count`` generates at once and sample their process trees until all have ended.
    ``current``: a fake cgroup's memory.current, rewritten with each sample."""
    result = Storm()
    outputs = [out / f"out-{i}.yaml" for i in range(count)]
    started = time.perf_counter()
    procs = []
    for path in outputs:
        with open(path, "wb") as fh:
            # Its own process group, as the cmp-server starts commands (and kills them).
            procs.append(
                subprocess.Popen(
                    PLUGIN,
                    cwd=app,
                    env=env,
                    stdout=fh,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            tree = _children()
            todo, seen = [p.pid for p in procs], []
            while todo:
                pid = todo.pop()
                seen.append(pid)
                todo.extend(tree.get(pid, []))
            sizes = [_memory_kib(pid) for pid in seen]
            rss, pss = sum(s[0] for s in sizes), sum(s[1] for s in sizes)
            result.peak_uss = max(result.peak_uss, sum(s[2] for s in sizes))
            if current is not None:
                current.write_text(f"{pss * 1024}\n")
            result.peak_rss = max(result.peak_rss, rss)
            result.peak_pss = max(result.peak_pss, pss)
            result.peak_processes = max(result.peak_processes, sum(1 for s in sizes if s[0]))
            result.samples += 1
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        codes = [proc.wait() for proc in procs]
        result.seconds = time.perf_counter() - started
    finally:
        done.set()
        sampler.join()
        for proc in procs:  # interrupted: leave no generate or worker behind
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    if any(codes):
        raise SystemExit(f"a generate failed: exit codes {codes}")
    result.digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in outputs}
    return result


def fake_cgroup(root: Path, limit_mib: int) -> Path:
    """A cgroup v2 tree with a memory limit and no CPU limit; returns its memory.current."""
    root.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu memory\n")
    (root / "cpu.max").write_text("max 100000\n")
    (root / "memory.max").write_text(f"{limit_mib * MIB}\n")
    (root / "memory.current").write_text("0\n")
    return root / "memory.current"


def before_tree(ref: str, target: Path) -> Path | None:
    """The package as it was at ``ref`` (git archive), or None without git or that commit."""
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "kubectl_dgd"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


# What a generate imports, lazily ones included (the validation pipeline loads at the first file).
_IMPORTS_OF_A_GENERATE = (
    "import kubectl_dgd.argocd.main, kubectl_dgd.usecases.generate, "
    "kubectl_dgd.core.validate.pipeline, kubectl_dgd.adapters.crdfile"
)


def unimportable(tree: Path) -> str | None:
    """Why the old package cannot run with this venv (e.g. a dependency since dropped: the
    code of 6f019c5 imports semver), or None when it can."""
    probe = subprocess.run(
        [sys.executable, "-c", _IMPORTS_OF_A_GENERATE],
        env=os.environ | {"PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode == 0:
        return None
    lines = probe.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit code {probe.returncode}"


def scenarios(tmp: Path, ref: str, limit_mib: int) -> list[tuple[str, dict[str, str], Path | None]]:
    """(label, extra environment, fake memory.current) of each scenario to run."""
    from tests.argocd.harness import argocd_env

    base = argocd_env("apps/large")
    chosen: list[tuple[str, dict[str, str], Path | None]] = []
    old = before_tree(ref, tmp / "before")
    if old is not None and (why := unimportable(old)) is not None:
        print(f"before ({ref}): skipped, its code does not import here: {why}", file=sys.stderr)
        old = None
    if old is not None:
        # PYTHONPATH comes before the editable install's finder, so the old package is used.
        old_env = base | {"PYTHONPATH": str(old)}
        chosen.append((f"before ({ref}), default workers", old_env, None))
        chosen.append((f"before ({ref}), DGD_WORKERS=8", old_env | {"DGD_WORKERS": "8"}, None))
    for label, extra in (
        ("after, default workers", {}),
        ("after, DGD_WORKERS=8", {"DGD_WORKERS": "8"}),
    ):
        slug = "w8" if extra else "auto"
        current = fake_cgroup(tmp / f"cgroup-{slug}", limit_mib)
        slots = tmp / f"tmp-{slug}"
        slots.mkdir()
        env = base | extra | {"DGD_TEST_CGROUP_ROOT": str(current.parent), "TMPDIR": str(slots)}
        chosen.append((label, env, current))
    return chosen


def costs(app: Path, files: int, tmp: Path) -> list[tuple[str, str]]:
    """What one generate costs alone, in one process and with 8 workers: the per-file and
    per-worker figures usecases/workers.py plans with (unique pages: USS; and PSS)."""
    from tests.argocd.harness import argocd_env

    alone: dict[int, Storm] = {}
    for workers in (1, 8):
        slots = tmp / f"tmp-cost-{workers}"
        slots.mkdir()
        sidecar = {"DGD_WORKERS": str(workers), "TMPDIR": str(slots)}
        out = tmp / f"out-cost-{workers}"
        out.mkdir()
        alone[workers] = storm(app, argocd_env("apps/large", sidecar_env=sidecar), 1, out, None)
    one, eight = alone[1], alone[8]
    return [
        (
            f"one generate alone, {files} files, one process",
            f"PSS {one.peak_pss / 1024:.1f} MiB, USS {one.peak_uss / 1024:.1f} MiB",
        ),
        (
            f"one generate alone, {files} files, 8 workers",
            f"PSS {eight.peak_pss / 1024:.1f} MiB, USS {eight.peak_uss / 1024:.1f} MiB: "
            f"{(eight.peak_pss - one.peak_pss) / 8 / 1024:.1f} MiB PSS, "
            f"{(eight.peak_uss - one.peak_uss) / 8 / 1024:.1f} MiB USS per worker",
        ),
    ]


def measure(
    files: int, count: int, repeats: int, ref: str, limit_mib: int, only: str = ""
) -> Iterator[tuple[str, str]]:
    """The figures, row by row as they are measured."""
    from tests.argocd.harness import write_large_repo

    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        write_large_repo(tmp / "repo", files)
        app = tmp / "repo" / "apps" / "large"
        size = sum(p.stat().st_size for p in app.glob("*.yaml"))
        yield ("input", f"{files} graph files of 5 components, {size / MIB:.1f} MiB")
        yield ("storm", f"{count} concurrent generates, {repeats} repeat(s), limit {limit_mib} MiB")
        yield from costs(app, files, tmp)
        digests: set[str] = set()
        results: dict[str, list[Storm]] = {}
        every = scenarios(tmp, ref, limit_mib)
        if not any(label.startswith("before") for label, _, _ in every):
            yield ("before", f"skipped: git archive {ref} failed, or its code does not import here")
        chosen = [s for s in every if only in s[0]]
        for repeat in range(repeats):  # interleaved, so a noisy minute spreads over all
            for label, env, current in chosen:
                out = tmp / f"out-{repeat}-{len(results.get(label, []))}-{abs(hash(label))}"
                out.mkdir()
                got = storm(app, env, count, out, current)
                digests |= got.digests
                results.setdefault(label, []).append(got)
                yield (
                    f"  run {repeat + 1}: {label}",
                    f"peak PSS {got.peak_pss / 1024:.0f} MiB, {got.seconds:.1f} s, "
                    f"{got.samples} samples",
                )
        for label, runs in results.items():
            pss = [r.peak_pss / 1024 for r in runs]
            rss = [r.peak_rss / 1024 for r in runs]
            uss = [r.peak_uss / 1024 for r in runs]
            secs = [r.seconds for r in runs]
            verdict = "under" if max(pss) < limit_mib else "OVER"
            yield (
                label,
                f"peak PSS {statistics.median(pss):.0f} MiB (min {min(pss):.0f}, max "
                f"{max(pss):.0f}; {verdict} {limit_mib}), USS {statistics.median(uss):.0f}, "
                f"RSS {statistics.median(rss):.0f} MiB, up to {max(r.peak_processes for r in runs)} processes, "
                f"{statistics.median(secs):.1f} s (min {min(secs):.1f}, max {max(secs):.1f})",
            )
        yield ("outputs", "identical" if len(digests) == 1 else f"DIFFER: {len(digests)} variants")


def run() -> list[tuple[str, str]]:
    """For bench/run.py: the default storm, three repeats."""
    return list(measure(2000, 8, 3, BEFORE_REF, LIMIT_MIB))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default=BEFORE_REF, help="git ref of the code to compare")
    parser.add_argument("--limit-mib", type=int, default=LIMIT_MIB)
    parser.add_argument("--only", default="", help="run the scenarios whose label has this")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the storms clean up
    for label, value in measure(
        args.files, args.concurrent, args.repeats, args.before, args.limit_mib, args.only
    ):
        print(f"{label:36}  {value}", flush=True)


if __name__ == "__main__":
    main()
