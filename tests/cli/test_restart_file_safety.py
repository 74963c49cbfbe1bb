"""``restart -f`` under concurrency, signals and odd files, driven through the console script.

Each test reproduces a failure found by an adversarial run: two concurrent runs losing one
restart, an edit made by someone else during a slow run being overwritten, ``-`` and
``/dev/stdin`` rewriting files, FIFOs hanging, a temporary file left behind on SIGTERM, owner,
mode and xattrs lost, read-only files and hard links replaced without a word, and a 16 MiB
file taking minutes.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import stat
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.bad_input.corpus import write_large_file
from tests.conftest import BIN, EXAMPLES, run_cli

GRAPH = (EXAMPLES / "vllm-agg.yaml").read_text()


def _two_graphs() -> str:
    second = GRAPH.replace("name: vllm-agg", "name: other", 1)
    return GRAPH + "---\n" + second


def _popen(*args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARGOCD_", "KUBECONFIG"))}
    env.update({"NO_COLOR": "1", "TZ": "UTC"})
    return subprocess.Popen(
        [str(BIN / "kubectl-dgd"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_two_concurrent_restarts_of_one_file_both_land_or_one_fails_loudly(
    tmp_path: Path,
) -> None:
    target = tmp_path / "graphs.yaml"
    for round_ in range(6):
        target.write_text(_two_graphs())
        runs = {
            f"a-{round_}": _popen(
                "restart", "-f", str(target), "--name", "vllm-agg", "--id", f"a-{round_}"
            ),
            f"b-{round_}": _popen(
                "restart", "-f", str(target), "--name", "other", "--id", f"b-{round_}"
            ),
        }
        final = None
        for restart_id, proc in runs.items():
            out, err = proc.communicate(timeout=120)
            final = target.read_text()
            assert "Traceback" not in err
            if proc.returncode == 0:
                assert f"id: {restart_id}" in target.read_text(), (restart_id, out, err)
            else:
                assert len(err.strip().splitlines()) == 1, err
        assert final is not None
        assert run_cli("validate", str(target)).returncode in (0, 1)
        assert _leftovers(tmp_path) == []


_IN_ACCESS, _IN_CREATE = 0x1, 0x100


@contextmanager
def _inotify(path: Path, mask: int) -> Iterator[int]:
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_CLOEXEC)
    assert fd >= 0
    try:
        assert libc.inotify_add_watch(fd, str(path).encode(), mask) >= 0
        yield fd
    finally:
        os.close(fd)


def _wait_event(fd: int, timeout: float) -> bool:
    ready, _, _ = select.select([fd], [], [], timeout)
    if ready:
        os.read(fd, 65536)
    return bool(ready)


@pytest.mark.parametrize("how", ["append", "rename"])
def test_an_edit_made_by_someone_else_during_a_slow_run_is_kept_and_reported(
    tmp_path: Path, how: str
) -> None:
    target = tmp_path / "big.yaml"
    write_large_file(target, 6)
    original = target.read_bytes()
    with _inotify(target, _IN_ACCESS) as events:
        proc = _popen("restart", "-f", str(target), "--id", "mine")
        assert _wait_event(events, 60), "restart -f never read the file"
        time.sleep(0.05)  # its read is under way; parsing 6 MiB takes it longer than this
        # The other writer must land mid-run, or this tests nothing: a writer that takes no
        # lock and saves after we finished overwrites us, and no tool can prevent that.
        assert proc.poll() is None, "restart -f finished before the other writer could edit"
        # The other writer: an editor saving (rename) or a script appending, mid-run.
        if how == "append":
            with target.open("ab") as fh:
                fh.write(b"# their edit\n")
        else:
            other = tmp_path / "big.yaml.new"
            other.write_bytes(original + b"# their edit\n")
            other.replace(target)
        _, err = proc.communicate(timeout=120)
    final = target.read_bytes()
    assert b"# their edit\n" in final, "the other writer's edit was overwritten"
    if proc.returncode == 0:  # it read their edit too (it landed before the read ended)
        assert b"id: mine" in final
    else:
        assert final == original + b"# their edit\n"
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "changed by someone else" in lines[0], err
    assert _leftovers(tmp_path) == []


def test_dash_reads_stdin_and_prints_the_edited_stream_leaving_a_file_named_dash(
    tmp_path: Path,
) -> None:
    dash = tmp_path / "-"
    dash.write_text("not yours\n")
    result = run_cli("restart", "-f", "-", "--id", "piped", stdin=GRAPH, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert dash.read_text() == "not yours\n"
    assert "  restart:\n    id: piped\n" in result.stdout
    assert result.stdout.startswith(GRAPH.split("spec:")[0])
    assert "updated" not in result.stdout + result.stderr


def test_dev_stdin_prints_the_edited_stream_and_leaves_the_redirected_file(
    tmp_path: Path,
) -> None:
    source = tmp_path / "src.yaml"
    source.write_text(GRAPH)
    with source.open() as fh:
        proc = subprocess.run(
            [str(BIN / "kubectl-dgd"), "restart", "-f", "/dev/stdin", "--id", "piped"],
            stdin=fh,
            capture_output=True,
            text=True,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr
    assert source.read_text() == GRAPH
    assert "    id: piped\n" in proc.stdout


@pytest.mark.parametrize("command", [["restart", "-f"], ["validate"], ["render"], ["status", "-f"]])
def test_a_fifo_named_yaml_is_refused_in_one_line_not_waited_on(
    tmp_path: Path, command: list[str]
) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = run_cli(*command, str(fifo), timeout=30)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if "pipe.yaml" in line]
    assert len(lines) == 1 and "not a regular file" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_a_fifo_in_a_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "graph.yaml").write_text(GRAPH)
    os.mkfifo(tmp_path / "pipe.yaml")
    result = run_cli("validate", str(tmp_path), timeout=30)
    assert result.returncode == 2
    assert "not a regular file" in result.stdout + result.stderr


def test_mode_owner_and_xattrs_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text(GRAPH)
    target.chmod(0o640)
    try:
        os.setxattr(target, "user.reviewed-by", b"ops")
    except OSError:
        pytest.skip("no user xattrs on this file system")
    if os.geteuid() == 0:
        os.chown(target, 12345, 23456)
    before = target.stat()
    result = run_cli("restart", "-f", str(target), "--id", "kept")
    assert result.returncode == 0, result.stderr
    after = target.stat()
    assert stat.S_IMODE(after.st_mode) == 0o640
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert os.getxattr(target, "user.reviewed-by") == b"ops"
    assert "id: kept" in target.read_text()


def test_a_read_only_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text(GRAPH)
    target.chmod(0o444)
    result = run_cli("restart", "-f", str(target), "--id", "x")
    assert result.returncode == 2
    assert "read-only" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert target.read_text() == GRAPH


def test_a_hard_linked_file_is_refused_instead_of_split(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text(GRAPH)
    os.link(target, tmp_path / "twin.yaml")
    result = run_cli("restart", "-f", str(target), "--id", "x")
    assert result.returncode == 2
    assert "hard links" in result.stderr
    assert target.read_text() == GRAPH == (tmp_path / "twin.yaml").read_text()


def test_sigterm_while_writing_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "big.yaml"
    write_large_file(target, 6)
    original = target.read_bytes()
    with _inotify(tmp_path, _IN_CREATE) as events:
        proc = _popen("restart", "-f", str(target), "--id", "term")
        assert _wait_event(events, 60), "no temporary file was created"
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    assert proc.returncode in (-signal.SIGTERM, 0, 128 + signal.SIGTERM)
    assert _leftovers(tmp_path) == []
    assert target.read_bytes() == original or b"id: term" in target.read_bytes()


def test_restart_on_one_graph_of_a_large_file_is_linear(tmp_path: Path) -> None:
    """Was about 15 s per MiB (220 s for 16 MiB); now a few seconds for the largest file."""
    target = tmp_path / "big.yaml"
    write_large_file(target, 15.9)
    started = time.monotonic()
    result = run_cli("restart", "-f", str(target), "--id", "fast", timeout=120)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert elapsed < 30, f"{elapsed:.1f} s"
    text = target.read_text()
    assert "    id: fast\n" in text and text.count("kind: ConfigMap") > 90_000


def test_a_malformed_document_beside_the_graph_refuses_the_edit(tmp_path: Path) -> None:
    """restart -f never writes a file validate cannot read (here a ConfigMap with a duplicate
    key next to the graph): the file is read whole first, as validate reads it."""
    target = tmp_path / "mixed.yaml"
    text = GRAPH + "---\napiVersion: v1\nkind: ConfigMap\ndata:\n  a: 1\n  a: 2\n"
    target.write_text(text)
    result = run_cli("restart", "-f", str(target), "--id", "x")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {target}:{GRAPH.count(chr(10)) + 6}: duplicate key 'a'"
    ]
    assert target.read_text() == text


@pytest.mark.parametrize(
    "kind",
    ['"DynamoGraph\\x44eployment"', "!!str DynamoGraphDeployment", "&k DynamoGraphDeployment"],
    ids=["escaped", "tagged", "anchored"],
)
def test_in_a_large_file_a_graph_whatever_its_kind_spelling_is_found(
    tmp_path: Path, kind: str
) -> None:
    """Large files skip documents plainly of another kind: anything unusual is parsed."""
    target = tmp_path / "big.yaml"
    write_large_file(target, 0.5)
    text = target.read_text().replace("kind: DynamoGraphDeployment", f"kind: {kind}", 1)
    target.write_text("---\n".join(text.split("---\n")[1:]) + "---\n" + text.split("---\n")[0])
    result = run_cli("restart", "-f", str(target), "--id", "found")
    assert result.returncode == 0, result.stderr
    assert "    id: found\n" in target.read_text()
