"""``kubectl dgd logs NAME [COMPONENT]`` end to end, ``-f`` over pods of which one is replaced."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

from tests.apiserver.resources import PODS
from tests.apiserver.server import ApiServer, wait_until
from tests.cluster.conftest import component, dgd, graph
from tests.cluster.test_tree import _cluster
from tests.cluster.test_watch_rollout import _env
from tests.conftest import BIN, assert_golden

NS = "dynamo"


def _pods(apiserver: ApiServer, prefix: str) -> list[str]:
    items, _ = apiserver.store.list(PODS, NS)
    return [p["metadata"]["name"] for p in items if p["metadata"]["name"].startswith(prefix)]


def test_logs_of_one_component_prefixed_by_pod(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    first, second = _pods(apiserver, "my-graph-decode")
    apiserver.logs.append(NS, first, "a1", "a2")
    apiserver.logs.append(NS, second, "b1")
    apiserver.logs.append(NS, _pods(apiserver, "my-graph-frontend")[0], "front")
    result = dgd(apiserver, "logs", "my-graph", "decode")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{first} a1\n{first} a2\n{second} b1\n"
    assert dgd(apiserver, "logs", "my-graph", "decode", "--tail", "1").stdout == (
        f"{first} a2\n{second} b1\n"
    )
    every = dgd(apiserver, "logs", "my-graph").stdout
    assert "front" in every and "a1" in every


def test_previous_and_container_flags(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    (pod,) = _pods(apiserver, "my-graph-prefill")
    apiserver.logs.append(NS, pod, "Traceback ...", "CUDA out of memory", previous=True)
    result = dgd(apiserver, "logs", "my-graph", "prefill", "--previous")
    assert result.stdout == f"{pod} Traceback ...\n{pod} CUDA out of memory\n"
    wrong = dgd(apiserver, "logs", "my-graph", "prefill", "-c", "sidecar")
    assert wrong.returncode != 0
    assert wrong.stderr.count("\n") == 1 and "container sidecar is not valid" in wrong.stderr
    assert dgd(apiserver, "logs", "my-graph", "--since", "soon").returncode == 2


def test_follow_two_pods_of_which_one_is_replaced(apiserver: ApiServer) -> None:
    sim = _cluster(apiserver)
    sim.settle()
    first, second = _pods(apiserver, "my-graph-decode")
    apiserver.logs.append(NS, first, "first-1")
    apiserver.logs.append(NS, second, "second-1")

    def replace() -> None:
        wait_until(lambda: len(apiserver.requests("get", "pods")) >= 2, timeout=10)
        time.sleep(0.3)
        apiserver.logs.append(NS, first, "first-2")
        apiserver.store.delete(PODS, NS, second)  # the ReplicaSet makes it again
        sim.settle()
        apiserver.logs.append(NS, second, "replacement-1")
        time.sleep(1.5)
        apiserver.logs.append(NS, second, "replacement-2")
        time.sleep(0.3)
        apiserver.store.delete(PODS, NS, first)
        apiserver.store.delete(PODS, NS, second)
        apiserver.logs.wake()

    writer = threading.Thread(target=replace)
    writer.start()
    result = dgd(apiserver, "logs", "my-graph", "decode", "-f", timeout=30)
    writer.join()
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"{first} first-1" in lines and f"{first} first-2" in lines
    assert f"{second} second-1" in lines
    assert f"{second} replacement-2" in lines


def _sidecar_graph(apiserver: ApiServer) -> None:
    """decode's pods carry an init container and a sidecar beside main."""
    comps = [
        component("Frontend", "frontend"),
        component("decode", "decode", replicas=2, gpus=1),
        component("prefill", "prefill", gpus=2),
    ]
    spec = comps[1]["podTemplate"]["spec"]
    spec["initContainers"] = [{"name": "fetch-model", "image": "busybox"}]
    spec["containers"].append({"name": "metrics", "image": "busybox"})
    _cluster(apiserver, components=comps).settle()


def test_all_containers_init_first_each_line_names_its_container(apiserver: ApiServer) -> None:
    _sidecar_graph(apiserver)
    first, second = _pods(apiserver, "my-graph-decode")
    apiserver.logs.append(NS, first, "downloaded", container="fetch-model")
    apiserver.logs.append(NS, first, "serving")
    apiserver.logs.append(NS, first, "scraped", container="metrics")
    result = dgd(apiserver, "logs", "my-graph", "decode", "--all-containers", "--pod", "-0$")
    assert result.returncode == 0, result.stderr
    assert first.endswith("-0") and second.endswith("-1")
    assert result.stdout == (
        f"{first} fetch-model downloaded\n{first} main serving\n{first} metrics scraped\n"
    )
    stamped = dgd(apiserver, "logs", "my-graph", "--all-containers", "--timestamps", "--pod", "-0$")
    assert stamped.returncode == 0, stamped.stderr
    assert_golden("logs/all_containers_timestamps.txt", stamped.stdout)
    both = dgd(apiserver, "logs", "my-graph", "--all-containers", "-c", "main")
    assert both.returncode == 2
    assert "--all-containers=true should not be specified with --container" in both.stderr


def test_timestamps_and_json_lines(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    (pod,) = _pods(apiserver, "my-graph-prefill")
    apiserver.logs.append(NS, pod, "loading weights", "ready")
    stamped = dgd(apiserver, "logs", "my-graph", "prefill", "--timestamps")
    assert stamped.returncode == 0, stamped.stderr
    assert stamped.stdout == (
        f"{pod} 2026-11-01T11:00:00.000000000Z loading weights\n"
        f"{pod} 2026-11-01T11:00:00.000000000Z ready\n"
    )
    as_json = dgd(apiserver, "logs", "my-graph", "--type", "prefill", "-o", "json")
    assert as_json.returncode == 0, as_json.stderr
    assert [json.loads(line) for line in as_json.stdout.splitlines()] == [
        {
            "pod": pod,
            "container": "main",
            "component": "prefill",
            "timestamp": "2026-11-01T11:00:00.000000000Z",
            "message": message,
        }
        for message in ("loading weights", "ready")
    ]


def _on_a_terminal(apiserver: ApiServer, *args: str, env: dict[str, str]) -> bytes:
    """The console script's stdout through a pty, to the end."""
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "kubectl-dgd"), *args], stdout=follower, stderr=subprocess.PIPE, env=env
    )
    os.close(follower)
    seen = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    finally:
        proc.wait(timeout=30)
        os.close(leader)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    return seen.replace(b"\r\n", b"\n")


def test_colour_per_pod_on_a_terminal_only(apiserver: ApiServer) -> None:
    _cluster(apiserver).settle()
    first, second = _pods(apiserver, "my-graph-decode")
    apiserver.logs.append(NS, first, "a")
    apiserver.logs.append(NS, second, "b")
    env = _env(apiserver)
    del env["NO_COLOR"]
    coloured = _on_a_terminal(apiserver, "logs", "my-graph", "decode", env=env)
    assert coloured == f"\x1b[36m{first}\x1b[0m a\n\x1b[32m{second}\x1b[0m b\n".encode()
    plain = _on_a_terminal(apiserver, "logs", "my-graph", "decode", env={**env, "NO_COLOR": "1"})
    assert plain == f"{first} a\n{second} b\n".encode()
    piped = dgd(apiserver, "logs", "my-graph", "decode", env={"NO_COLOR": ""})
    assert piped.stdout == f"{first} a\n{second} b\n"


def test_unknown_graph_component_or_type_exits_3_naming_those_that_exist(
    apiserver: ApiServer,
) -> None:
    _cluster(apiserver).settle()
    apiserver.seed(graph("other-graph"))
    graph_typo = dgd(apiserver, "logs", "my-grahp")
    assert graph_typo.returncode == 3
    assert graph_typo.stderr.count("\n") == 1
    assert graph_typo.stderr == (
        'error: dynamographdeployments.nvidia.com "my-grahp" in namespace "dynamo" not found; '
        "did you mean my-graph?\n"
    )
    component_typo = dgd(apiserver, "logs", "my-graph", "decod")
    assert component_typo.returncode == 3
    assert (
        "graph my-graph has no component decod (did you mean decode?); "
        "its components: Frontend, decode, prefill"
    ) in component_typo.stderr
    type_typo = dgd(apiserver, "logs", "my-graph", "--type", "worker")
    assert type_typo.returncode == 3
    assert "no component of type worker; its types: decode, frontend, prefill" in type_typo.stderr
    assert graph_typo.stdout == component_typo.stdout == type_typo.stdout == ""


def test_follow_refuses_more_streams_than_max_log_requests_as_kubectl(
    apiserver: ApiServer,
) -> None:
    _sidecar_graph(apiserver)
    refused = dgd(apiserver, "logs", "my-graph", "-f", "--all-containers")
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1
    assert (
        "you are attempting to follow 8 log streams, but maximum allowed concurrency is 5, "
        "use --max-log-requests to increase the limit"
    ) in refused.stderr
    assert refused.stdout == ""

    def stop() -> None:
        # every stream following before the lines come (a stream that starts after its pod's
        # deletion would never see them: the race an idle sleep lost under load)
        wait_until(lambda: apiserver.logs.following >= 8, timeout=30)
        for pod in _pods(apiserver, "my-graph-"):
            apiserver.logs.append(NS, pod, "up")
        for pod in _pods(apiserver, "my-graph-"):
            apiserver.store.delete(PODS, NS, pod)
        apiserver.logs.wake()

    writer = threading.Thread(target=stop)
    writer.start()
    allowed = dgd(
        apiserver, "logs", "my-graph", "-f", "--all-containers", "--max-log-requests", "8"
    )
    writer.join()
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stdout.count(" main up\n") == 4


def test_readme_shows_all_containers_with_timestamps_as_recorded() -> None:
    root = Path(__file__).resolve().parents[2]
    golden = (root / "tests" / "golden" / "logs" / "all_containers_timestamps.txt").read_text()
    command = "$ kubectl dgd logs my-graph --all-containers --timestamps --pod '-0$'"
    assert f"{command}\n{golden}```" in (root / "README.md").read_text()


def test_type_takes_every_component_of_that_type(apiserver: ApiServer) -> None:
    comps = [
        component("Frontend", "frontend"),
        component("decode", "decode", gpus=1),
        component("decode-long", "decode", gpus=1),
        component("prefill", "prefill", gpus=1),
    ]
    _cluster(apiserver, components=comps).settle()
    for prefix in ("my-graph-decode", "my-graph-prefill", "my-graph-frontend"):
        for pod in _pods(apiserver, prefix):
            apiserver.logs.append(NS, pod, prefix.removeprefix("my-graph-"))
    result = dgd(apiserver, "logs", "my-graph", "--type", "decode", "-o", "json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(line["component"] for line in lines) == ["decode", "decode-long"]
    assert apiserver.requests("list", "pods")[-1].query["labelSelector"] == [
        "nvidia.com/dynamo-graph-deployment-name=my-graph,"
        "nvidia.com/dynamo-component in (decode,decode-long)"
    ]
