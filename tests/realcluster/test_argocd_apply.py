"""Argo CD's two applies of an unchanged graph from Git, on the real API server, after the
scaling adapter moved a component's replicas (the sync-breaker of argocd-plugin/README.md).

Client-side ``kubectl apply`` (Argo CD's default) sends a three-way JSON merge patch, which
replaces ``spec.components`` whole: the adapter's replicas are reset (in a cluster with the
operator, its webhook then refuses the sync). Server-side apply (``ServerSideApply=true``, field
manager ``argocd-controller``, conflicts forced as Argo CD forces them) merges the list per
component, keyed by ``name`` in the CRD, and keeps the field the adapter's manager owns, as long
as Git does not set it (what the lint advises).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace

CLIENT_SIDE: tuple[str, ...] = ()
SERVER_SIDE = ("--server-side", "--field-manager=argocd-controller", "--force-conflicts")
ADAPTER = "dgdsa-controller"  # the scaling adapter's field manager (any other than Argo CD's)


def _git(namespace: str, name: str, replicas: int | None) -> dict[str, Any]:
    obj = scenarios.healthy(namespace)
    obj["metadata"]["name"] = name
    worker = obj["spec"]["components"][1]
    worker["scalingAdapter"] = {}
    if replicas is None:
        del worker["replicas"]
    else:
        worker["replicas"] = replicas
    return obj


def _worker(obj: dict[str, Any]) -> dict[str, Any]:
    (worker,) = [c for c in obj["spec"]["components"] if c["name"] == "VllmDecodeWorker"]
    return worker


@pytest.mark.parametrize(
    ("apply", "in_git", "after"),
    [
        pytest.param(CLIENT_SIDE, None, None, id="client-side-drops-the-adapters-replicas"),
        pytest.param(CLIENT_SIDE, 1, 1, id="client-side-resets-them-to-gits"),
        pytest.param(SERVER_SIDE, None, 3, id="server-side-keeps-them"),
        pytest.param(SERVER_SIDE, 1, 1, id="server-side-resets-them-when-git-sets-replicas"),
    ],
)
def test_reapplying_an_unchanged_graph_after_the_adapter_scaled_it(
    real_ns: RealNamespace, apply: tuple[str, ...], in_git: int | None, after: int | None
) -> None:
    name = f"apply-{'ssa' if apply else 'csa'}-{'git' if in_git else 'nogit'}"
    manifest = real_ns.folder / f"{name}.json"
    manifest.write_text(json.dumps(_git(real_ns.name, name, in_git)))
    first = real_ns.kubectl("apply", *apply, "-f", str(manifest))
    assert first.returncode == 0, first.stderr
    # The adapter scales the worker to 3, as its controller does: a write of its own manager.
    op = "replace" if in_git is not None else "add"
    scale = [{"op": op, "path": "/spec/components/1/replicas", "value": 3}]
    scaled = real_ns.kubectl(
        "patch", "dgd", name, "--type=json", f"--field-manager={ADAPTER}", "-p", json.dumps(scale)
    )
    assert scaled.returncode == 0, scaled.stderr
    assert _worker(real_ns.graph(name))["replicas"] == 3
    again = real_ns.kubectl("apply", *apply, "-f", str(manifest))  # the next sync, Git unchanged
    assert again.returncode == 0, again.stderr
    assert _worker(real_ns.graph(name)).get("replicas") == after
