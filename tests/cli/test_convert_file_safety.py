"""``convert --in-place`` under concurrency, driven through the console script, as
test_restart_file_safety.py drives ``restart -f``.

Each test reproduces a failure found by an adversarial run: a ``restart -f`` running beside
convert printed "updated", exited 0 and lost its change (9 runs of 20); an edit saved while
convert ran was overwritten; ``--in-place -f /dev/stdin`` rewrote the redirected file.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from tests.cli.test_restart_file_safety import (
    _IN_ACCESS,
    _inotify,
    _leftovers,
    _popen,
    _wait_event,
)
from tests.conftest import BIN, EXAMPLES, ROOT

ALPHA = (ROOT / "tests" / "fixtures" / "alpha" / "vllm-agg.yaml").read_text()
BETA = (EXAMPLES / "vllm-agg.yaml").read_text().replace("name: vllm-agg", "name: beta", 1)


def _many_alpha_graphs(count: int) -> str:
    """v1alpha1 graphs enough to keep convert busy for a while, then one v1beta1 graph."""
    graphs = [ALPHA.replace("name: vllm-agg", f"name: alpha-{i}", 1) for i in range(count)]
    return "---\n".join([*graphs, BETA])


def test_a_restart_beside_convert_in_place_lands_or_fails_loudly(tmp_path: Path) -> None:
    """Both edit one file at once: every run that says it wrote must find its edit there."""
    target = tmp_path / "graphs.yaml"
    for round_ in range(6):
        target.write_text(_many_alpha_graphs(3))
        convert = _popen("convert", "-f", str(target), "--in-place")
        time.sleep(0.05 * round_)  # the restart lands at a different point of each run
        restart = _popen("restart", "-f", str(target), "--name", "beta", "--id", f"r-{round_}")
        for proc in (convert, restart):
            _, err = proc.communicate(timeout=120)
            assert "Traceback" not in err
            if proc.returncode != 0:
                assert proc.returncode == 1 and len(err.strip().splitlines()) == 1, err
                assert "changed by someone else" in err
        final = target.read_text()
        if restart.returncode == 0:
            assert f"id: r-{round_}" in final, "restart -f said updated, its edit is gone"
        if convert.returncode == 0:
            assert "nvidia.com/v1alpha1" not in final, "convert said updated, its edit is gone"
        assert _leftovers(tmp_path) == []


def test_an_edit_saved_while_convert_runs_is_kept_and_reported(tmp_path: Path) -> None:
    target = tmp_path / "graphs.yaml"
    target.write_text(_many_alpha_graphs(40))
    original = target.read_bytes()
    with _inotify(target, _IN_ACCESS) as events:
        proc = _popen("convert", "-f", str(target), "--in-place")
        assert _wait_event(events, 60), "convert never read the file"
        time.sleep(0.05)
        # Forty graphs are validated twice each before the write: it is still running.
        assert proc.poll() is None, "convert finished before the other writer could edit"
        with target.open("ab") as fh:
            fh.write(b"# their edit\n")
        _, err = proc.communicate(timeout=120)
    final = target.read_bytes()
    assert final == original + b"# their edit\n", "the other writer's edit was overwritten"
    assert proc.returncode == 1
    lines = err.strip().splitlines()
    assert "changed by someone else" in lines[-1] and "Traceback" not in err, err
    assert _leftovers(tmp_path) == []


def test_in_place_on_dev_stdin_is_refused_and_the_redirected_file_is_unchanged(
    tmp_path: Path,
) -> None:
    source = tmp_path / "a.yaml"
    source.write_text(ALPHA)
    with source.open() as fh:
        proc = subprocess.run(
            [str(BIN / "kubectl-dgd"), "convert", "--in-place", "-f", "/dev/stdin"],
            stdin=fh,
            capture_output=True,
            text=True,
            check=False,
        )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: --in-place needs a file, not standard input"
    ]
    assert source.read_text() == ALPHA
