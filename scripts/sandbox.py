"""A local cluster to try the live commands on: `make sandbox`.

Starts a control plane on 127.0.0.1 with two 8-GPU nodes and the README's scenarios (namespace
``dynamo``: ``healthy``, ``gpu-starved``, ``crashloop``, ``stuck-rollout``; see
tests/realcluster/scenarios.py), prints the ``export KUBECONFIG=`` line and commands to try, and
runs until Ctrl-C (or SIGTERM), then stops everything it started.

The real control plane (kube-apiserver, etcd, controller-manager, scheduler, kwok) when its
binaries are built (`bash scripts/control-plane/build.sh`); otherwise the project's own test
API server, which emulates one. The first line says which. A simulated Dynamo operator
(tests/realcluster/operator.py, or tests/apiserver/operator_sim.py) reconciles the graphs.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.realcluster import scenarios  # noqa: E402

TRY = """
Try:
  {export}
  kubectl dgd list
  kubectl dgd status healthy
  kubectl dgd why gpu-starved
  kubectl dgd why crashloop
  kubectl dgd tree stuck-rollout
  kubectl dgd rollout explain stuck-rollout
  kubectl dgd gpus
  kubectl dgd events crashloop
  kubectl dgd logs healthy
Ctrl-C stops the sandbox.
"""


def _wait(what: str, check: Callable[[], object], timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if check():
                return
        except Exception:  # not there yet
            pass
        time.sleep(0.3)
    raise SystemExit(f"sandbox: {what} did not happen within {timeout:.0f} s")


def real(state: Path, bindir: Path, ready: threading.Event, stop: threading.Event) -> None:
    from tests.realcluster import controlplane
    from tests.realcluster.operator import Operator
    from tests.realcluster.rest import Rest

    print(f"sandbox: real control plane (kube-apiserver and friends from {bindir})", flush=True)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000000000Z", time.gmtime())
    every_log, previous_log = state / "every-container.log", state / "every-previous.log"
    every_log.write_text(
        f"{stamp} stdout F sandbox: kwok serves this line as every container's log"
        " (no container runs here)\n"
    )
    previous_log.write_text(
        f"{stamp} stderr F sandbox: kwok serves this line as every container's previous log"
        " (a crash loop here is simulated)\n"
    )
    controlplane.up(state, bindir, every_log=every_log, every_previous_log=previous_log)
    operator = None
    try:
        env = controlplane.State(state).read()
        rest = Rest(env["KDGD_REAL_SERVER"], env["KDGD_REAL_TOKEN_ADMIN"], env["KDGD_REAL_CA"])
        rest.create(
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": scenarios.NAMESPACE}}
        )
        _wait(
            "the default ServiceAccount",
            lambda: rest.get("ServiceAccount", "default", scenarios.NAMESPACE),
        )
        kubeconfig = state / "kubeconfig"
        config = json.loads(Path(env["KDGD_REAL_KUBECONFIG_ADMIN"]).read_text())
        config["contexts"][0]["context"]["namespace"] = scenarios.NAMESPACE
        kubeconfig.write_text(json.dumps(config, indent=1))
        operator = Operator(rest, scenarios.NAMESPACE).start()

        def state_of(name: str) -> str:
            obj = rest.get("DynamoGraphDeployment", name, scenarios.NAMESPACE)
            return str((obj.get("status") or {}).get("state"))

        # stuck-rollout first, so that its 8-GPU worker has a node to itself before the
        # others' 1-GPU pods are placed (the scheduler spreads them over the emptier node)
        rest.create(scenarios.stuck_rollout())
        _wait("stuck-rollout Ready", lambda: state_of("stuck-rollout") == "successful")
        for make in scenarios.ALL:
            if make is not scenarios.stuck_rollout:
                rest.create(make())
        live = rest.get("DynamoGraphDeployment", "stuck-rollout", scenarios.NAMESPACE)
        rest.request(
            "PUT",
            rest.path("DynamoGraphDeployment", scenarios.NAMESPACE, "stuck-rollout"),
            scenarios.rollout_change(live),
        )
        _wait("healthy Ready", lambda: state_of("healthy") == "successful")

        def rolling() -> bool:
            obj = rest.get("DynamoGraphDeployment", "stuck-rollout", scenarios.NAMESPACE)
            return bool(
                ((obj.get("status") or {}).get("rollingUpdate") or {}).get("phase") == "InProgress"
            )

        _wait("stuck-rollout's rolling update", rolling)
        print(TRY.format(export=f"export KUBECONFIG={kubeconfig}"), flush=True)
        ready.set()
        stop.wait()
    finally:
        if operator is not None:
            operator.stop()
        controlplane.down(state)


def emulated(state: Path, ready: threading.Event, stop: threading.Event) -> None:
    from tests.apiserver.children import gpu_node
    from tests.apiserver.operator_sim import OperatorSim
    from tests.apiserver.resources import DGD
    from tests.apiserver.server import ApiServer

    print(
        "sandbox: the project's test API server (tests/apiserver; the real control plane's "
        "binaries are not built: bash scripts/control-plane/build.sh)",
        flush=True,
    )
    server = ApiServer().start()
    sim = OperatorSim(server.store, children=True)
    try:
        server.install_crd()
        server.store.ensure_namespace(scenarios.NAMESPACE)
        kubeconfig = server.write_kubeconfig(state / "kubeconfig", namespace=scenarios.NAMESPACE)
        server.seed(gpu_node("gpu-node-0", 8), gpu_node("gpu-node-1", 8))
        assert sim.children is not None
        sim.children.faults["VllmWorker"] = "CrashLoopBackOff"  # crashloop's worker
        for make in scenarios.ALL:
            obj = make()
            obj.setdefault("status", {})
            server.seed(obj)
        sim.settle()
        live = server.store.get(DGD, scenarios.NAMESPACE, "stuck-rollout")
        server.store.replace(
            DGD, scenarios.NAMESPACE, "stuck-rollout", scenarios.rollout_change(live)
        )
        sim.start(0.5)
        print(TRY.format(export=f"export KUBECONFIG={kubeconfig}"), flush=True)
        ready.set()
        stop.wait()
    finally:
        sim.stop()
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sandbox", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--state",
        type=Path,
        help="where the kubeconfig and state go (default: a new temporary folder)",
    )
    parser.add_argument(
        "--emulated",
        action="store_true",
        help="use the project's test API server even when the real binaries are built",
    )
    parser.add_argument(
        "--ready-file", type=Path, help="touched once the sandbox is ready (for scripts and tests)"
    )
    args = parser.parse_args(argv)
    state = args.state or Path(tempfile.mkdtemp(prefix="kdgd-sandbox-"))
    state.mkdir(parents=True, exist_ok=True)
    stop, ready = threading.Event(), threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    from tests.realcluster.controlplane import find_binaries

    bindir = None if args.emulated else find_binaries()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            if bindir is not None:
                real(state, bindir, ready, stop)
            else:
                emulated(state, ready, stop)
        except BaseException as e:  # shown below, after the cleanup ran
            errors.append(e)
            ready.set()

    worker = threading.Thread(target=run, name="sandbox")
    worker.start()
    ready.wait()
    if args.ready_file and not errors:
        args.ready_file.write_text(str(state / "kubeconfig"))
    while worker.is_alive():
        worker.join(0.2)
    if errors:
        error = errors[0]
        print(
            f"sandbox: {error}" if not isinstance(error, SystemExit) else str(error.code),
            file=sys.stderr,
        )
        return 1
    print("sandbox: stopped", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
