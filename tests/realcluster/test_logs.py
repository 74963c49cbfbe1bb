"""``logs`` against the real kube-apiserver, which proxies ``pods/log`` to kwok's kubelet API:
kwok serves each container's log from the file a ``Logs`` object names (kwok.x-k8s.io), in the
CRI format a real kubelet writes, follows it with ``-f`` as the kubelet does, and answers a
container it has no file for with an error, as a kubelet answers a container that never ran.
Real ``kubectl logs`` is the reference for what each line says."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.realcluster.conftest import RealNamespace
from tests.realcluster.kwoklogs import STAMP, running_pods, serve_logs, served
from tests.realcluster.scenarios import component, graph

GRAPH = "chatty"


def _graph(namespace: str) -> dict[str, object]:
    worker = component("VllmDecodeWorker", "worker", gpus=1, replicas=2)
    worker["podTemplate"]["spec"]["containers"].append(
        {"name": "metrics", "image": "prom/statsd-exporter:v0.28.0"}
    )
    return graph(GRAPH, component("Frontend", "frontend"), worker, namespace=namespace)


@pytest.mark.parametrize("who", ["admin", "dev"])
def test_every_container_of_every_pod_with_kubectls_lines(real_ns: RealNamespace, who: str) -> None:
    real_ns.create(_graph(real_ns.name))
    pods = running_pods(real_ns, GRAPH, 3)
    serve_logs(real_ns, pods)
    expected: set[str] = set()
    for pod, containers in pods.items():
        for container in containers:
            expected |= {f"{pod} {container} {line}" for line in served(real_ns, pod, container)}

    done = real_ns.kdgd("logs", GRAPH, "--all-containers", "--timestamps", who=who)

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert set(done.stdout.splitlines()) == expected
    assert len(expected) == 2 * sum(len(c) for c in pods.values())


def test_one_component_as_json_lines(real_ns: RealNamespace) -> None:
    real_ns.create(_graph(real_ns.name))
    pods = running_pods(real_ns, GRAPH, 3)
    serve_logs(real_ns, pods)
    workers = sorted(p for p in pods if "vllmdecodeworker" in p)
    for pod in workers:
        served(real_ns, pod, "main")

    done = real_ns.kdgd("logs", GRAPH, "VllmDecodeWorker", "-o", "json", who="dev")

    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted({r["pod"] for r in rows}) == workers
    assert {r["container"] for r in rows} == {"main"}
    assert {r["component"] for r in rows} == {"VllmDecodeWorker"}
    assert {r["message"] for r in rows} == {"main starting"} | {
        f"main ready on {pod}" for pod in workers
    }


def test_a_container_the_kubelet_has_no_log_for_is_one_warning(real_ns: RealNamespace) -> None:
    real_ns.create(_graph(real_ns.name))
    pods = running_pods(real_ns, GRAPH, 3)
    serve_logs(real_ns, pods, skip="metrics")
    worker = next(p for p in pods if "vllmdecodeworker" in p)
    served(real_ns, worker, "main")

    done = real_ns.kdgd("logs", GRAPH, "VllmDecodeWorker", "--all-containers", who="dev")

    # the other streams are printed; each failed one is a line on stderr naming it
    assert any(line.endswith("main starting") for line in done.stdout.splitlines())
    problems = done.stderr.splitlines()
    assert problems, done
    assert all("metrics" in line for line in problems), problems
    assert "Traceback" not in done.stderr


def test_a_mistyped_component_exits_3_naming_those_there(real_ns: RealNamespace) -> None:
    real_ns.create(_graph(real_ns.name))
    running_pods(real_ns, GRAPH, 3)

    done = real_ns.kdgd("logs", GRAPH, "VllmDecodeWorkr", who="dev")

    assert done.returncode == 3, done
    assert done.stderr == (
        f"error: graph {GRAPH} has no component VllmDecodeWorkr (did you mean VllmDecodeWorker?);"
        " its components: Frontend, VllmDecodeWorker\n"
    )


def test_follow_prints_what_is_appended_then_stops_on_interrupt(real_ns: RealNamespace) -> None:
    real_ns.create(_graph(real_ns.name))
    pods = running_pods(real_ns, GRAPH, 3)
    files = serve_logs(real_ns, pods)
    frontend = next(p for p in pods if "frontend" in p)
    served(real_ns, frontend, "main")
    script = Path(sys.executable).parent / "kubectl-dgd"
    env = {
        k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy") and k != "COLUMNS"
    }
    follow = subprocess.Popen(
        [str(script), "logs", GRAPH, "Frontend", "-f"],
        env={**env, "KUBECONFIG": str(real_ns.kubeconfigs["dev"]), "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert follow.stdout is not None
        first = follow.stdout.readline()  # the stream is open once its first line came
        assert first.endswith("main starting\n"), first
        assert follow.stdout.readline().endswith(f"main ready on {frontend}\n")
        log = next(path for path, owner in files.items() if owner == f"{frontend}/main")
        with log.open("a") as out:
            out.write(f"{STAMP.format(2)} stdout F main appended while following\n")
        assert follow.stdout.readline() == f"{frontend} main appended while following\n"
    finally:
        follow.send_signal(signal.SIGINT)
        try:
            _, stderr = follow.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            follow.kill()
            raise
    assert follow.returncode == 130, stderr
    assert "Traceback" not in stderr
