"""MIG slices end to end on the real control plane: a kwok node partitioned as the NVIDIA GPU
operator's mixed strategy exposes it (``nvidia.com/mig-<profile>`` resources, ``nvidia.com/gpu``
0, GPU feature discovery's memory labels), a graph whose worker asks for one profile, the real
scheduler placing what fits and reporting "Insufficient nvidia.com/mig-3g.40gb" for the rest.
``gpus`` lists the slices per profile, ``why`` counts the request against that profile's
capacity, and ``diff``'s peak check does the same."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.realcluster.bootstrap import gpu_node
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.scenarios import component, graph

PROFILE = "nvidia.com/mig-3g.40gb"
TAINT = "kdgd.test/mig-node"  # only this test's pods land on its node


@pytest.fixture
def mig_node(real_ns: RealNamespace) -> Iterator[str]:
    name = f"mig-{uuid.uuid4().hex[:8]}"
    node = gpu_node(
        name,
        0,
        product="NVIDIA-A100-SXM4-80GB",
        extra={"nvidia.com/mig-1g.10gb": "7", PROFILE: "2"},
        labels={
            "nvidia.com/mig.strategy": "mixed",
            "nvidia.com/mig-1g.10gb.memory": "9856",
            "nvidia.com/mig-3g.40gb.memory": "40192",
        },
    )
    node["spec"] = {"taints": [{"key": TAINT, "value": name, "effect": "NoSchedule"}]}
    status = node.pop("status")
    real_ns.rest.create(node)
    try:
        real_ns.rest.merge_patch("Node", name, None, {"status": status}, "status")
        yield name
    finally:
        real_ns.rest.delete("Node", name)


def _mig_graph(node: str, namespace: str, replicas: int) -> dict[str, Any]:
    worker = component("worker", "worker", replicas=replicas)
    spec = worker["podTemplate"]["spec"]
    spec["containers"][0]["resources"] = {"limits": {PROFILE: "1"}}
    spec["tolerations"] = [{"key": TAINT, "value": node, "effect": "NoSchedule"}]
    return graph("mig", worker, namespace=namespace)


def _pending(ns: RealNamespace) -> list[Any]:
    pods = ns.rest.list("Pod", ns.name, "nvidia.com/dynamo-graph-deployment-name=mig")
    return [p for p in pods if not (p.get("spec") or {}).get("nodeName")]


def test_mig_slices_are_listed_counted_and_checked_per_profile(
    real_ns: RealNamespace, mig_node: str, tmp_path: Path
) -> None:
    obj = _mig_graph(mig_node, real_ns.name, replicas=3)
    real_ns.create(copy.deepcopy(obj))
    real_ns.rest.wait_for(
        "two pods bound, one Pending",
        lambda: (
            len(real_ns.rest.list("Pod", real_ns.name, "nvidia.com/dynamo-component=worker")) == 3
            and len(_pending(real_ns)) == 1
        ),
        timeout=90,
    )

    listed = real_ns.kdgd("gpus", "-A", "-o", "json")
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    mine = {row["resource"]: row for row in data["nodes"] if row["name"] == mig_node}
    assert sorted(mine) == ["nvidia.com/mig-1g.10gb", PROFILE]  # no row of 0 whole GPUs
    big = mine[PROFILE]
    assert (big["migProfile"], big["allocatable"], big["requested"], big["free"]) == (
        "3g.40gb",
        2,
        2,
        0,
    )
    assert big["memoryMiB"] == 40192 and mine["nvidia.com/mig-1g.10gb"]["memoryMiB"] == 9856
    assert [(u["namespace"], u["name"], u["gpus"]) for u in big["usedBy"]] == [
        (real_ns.name, "mig", 2)
    ]
    assert data["mig"]["3g.40gb"]["allocatable"] >= 2

    # Wide enough for every column: the cluster is shared, and the other tests' graphs on the
    # other nodes make USED BY long, which would push PRODUCT and MEMORY out at 200 columns.
    text = real_ns.kdgd("gpus", "-A", env={"COLUMNS": "5000"})
    assert text.returncode == 0, text.stderr
    (line,) = [li for li in text.stdout.splitlines() if li.startswith(mig_node) and "3g" in li]
    assert line.split()[:7] == [mig_node, "MIG", "3g.40gb", "40192", "MiB", "2", "2"], line
    assert f"{real_ns.name}/mig (2)" in line
    assert any(li.startswith("MIG 3g.40gb: ") for li in text.stdout.splitlines())

    why = real_ns.kdgd("why", "mig")
    assert why.returncode == 1, (why.stdout, why.stderr)
    assert "InsufficientGPU, component worker" in why.stdout, why.stdout
    assert "1 pod needs 1 MIG 3g.40gb slice on one node" in " ".join(why.stdout.split())
    assert f"{mig_node}: 0 of 2" in why.stdout

    scaled = copy.deepcopy(obj)
    scaled["spec"]["components"][0]["replicas"] = 4
    new = tmp_path / "mig.yaml"
    new.write_text(json.dumps(scaled))
    diff = real_ns.kdgd("diff", "-f", str(new))
    assert diff.returncode == 1, (diff.stdout, diff.stderr)
    assert f"worker: the scale-up needs 1 more {PROFILE} at its peak (1 new pod of 1 slice)" in (
        diff.stderr
    )
