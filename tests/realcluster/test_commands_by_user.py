"""Every live command end to end on the real control plane, as the administrator and as the
namespace-scoped user (a Role on graphs, DCDs, pods, pods/log, events, Deployments and
ReplicaSets in one namespace; nothing cluster-wide: no nodes, no CRDs, no other namespace).

Each cell of the README's table is one test here: the command works, or it degrades with one
note naming what it could not read; never a traceback, never a failure exit after it changed
the graph, never "No events found" for events it could not read.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import Result
from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace
from tests.realcluster.kwoklogs import running_pods, serve_logs, served

USERS = ("admin", "dev")


@pytest.fixture
def ready(real_ns: RealNamespace) -> Iterator[RealNamespace]:
    """The namespace with the ``healthy`` graph Ready (a frontend and a 1-GPU worker)."""
    real_ns.create(scenarios.healthy(real_ns.name))
    real_ns.wait_ready("healthy")
    yield real_ns


def clean(result: Result) -> None:
    """No traceback, no Python error text, at most one warning or note (progress lines of a
    wait are not warnings)."""
    assert "Traceback" not in result.stderr + result.stdout
    notes = [line for line in result.stderr.splitlines() if line.startswith(("warning:", "note:"))]
    assert len(notes) <= 1, result.stderr


@pytest.mark.parametrize("who", USERS)
def test_status(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("status", "healthy", who=who)
    clean(done)
    assert done.returncode == 0, done.stderr
    assert "healthy" in done.stdout and "successful" in done.stdout


@pytest.mark.parametrize("who", USERS)
def test_status_with_events(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("status", "healthy", "--events", who=who)
    clean(done)
    assert done.returncode == 0, done.stderr
    assert "successful" in done.stdout


@pytest.mark.parametrize("who", USERS)
def test_list(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("list", who=who)
    clean(done)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith("healthy ")


@pytest.mark.parametrize("who", USERS)
def test_tree_shows_every_child_with_its_kind(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("tree", "healthy", who=who)
    clean(done)
    assert done.returncode == 0, done.stderr
    for prefix in (
        "dgd/healthy",
        "dcd/healthy-frontend",
        "deploy/healthy-frontend",
        "rs/healthy-frontend-",
        "pod/healthy-frontend-",
    ):
        assert prefix in done.stdout, done.stdout
    assert "Running" in done.stdout


@pytest.mark.parametrize("who", USERS)
def test_why_of_a_ready_graph(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("why", "healthy", who=who)
    clean(done)
    assert done.returncode == 0, (done.stdout, done.stderr)


@pytest.mark.parametrize("who", USERS)
def test_events(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("events", "healthy", who=who)
    clean(done)
    assert done.returncode == 0, done.stderr
    assert "ScalingReplicaSet" in done.stdout or "Scheduled" in done.stdout, done.stdout


@pytest.mark.parametrize("who", USERS)
def test_rollout_status(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("rollout", "status", "healthy", "--timeout", "30s", who=who)
    clean(done)
    assert done.returncode == 0, (done.stdout, done.stderr)


@pytest.mark.parametrize("who", USERS)
def test_restart_wait(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("restart", "healthy", "--wait", "--timeout", "90s", who=who)
    clean(done)
    assert done.returncode == 0, (done.stdout, done.stderr)
    graph = ready.graph("healthy")
    assert graph["spec"]["restart"]["id"]
    assert graph["status"]["restart"]["phase"] == "Completed"


@pytest.mark.parametrize("who", USERS)
def test_gpus(ready: RealNamespace, who: str) -> None:
    done = ready.kdgd("gpus", who=who)
    clean(done)
    if who == "admin":
        assert done.returncode == 0, done.stderr
        assert "gpu-node-0" in done.stdout
    else:  # nodes are cluster-scoped: the one thing gpus is about, so a clear refusal
        assert done.returncode == 4, (done.stdout, done.stderr)
        assert "nodes" in done.stderr


@pytest.mark.parametrize("who", USERS)
def test_diff(ready: RealNamespace, who: str) -> None:
    changed = scenarios.healthy(ready.name)
    changed["spec"]["components"][1]["replicas"] = 2
    path = ready.folder / "healthy.yaml"
    import json

    path.write_text(json.dumps(changed))
    done = ready.kdgd("diff", "-f", str(path), who=who)
    clean(done)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "replicas" in done.stdout


@pytest.mark.parametrize("who", USERS)
def test_logs(ready: RealNamespace, who: str) -> None:
    pods = running_pods(ready, "healthy", 2)
    serve_logs(ready, pods)
    for pod in pods:
        served(ready, pod, "main")
    done = ready.kdgd("logs", "healthy", who=who)
    clean(done)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert sorted(done.stdout.splitlines()) == sorted(
        f"{pod} {line}" for pod in pods for line in ("main starting", f"main ready on {pod}")
    )


@pytest.mark.parametrize("who", USERS)
def test_validate_live_server_dry_run(ready: RealNamespace, who: str) -> None:
    path = ready.folder / "healthy.yaml"
    import json

    path.write_text(json.dumps(scenarios.healthy(ready.name)))
    done = ready.kdgd("validate", "-f", str(path), "--live", "--server-dry-run", who=who)
    clean(done)
    assert done.returncode == 0, (done.stdout, done.stderr)
