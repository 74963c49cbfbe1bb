"""``restart -f`` on one graph of a large file: wall time and peak memory of the console script.

The file is the example graph followed by ConfigMaps until it is just under the 16 MiB input
limit (target: under 5 s). Run alone: ``.venv/bin/python bench/bench_restart_file.py [MiB]``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent

from tests.bad_input.corpus import write_large_file  # noqa: E402


def measure(mebibytes: float) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, exit code) of one ``restart -f`` on a fresh file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        write_large_file(path, mebibytes)
        script = (
            "import resource, subprocess, sys\n"
            "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
            "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
        )
        started = time.perf_counter()
        out = subprocess.run(
            [
                sys.executable,
                "-c",
                script,
                str(BIN / "kubectl-dgd"),
                "restart",
                "-f",
                str(path),
                "--id",
                "bench-1",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        seconds = time.perf_counter() - started
        rc, rss = map(int, out.split())
        return seconds, rss, rc


def run() -> list[tuple[str, str]]:
    seconds, rss, rc = measure(15.9)
    return [
        (
            "restart -f on one graph of a 15.9 MiB file (target < 5 s)",
            f"{seconds:.2f} s, {rss} MB peak RSS, exit {rc}",
        )
    ]


def main() -> None:
    size = float(sys.argv[1]) if len(sys.argv) > 1 else 15.9
    seconds, rss, rc = measure(size)
    print(f"restart -f, {size} MiB: {seconds:.2f} s, {rss} MB peak RSS, exit {rc}")


if __name__ == "__main__":
    main()
