"""Fixtures for the tests that run against a real control plane (tests/realcluster/controlplane.py).

One control plane per test run, shared by every xdist worker: the first worker that needs it
starts it detached, under a lock in the run's state directory (named by the controller process
in ``pytest_configure``, see tests/conftest.py), and the controller stops it when the run ends.
With ``KDGD_REAL_STATE`` pointing at a running one (the sandbox, or ``controlplane up``) the
tests attach to it instead.

Without the binaries the tests skip, with one line saying why; with
``KDGD_REQUIRE_REAL_CLUSTER=1`` (CI) they fail instead.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROOT, Result, run_cli
from tests.realcluster.controlplane import State
from tests.realcluster.operator import Operator
from tests.realcluster.rest import Obj, Rest, RestError

WHO = ("admin", "dev", "viewer")


def _unavailable(reason: str) -> None:
    if os.environ.get("KDGD_REQUIRE_REAL_CLUSTER") == "1":
        pytest.fail(
            f"real control plane required (KDGD_REQUIRE_REAL_CLUSTER=1): {reason}", pytrace=False
        )
    pytest.skip(f"no real control plane: {reason}")


@pytest.fixture(scope="session")
def real_env() -> dict[str, str]:
    """The running control plane's connection details (env.json), starting it if needed."""
    folder = os.environ.get("KDGD_REAL_STATE")
    if not folder:
        _unavailable("KDGD_REAL_STATE is not set (run under pytest from the repository)")
    state = State(Path(folder))  # type: ignore[arg-type]
    state.folder.mkdir(parents=True, exist_ok=True)
    with (state.folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one starter; the others wait here, then attach
        if not state.env_file.exists():
            failed = state.folder / "failed"
            if failed.exists():
                _unavailable(failed.read_text())
            started = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tests.realcluster.controlplane",
                    "up",
                    "--state",
                    str(state.folder),
                ],
                cwd=ROOT,
                check=False,
                capture_output=True,
                text=True,
                timeout=300,
            )
            if started.returncode != 0:
                reason = (started.stderr.strip().splitlines() or ["controlplane up failed"])[-1]
                if started.returncode == 3:
                    reason = (
                        "binaries not built (bash scripts/control-plane/build.sh, 20-40 min cold)"
                    )
                failed.write_text(reason)
                _unavailable(reason if started.returncode == 3 else started.stderr[-3000:])
            (state.folder / "timings.json").write_text(started.stdout)
    return state.read()


@pytest.fixture(scope="session")
def admin_rest(real_env: dict[str, str]) -> Rest:
    return Rest(
        real_env["KDGD_REAL_SERVER"], real_env["KDGD_REAL_TOKEN_ADMIN"], real_env["KDGD_REAL_CA"]
    )


@dataclass
class RealNamespace:
    """A fresh namespace on the real control plane, with kubeconfigs for each user (their
    context's namespace is this one) and the simulated operator reconciling its graphs."""

    name: str
    env: dict[str, str]
    rest: Rest
    folder: Path
    operator: Operator
    kubeconfigs: dict[str, Path] = field(default_factory=dict)

    def kdgd(
        self, *args: str, who: str = "admin", env: dict[str, str] | None = None, **kw: object
    ) -> Result:
        """``kubectl-dgd ARGS`` as ``who`` (admin, dev: the namespace-scoped Role, viewer:
        read-only on graphs)."""
        return run_cli(*args, env={"KUBECONFIG": str(self.kubeconfigs[who]), **(env or {})}, **kw)  # type: ignore[arg-type]

    def kubectl(
        self, *args: str, who: str = "admin", stdin: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        kubectl = Path(sys.executable).parent / "kubectl"
        return subprocess.run(
            [str(kubectl), f"--kubeconfig={self.kubeconfigs[who]}", *args],
            input=stdin,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
            env={k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")},
        )

    def create(self, obj: Obj) -> Obj:
        obj.setdefault("metadata", {})["namespace"] = self.name
        return self.rest.create(obj)

    def graph(self, name: str) -> Obj:
        return self.rest.get("DynamoGraphDeployment", name, self.name)

    def wait_graph(self, name: str, what: str, check: object, timeout: float = 90) -> Obj:
        def probe() -> Obj | None:
            obj = self.graph(name)
            return obj if check(obj) else None  # type: ignore[operator]

        try:
            return self.rest.wait_for(f"{name}: {what}", probe, timeout=timeout)  # type: ignore[no-any-return]
        finally:
            assert not self.operator.errors, self.operator.errors

    def wait_ready(self, name: str, timeout: float = 90) -> Obj:
        return self.wait_graph(
            name,
            "Ready",
            lambda o: (
                (o.get("status") or {}).get("state") == "successful"
                and o["status"].get("observedGeneration") == o["metadata"].get("generation")
            ),
            timeout,
        )


def _bind(rest: Rest, namespace: str, who: str) -> None:
    rest.create(
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding",
            "metadata": {"name": f"kdgd-{who}", "namespace": namespace},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": f"kdgd-{who}",
            },
            "subjects": [
                {"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": f"kdgd-{who}"}
            ],
        }
    )


@pytest.fixture
def real_ns(real_env: dict[str, str], admin_rest: Rest, tmp_path: Path) -> Iterator[RealNamespace]:
    name = f"t-{uuid.uuid4().hex[:10]}"
    admin_rest.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    for who in ("dev", "viewer"):
        _bind(admin_rest, name, who)
    # Pods need the namespace's default ServiceAccount, which the real controller creates.
    admin_rest.wait_for(
        "default ServiceAccount", lambda: admin_rest.get("ServiceAccount", "default", name), 60
    )
    kubeconfigs = {}
    for who in WHO:
        config = json.loads(Path(real_env[f"KDGD_REAL_KUBECONFIG_{who.upper()}"]).read_text())
        config["contexts"][0]["context"]["namespace"] = name
        path = tmp_path / f"kubeconfig-{who}"
        path.write_text(json.dumps(config))
        kubeconfigs[who] = path
    operator = Operator(admin_rest, name).start()
    ns = RealNamespace(name, real_env, admin_rest, tmp_path, operator, kubeconfigs)
    try:
        yield ns
    finally:
        operator.stop()
        # not waited for: the namespace controller finishes it in the background
        with contextlib.suppress(RestError):
            admin_rest.delete("Namespace", name)


POOL = "kdgd.test/pool"  # label and taint of a test's private GPU nodes


@pytest.fixture
def gpu_pool(real_ns: RealNamespace) -> Iterator[list[str]]:
    """Two 8-GPU kwok nodes of this test's own, labelled and tainted with ``POOL`` = the
    namespace: a test that fills nodes (a rolling update stuck on GPUs) runs there with
    ``pinned``, whatever the tests beside it hold on the shared nodes."""
    from tests.realcluster.bootstrap import gpu_node

    names = [f"{real_ns.name}-gpu-{i}" for i in range(2)]
    for name in names:
        node = gpu_node(name, labels={POOL: real_ns.name})
        node["spec"] = {"taints": [{"key": POOL, "value": real_ns.name, "effect": "NoSchedule"}]}
        status = node.pop("status")
        real_ns.rest.create(node)
        real_ns.rest.merge_patch("Node", name, None, {"status": status}, "status")
    try:
        yield names
    finally:
        for name in names:
            with contextlib.suppress(RestError):
                real_ns.rest.delete("Node", name)


def pinned(graph: dict[str, object], namespace: str) -> dict[str, object]:
    """``graph`` with every component's pods kept to the namespace's ``gpu_pool`` nodes."""
    for component in graph["spec"]["components"]:  # type: ignore[index]
        spec = component["podTemplate"]["spec"]
        spec["nodeSelector"] = {POOL: namespace}
        spec["tolerations"] = [
            {"key": POOL, "operator": "Equal", "value": namespace, "effect": "NoSchedule"}
        ]
    return graph


def stuck_rollout_on_pool(ns: RealNamespace) -> Obj:
    """On the namespace's ``gpu_pool``, a filler holding one 8-GPU node and stuck-rollout's
    8-GPU worker the other, both Ready: a rolling update of that worker then has no node for its
    new pod. Returns stuck-rollout as read once Ready."""
    from tests.realcluster import scenarios

    filler = scenarios.graph(
        "filler", scenarios.component("VllmDecodeWorker", "worker", gpus=8), namespace=ns.name
    )
    ns.create(pinned(filler, ns.name))
    ns.create(pinned(scenarios.stuck_rollout(ns.name), ns.name))
    ns.wait_ready("filler")
    return ns.wait_ready("stuck-rollout")
