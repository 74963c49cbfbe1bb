"""What `tree` and `why` say when the cluster holds less than the graph's status claims, on the
real control plane through the console script, as the administrator and the namespace-scoped
user: a component of the spec with nothing below it is a row that says so (text, json, yaml);
a Ready status with no pod left is a StaleReady finding with what was seen; and READY says what
it counts (the graph's components in `tree`, pods in `why`).

The simulated operator is stopped to make the gap (a Dynamo operator that is down, or not yet
caught up, leaves the same).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
import yaml

from tests.realcluster import scenarios
from tests.realcluster.conftest import RealNamespace

USERS = ("admin", "dev")
GRAPH_LABEL = "nvidia.com/dynamo-graph-deployment-name"


@pytest.fixture
def stopped(real_ns: RealNamespace) -> Iterator[RealNamespace]:
    """``healthy`` Ready, then its operator stopped: nothing reconciles it any more."""
    real_ns.create(scenarios.healthy(real_ns.name))
    real_ns.wait_ready("healthy")
    real_ns.operator.stop()
    yield real_ns


def _component_rows(tree: dict[str, object]) -> dict[str, dict[str, object]]:
    return {c["name"]: c for c in tree["children"] if c["kind"] == "Component"}  # type: ignore[attr-defined, index]


def test_ready_counts_say_what_they_count(real_ns: RealNamespace) -> None:
    real_ns.create(scenarios.healthy(real_ns.name))
    real_ns.wait_ready("healthy")
    tree = real_ns.kdgd("tree", "healthy", subprocess=True)
    assert tree.returncode == 0, tree.stderr
    assert re.match(
        r"dgd/healthy +✔ Healthy +2/2 components +\d+s\n", tree.stdout.splitlines(True)[1]
    )
    why = real_ns.kdgd("why", "healthy", subprocess=True)
    assert (
        why.stdout == f"healthy in {real_ns.name} is Ready (2/2 pods ready): nothing wrong found.\n"
    )


@pytest.mark.parametrize("who", USERS)
def test_a_component_with_nothing_below_it_is_a_row_that_says_so(
    stopped: RealNamespace, who: str
) -> None:
    planner = scenarios.component("Planner", "planner")
    graph = stopped.graph("healthy")
    stopped.rest.merge_patch(
        "DynamoGraphDeployment",
        "healthy",
        stopped.name,
        {"spec": {"components": [*graph["spec"]["components"], planner]}},
    )
    text = stopped.kdgd("tree", "healthy", who=who, subprocess=True)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert re.match(r"dgd/healthy +◌ Progressing +2/3 components ", lines[1]), text.stdout
    at = next(i for i, line in enumerate(lines) if "component/Planner" in line)
    assert re.match(r"└─ component/Planner +◌ Progressing +0/1$", lines[at]), text.stdout
    assert lines[at + 1] == "      no objects found"
    # the last component, with nothing below it (then the dev user's refused Grove and LWS LISTs)
    assert all(line.startswith("warning: forbidden (403)") for line in lines[at + 2 :])
    assert len(lines[at + 2 :]) == (0 if who == "admin" else 4), text.stdout
    for shown in ("component/Frontend", "component/VllmDecodeWorker", "pod/healthy-frontend-"):
        assert shown in text.stdout
    for output, parse in (("json", json.loads), ("yaml", yaml.safe_load)):
        done = stopped.kdgd("tree", "healthy", "-o", output, who=who, subprocess=True)
        assert done.returncode == 0, done.stderr
        rows = _component_rows(parse(done.stdout))
        assert list(rows) == ["Frontend", "VllmDecodeWorker", "Planner"]
        assert rows["Planner"]["reason"] == "no objects found"
        assert rows["Planner"]["children"] == [] and rows["Planner"]["ready"] == "0/1"
        assert rows["Frontend"]["reason"] == "" and rows["Frontend"]["children"]


@pytest.mark.parametrize("who", USERS)
def test_why_says_a_ready_status_with_no_pods_is_stale(stopped: RealNamespace, who: str) -> None:
    for deployment in stopped.rest.list("Deployment", stopped.name, f"{GRAPH_LABEL}=healthy"):
        stopped.rest.delete("Deployment", deployment["metadata"]["name"], stopped.name)
    stopped.rest.wait_for(
        "the pods gone",
        lambda: not stopped.rest.list("Pod", stopped.name, f"{GRAPH_LABEL}=healthy") or None,
        timeout=90,
    )
    graph = stopped.graph("healthy")
    (ready,) = [c for c in graph["status"]["conditions"] if c["type"] == "Ready"]
    generation = graph["metadata"]["generation"]
    done = stopped.kdgd("why", "healthy", who=who, subprocess=True, env={"COLUMNS": "400"})
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"healthy in {stopped.name} is Ready (no pods): 1 problem."
    assert lines[2] == "1. StaleReady (error)"
    assert lines[3] == (
        f"   The graph's status says Ready (condition Ready=True since "
        f"{ready['lastTransitionTime']} (all_resources_are_ready); generation {generation}, "
        f"observed {generation}), but there are no pods for components Frontend, "
        "VllmDecodeWorker."
    )
    action = next(line for line in lines if line.startswith("   What to do: "))
    assert "kubectl dgd doctor" in action
    assert f"kubectl dgd tree healthy -n {stopped.name}" in action
    if who == "admin":  # the operator's Deployments were read: none runs here (it is simulated)
        assert "   No Deployment of the Dynamo operator was found in any namespace" in done.stdout
        assert done.stderr == ""
    else:  # not allowed to read them: not judged, and said once
        assert "No Deployment of the Dynamo operator" not in done.stdout
        assert "deployments at the cluster scope" in done.stderr
        assert done.stderr.count("\n") == 1
