"""``status --watch`` and ``rollout status``/``explain`` with the simulated operator."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from typing import Any

from tests.apiserver.operator_sim import OperatorSim
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NOW, NS, dgd, graph
from tests.conftest import BIN, assert_golden, assert_installed_checkout


def _env(server: ApiServer) -> dict[str, str]:
    """For the real console script (these tests need a process: SIGINT, a terminal)."""
    assert server.kubeconfig is not None
    assert_installed_checkout()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KUBECONFIG")}
    env.update(
        {
            "KUBECONFIG": str(server.kubeconfig),
            "HOME": str(server.kubeconfig.parent),
            "NO_COLOR": "1",
            "DGD_NOW": NOW,
            # a child that hangs is sent SIGABRT (see _interrupt): it prints every thread's stack
            "PYTHONFAULTHANDLER": "1",
        }
    )
    return env


def _interrupt(proc: subprocess.Popen[Any], timeout: float = 20) -> tuple[Any, Any]:
    """Ctrl-C, and the child's output; a child still running after ``timeout`` fails the test
    with its stacks (faulthandler's answer to SIGABRT) instead of a bare TimeoutExpired."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=10)
        stacks = err.decode() if isinstance(err, bytes) else str(err)
        raise AssertionError(f"no exit {timeout}s after SIGINT; its stacks:\n{stacks}") from None


def _write(server: ApiServer, change: Any, name: str = "my-graph") -> None:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    server.store.patch(rt, NS, name, change)


class Lines:
    """Lines of a child's stdout, read by a thread (select on a buffered text pipe is unreliable)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        stream = proc.stdout
        self.seen = ""
        self.thread = threading.Thread(
            target=lambda: [self.queue.put(line) for line in stream], daemon=True
        )
        self.thread.start()

    def until(self, needle: str, timeout: float = 20) -> str:
        seen = ""
        deadline = time.monotonic() + timeout
        while needle not in seen and time.monotonic() < deadline:
            try:
                seen += self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
        assert needle in seen, seen
        self.seen += seen
        return seen

    def all(self, timeout: float = 60) -> str:
        """Everything read so far and up to the end of the stream."""
        self.thread.join(timeout)
        while not self.queue.empty():
            self.seen += self.queue.get()
        return self.seen


def _start(server: ApiServer, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(BIN / "kubectl-dgd"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(server),
    )


def _new_worker_image(obj: dict[str, Any]) -> dict[str, Any]:
    obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "nvcr.io/dynamo:1.5.1"
    )
    return obj


def test_status_watch_prints_a_block_per_change_when_piped_and_ctrl_c_exits_130(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    proc = _start(apiserver, "status", "my-graph", "--watch")
    lines = Lines(proc)
    try:
        first = lines.until("the operator reported no GPU figures")
        assert "State:        successful" in first
        assert "\x1b[" not in first  # no screen control codes when piped
        apiserver.clear_log()

        rt = apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
        assert rt is not None
        status = apiserver.store.get(rt, NS, "my-graph")["status"]
        apiserver.store.write_status(rt, NS, "my-graph", {**status, "state": "pending"})
        second = lines.until("State:        pending")
        assert second.startswith("\n")  # blocks are separated by a blank line
        assert not [
            r for r in apiserver.request_log if r.verb in ("get", "list")
        ]  # a watch, not polling
    finally:
        _, err = _interrupt(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err


def test_status_watch_ends_on_ctrl_c_even_when_started_with_sigint_ignored(
    apiserver: ApiServer,
) -> None:
    """A background job of a non-interactive shell (and some CI runners) starts with SIGINT
    ignored; Python keeps it ignored, so the watch used to sit in its read for ever (the
    "status --watch does not exit within 20 s of SIGINT" failures when pytest ran so)."""
    apiserver.seed(graph())
    ignoring = ["sh", "-c", 'trap "" INT; exec "$0" "$@"']  # exec keeps SIGINT ignored
    proc = subprocess.Popen(
        [*ignoring, str(BIN / "kubectl-dgd"), "status", "my-graph", "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(apiserver),
    )
    lines = Lines(proc)
    try:
        lines.until("the operator reported no GPU figures")
    finally:
        _, err = _interrupt(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err


def test_status_watch_piped_as_yaml_or_json_is_a_stream_a_parser_reads(
    apiserver: ApiServer,
) -> None:
    import json

    import yaml

    apiserver.seed(graph())
    rt = apiserver.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    for output in ("yaml", "json"):
        status = apiserver.store.get(rt, NS, "my-graph")["status"]
        apiserver.store.write_status(rt, NS, "my-graph", {**status, "state": "successful"})
        proc = _start(apiserver, "status", "my-graph", "--watch", "-o", output)
        lines = Lines(proc)
        try:
            lines.until("successful")
            status = apiserver.store.get(rt, NS, "my-graph")["status"]
            apiserver.store.write_status(rt, NS, "my-graph", {**status, "state": "pending"})
            lines.until("pending")
        finally:
            _interrupt(proc)
        text = lines.all()
        if output == "yaml":
            documents = list(yaml.safe_load_all(text))
        else:
            decoder, documents, at = json.JSONDecoder(), [], 0
            while text[at:].strip():
                at += len(text[at:]) - len(text[at:].lstrip())
                document, at = decoder.raw_decode(text, at)
                documents.append(document)
        assert [d["state"] for d in documents] == ["successful", "pending"], output


def test_rollout_status_follows_a_managed_rolling_update(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(graph())
    operator_sim.settle()
    _write(apiserver, _new_worker_image)
    proc = _start(apiserver, "rollout", "status", "my-graph", "--timeout", "60s")
    output = Lines(proc)
    output.until("not yet observed")  # the command is watching before the operator moves
    operator_sim.start()
    lines = output.all().splitlines()
    assert proc.wait(timeout=60) == 0
    assert lines[-1] == 'dgd "my-graph" successfully rolled out'
    assert any("rolling update InProgress" in line for line in lines), lines
    # one line per change (joined with its wrapped continuations, which are indented)
    changes = " ".join(lines).replace("     ", " ").replace("   ", " ").split(" Waiting for ")
    assert len(changes) == len(set(changes))
    assert sum(line.startswith("  blocked by ") for line in lines) == 1  # said once


def test_rollout_status_waits_for_a_requested_restart(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(graph())
    operator_sim.settle()
    operator_sim.pause("my-graph")
    assert dgd(apiserver, "restart", "my-graph", "--parallel", "--id", "r9").returncode == 0
    result = dgd(apiserver, "rollout", "status", "my-graph", "--watch=false")
    assert result.returncode == 0
    assert result.stdout.startswith('Waiting for dgd "my-graph" rollout to finish')
    operator_sim.resume("my-graph")
    operator_sim.start()
    done = dgd(apiserver, "rollout", "status", "my-graph", "--timeout", "30s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == 'dgd "my-graph" successfully rolled out'


def test_rollout_status_times_out(apiserver: ApiServer) -> None:
    pending = graph()
    pending["status"]["conditions"][0]["status"] = "False"
    apiserver.seed(pending)
    result = dgd(apiserver, "rollout", "status", "my-graph", "--timeout", "1s")
    assert result.returncode == 1
    assert result.stderr == (
        "error: timed out waiting for the condition; what blocks it: "
        f"kubectl dgd why my-graph -n {NS}\n"
    )


def test_rollout_status_fails_on_a_failed_graph(apiserver: ApiServer) -> None:
    failed = graph()
    failed["status"]["state"] = "failed"
    failed["status"]["conditions"][0].update(
        {
            "status": "False",
            "reason": "no_multinode_orchestrator_available",
            "message": "no multinode orchestrator available",
        }
    )
    apiserver.seed(failed)
    result = dgd(apiserver, "rollout", "status", "my-graph")
    assert result.returncode == 1
    assert result.stderr == 'error: dgd "my-graph" failed: no multinode orchestrator available\n'


def test_rollout_status_of_a_settled_graph_returns_at_once(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "rollout", "status", "my-graph")
    assert result.returncode == 0
    assert result.stdout == 'dgd "my-graph" successfully rolled out\n'


def test_rollout_explain_during_a_rolling_update(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(graph())
    operator_sim.settle()
    _write(apiserver, _new_worker_image)
    for _ in range(3):
        operator_sim.step()
    result = dgd(apiserver, "rollout", "explain", "my-graph")
    assert result.returncode == 0, result.stderr
    assert "rolling update" in result.stdout.lower()
    assert "kubectl dgd rollout status my-graph" in result.stdout
    assert "a restart is refused until it completes" in result.stdout


def test_rollout_explain_of_a_quiet_graph(apiserver: ApiServer) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "rollout", "explain", "my-graph")
    assert_golden("cluster/rollout-explain-quiet.txt", result.stdout)


def test_status_watch_redraws_in_place_on_a_terminal(apiserver: ApiServer) -> None:
    import pty

    apiserver.seed(graph())
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "kubectl-dgd"), "status", "my-graph", "--watch"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=_env(apiserver),
    )
    os.close(follower)
    try:
        seen = b""
        deadline = time.monotonic() + 20
        while b"GPU figures" not in seen and time.monotonic() < deadline:
            seen += os.read(leader, 65536)
        assert seen.startswith(b"\x1b[H\x1b[2J")  # clear and home before each view
    finally:
        _, err = _interrupt(proc)
        os.close(leader)
    assert proc.returncode == 130, err


def test_rollout_explain_of_a_malformed_graph_is_one_line_exit_2(apiserver: ApiServer) -> None:
    bad = graph()
    bad["spec"]["components"][1]["replicas"] = "two"
    apiserver.seed(bad)
    result = dgd(apiserver, "rollout", "explain", "my-graph")
    assert result.returncode == 2
    assert result.stderr == (
        "error: not a readable DynamoGraphDeployment: spec.components[1].replicas: "
        'expected an integer, got "two"\n'
    )
