"""``kubectl dgd logs NAME [COMPONENT]`` end to end, ``-f`` over pods of which one is replaced."""

from __future__ import annotations

import threading
import time

from tests.apiserver.resources import PODS
from tests.apiserver.server import ApiServer, wait_until
from tests.cluster.conftest import dgd
from tests.cluster.test_tree import _cluster

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
