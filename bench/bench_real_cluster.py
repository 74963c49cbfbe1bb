"""Live commands against the real control plane (tests/realcluster/controlplane.py): API
requests and wall time, with kubectl beside them on the same server.

- ``status NAME`` against ``kubectl get dgd NAME -o json`` (interleaved, min of RUNS);
- ``list`` of 1000 graphs against ``kubectl get dgd -o json``;
- ``tree NAME`` and ``why NAME`` of a graph with 200 pods (real Deployments, ReplicaSets and
  kwok pods): wall time and requests (``-v``, one stderr line per request).

Figures only, no targets yet. Skipped with one line when the binaries are not built
(``bash scripts/control-plane/build.sh``). Run: ``.venv/bin/python bench/run.py real_cluster``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from measure import BIN, RUNS, Row, child_env, side_by_side, spread  # noqa: E402

from tests.realcluster import controlplane, scenarios  # noqa: E402
from tests.realcluster.operator import Operator  # noqa: E402
from tests.realcluster.rest import Rest  # noqa: E402

NS = "bench"
GRAPHS = 1000
PODS = 200


def _requests(argv: list[str], env: dict[str, str]) -> int:
    done = subprocess.run([*argv, "-v=6"], capture_output=True, text=True, env=env, check=False)
    return sum(
        1
        for line in done.stderr.splitlines()
        if line.startswith(("warning: GET", "GET", "warning: PATCH"))
    )


def run() -> list[Row]:
    bindir = controlplane.find_binaries()
    if bindir is None:
        return [
            (
                "real control plane",
                "skipped: binaries not built (bash scripts/control-plane/build.sh)",
            )
        ]
    state = Path(tempfile.mkdtemp(prefix="kdgd-bench-real-"))
    rows: list[Row] = []
    operator = None
    try:
        started = time.perf_counter()
        controlplane.up(state, bindir, gpu_nodes=2)
        rows.append(
            (
                "control plane start (etcd to kwok nodes Ready)",
                f"{time.perf_counter() - started:.1f} s",
            )
        )
        env_file = controlplane.State(state).read()
        rest = Rest(
            env_file["KDGD_REAL_SERVER"],
            env_file["KDGD_REAL_TOKEN_ADMIN"],
            env_file["KDGD_REAL_CA"],
        )
        rest.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}})
        rest.wait_for("default ServiceAccount", lambda: rest.get("ServiceAccount", "default", NS))
        kubeconfig = state / "kubeconfig"
        config = json.loads(Path(env_file["KDGD_REAL_KUBECONFIG_ADMIN"]).read_text())
        config["contexts"][0]["context"]["namespace"] = NS
        kubeconfig.write_text(json.dumps(config))
        env = child_env({"KUBECONFIG": str(kubeconfig), "NO_COLOR": "1", "COLUMNS": "120"})
        kdgd, kubectl = str(BIN / "kubectl-dgd"), str(BIN / "kubectl")

        big = scenarios.graph(
            "big",
            scenarios.component("Frontend", "frontend"),
            scenarios.component("VllmDecodeWorker", "worker", replicas=PODS - 1),
            namespace=NS,
        )
        rest.create(big)
        operator = Operator(rest, NS).start()

        def big_ready() -> bool:
            status = rest.get("DynamoGraphDeployment", "big", NS).get("status") or {}
            return status.get("state") == "successful"

        rest.wait_for("the 200-pod graph Ready", big_ready, timeout=300)
        operator.stop()
        operator = None

        times = side_by_side(
            {
                "kdgd": [kdgd, "status", "big"],
                "kubectl": [kubectl, "get", "dgd", "big", "-o", "json"],
            },
            RUNS,
            env,
        )
        rows.append(("status NAME", spread(times["kdgd"])))
        rows.append(("kubectl get dgd NAME -o json", spread(times["kubectl"])))
        rows.append(
            ("  ratio (min over min)", f"{min(times['kdgd']) / min(times['kubectl']):.2f}x")
        )
        rows.append(("status NAME, requests", str(_requests([kdgd, "status", "big"], env))))

        for label, argv in (
            ("tree NAME (200 pods)", [kdgd, "tree", "big"]),
            ("why NAME (200 pods)", [kdgd, "why", "big"]),
        ):
            times = side_by_side({"x": argv}, max(3, RUNS // 2), env)
            rows.append((label, spread(times["x"])))
            rows.append((f"{label}, requests", str(_requests(argv, env))))

        started = time.perf_counter()
        for i in range(GRAPHS):
            graph = scenarios.healthy(NS)
            graph["metadata"]["name"] = f"g-{i:04d}"
            rest.create(graph)
        rows.append((f"creating {GRAPHS} graphs (setup)", f"{time.perf_counter() - started:.1f} s"))
        times = side_by_side(
            {"kdgd": [kdgd, "list"], "kubectl": [kubectl, "get", "dgd", "-o", "json"]},
            max(3, RUNS // 2),
            env,
        )
        rows.append((f"list ({GRAPHS + 1} graphs)", spread(times["kdgd"])))
        rows.append(("kubectl get dgd -o json", spread(times["kubectl"])))
        rows.append(
            ("  ratio (min over min)", f"{min(times['kdgd']) / min(times['kubectl']):.2f}x")
        )
        rows.append(("list, requests", str(_requests([kdgd, "list"], env))))
    finally:
        if operator is not None:
            operator.stop()
        controlplane.down(state)
        shutil.rmtree(state, ignore_errors=True)
    return rows


if __name__ == "__main__":
    for label, value in run():
        print(f"{label}: {value}")
