"""Every view of a graph agrees on where it stands (core.phase is the one place that decides).

For each saved status fixture (the examples, the cluster tests' graph builder) and each edit of
the Lua health check's table, the list row, the status view, ``rollout status``, the health
verdict, the Argo CD preview's summary and the Lua health check must give the same answer to:
is it ready, has it settled, has it failed, and how many replicas of how many are ready.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_dgd.argocd.preview import preview_configmap
from kubectl_dgd.core.health import health
from kubectl_dgd.core.listing import graph_row
from kubectl_dgd.core.profile import Profile
from kubectl_dgd.core.status import build_status_view
from kubectl_dgd.usecases.rollout import rollout_state
from tests.argocd.health_variants import variants
from tests.argocd.test_lua import STATUS_FIXTURES, argocd_health, saved
from tests.cluster.conftest import component, graph
from tests.unit.status_fixtures import NOW

SETTLED = ("Healthy", "Suspended")


def _builder_graphs() -> list[tuple[str, dict[str, Any]]]:
    lws = graph(components=[component("Frontend", "frontend"), component("w", "worker")])
    lws["spec"]["components"][1]["multinode"] = {"nodeCount": 2}
    lws["status"]["components"]["w"]["componentKind"] = "LeaderWorkerSet"
    short = graph()
    short["status"]["components"]["decode"]["readyReplicas"] = 1
    return [("builder", graph()), ("builder-lws", lws), ("builder-one-short", short)]


OBJECTS = [(p.stem, saved(p)) for p in STATUS_FIXTURES] + _builder_graphs()
CASES = [
    pytest.param(obj, edit, id=f"{name}-{variant}")
    for name, obj in OBJECTS
    for variant, edit in variants()
]


@dataclass(frozen=True)
class Answer:
    """One view's answer; None where that view does not say."""

    settled: bool | None
    failed: bool | None
    ready_components: int | None
    ready_replicas: int | None
    desired_replicas: int | None


def _preview(obj: dict[str, Any]) -> dict[str, Any] | None:
    configmap, _ = preview_configmap(obj, Profile(), "dynamo", "graph.yaml")
    summary = yaml.safe_load(configmap["data"]["summary.yaml"])
    observed = summary.get("observed")
    assert observed is None or isinstance(observed, dict)
    return observed


def answers(obj: dict[str, Any]) -> dict[str, Answer]:
    row = graph_row(copy.deepcopy(obj), NOW)
    view = build_status_view(copy.deepcopy(obj), NOW)
    state = rollout_state(copy.deepcopy(obj))
    verdict, _ = health(copy.deepcopy(obj))
    lua, _ = argocd_health(copy.deepcopy(obj))
    preview = _preview(copy.deepcopy(obj))
    spec_views = [c for c in view.components if c.inSpec]
    reported = isinstance(obj.get("status"), dict)
    result = {
        "list": Answer(
            # A row has no verdict of its own; its counts must match everyone else's.
            settled=None,
            failed=None,
            ready_components=row.ready_components if reported else None,
            ready_replicas=row.ready_replicas if reported else None,
            desired_replicas=row.desired_replicas if reported else None,
        ),
        "status": Answer(
            settled=view.health.status in SETTLED,
            failed=view.health.status == "Degraded",
            ready_components=sum(
                (c.readyReplicas or 0) >= (c.desiredReplicas or 0) for c in spec_views
            )
            if reported
            else None,
            ready_replicas=view.totals.readyReplicas if reported else None,
            desired_replicas=view.totals.desiredReplicas if reported else None,
        ),
        "rollout": Answer(state.done, state.failed, None, None, None),
        "health": Answer(verdict in SETTLED, verdict == "Degraded", None, None, None),
        "lua": Answer(lua in SETTLED, lua == "Degraded", None, None, None),
        "preview": Answer(
            settled=bool(preview and preview["settled"]),
            failed=None,  # the summary says settled or not, not why
            ready_components=preview["readyComponents"] if preview else None,
            ready_replicas=preview["readyReplicas"] if preview else None,
            desired_replicas=preview["desiredReplicas"] if preview else None,
        ),
    }
    assert reported == (preview is not None)
    return result


def _agree(found: dict[str, Answer]) -> None:
    for field in ("settled", "failed", "ready_components", "ready_replicas", "desired_replicas"):
        values = {view: getattr(a, field) for view, a in found.items()}
        known = {v for v in values.values() if v is not None}
        assert len(known) <= 1, f"{field} differs: {values}"


@pytest.mark.parametrize(("obj", "edit"), CASES)
def test_every_view_agrees(obj: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> None:
    obj = copy.deepcopy(obj)
    edit(obj)
    _agree(answers(obj))


def test_a_grove_graph_whose_podcliques_report_no_ready_replicas_is_not_ready_anywhere() -> None:
    obj = saved(Path(STATUS_FIXTURES[0]).with_name("grove-podcliques-not-ready.yaml"))
    found = answers(obj)
    _agree(found)
    assert found["status"] == Answer(False, False, 0, 0, 2)
    assert found["list"].ready_replicas == 0  # the list used to count availableReplicas: 2
    assert not rollout_state(obj).done
    assert health(obj) == (
        "Progressing",
        "0 of 2 components ready; waiting for Frontend, VllmWorker",
    )


def test_a_ready_grove_graph_is_ready_everywhere() -> None:
    found = answers(saved(Path(STATUS_FIXTURES[0]).with_name("grove-podcliques.yaml")))
    _agree(found)
    assert found["status"] == Answer(True, False, 2, 3, 3)


def test_scaling_groups_count_available_replicas_everywhere() -> None:
    found = answers(saved(Path(STATUS_FIXTURES[0]).with_name("grove-healthy.yaml")))
    _agree(found)
    assert found["preview"] == Answer(True, None, 2, 2, 2)


@pytest.mark.parametrize(
    ("name", "settled", "failed"),
    [
        ("failed", False, True),
        ("superseded", True, False),
        ("lws-multinode", True, False),
        ("rolling-update-in-progress", False, False),
        ("sequential-restart-in-progress", False, False),
    ],
)
def test_fixture_verdicts(name: str, settled: bool, failed: bool) -> None:
    found = answers(saved(Path(STATUS_FIXTURES[0]).with_name(f"{name}.yaml")))
    _agree(found)
    assert (found["health"].settled, found["health"].failed) == (settled, failed)


def test_the_table_covers_every_fixture_kind() -> None:
    names = {name for name, _ in OBJECTS}
    assert {"grove-podcliques", "grove-podcliques-not-ready", "lws-multinode"} <= names
    assert {"failed", "superseded", "grove-healthy"} <= names
