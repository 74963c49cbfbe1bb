"""``events NAME`` and ``status NAME --events`` keep the Events of objects that are gone: a
crash-looping pod deleted and replaced (the real ReplicaSet controller makes the new one) still
has its BackOff Event shown, named by the operator's naming rather than by a live uid;
``--types`` and ``--for`` narrow them as kubectl events' flags do."""

from __future__ import annotations

import json

from tests.realcluster.conftest import RealNamespace
from tests.realcluster.scenarios import component, graph

GRAPH = "history"


def _pods(ns: RealNamespace, component_name: str) -> list[str]:
    selector = f"nvidia.com/dynamo-component={component_name}"
    return [p["metadata"]["name"] for p in ns.rest.list("Pod", ns.name, selector)]


def _backoff_of(ns: RealNamespace, pod: str) -> bool:
    return any(
        e.get("reason") == "BackOff" and (e.get("involvedObject") or {}).get("name") == pod
        for e in ns.rest.list("Event", ns.name)
    )


def test_a_replaced_crashing_pods_backoff_event_is_still_the_graphs(real_ns: RealNamespace) -> None:
    real_ns.create(
        graph(
            GRAPH,
            component("Frontend", "frontend"),
            component("VllmWorker", "worker", gpus=1, simulate="CrashLoopBackOff"),
            namespace=real_ns.name,
        )
    )
    (crashed,) = real_ns.rest.wait_for(
        "a worker pod", lambda: _pods(real_ns, "VllmWorker") or None, timeout=90
    )
    real_ns.rest.wait_for("its BackOff Event", lambda: _backoff_of(real_ns, crashed), timeout=90)
    real_ns.rest.delete("Pod", crashed, real_ns.name)
    real_ns.rest.wait_for(
        "its replacement, and the crashed pod gone",
        lambda: (pods := _pods(real_ns, "VllmWorker")) and crashed not in pods,
        timeout=90,
    )

    every = real_ns.kdgd("events", GRAPH, "-o", "json")
    assert every.returncode == 0, every.stderr
    rows = json.loads(every.stdout)["events"]
    gone = [r for r in rows if r["object"] == f"Pod/{crashed}"]
    assert {r["reason"] for r in gone} >= {"BackOff"}, rows
    assert all(r["component"] == "VllmWorker" for r in gone)
    assert not any("{{" in r["message"] for r in rows), rows  # the stage's words, as sent
    assert any(r["component"] == "Frontend" for r in rows)

    warnings = real_ns.kdgd("events", GRAPH, "--types=Warning", "--for", "VllmWorker")
    assert warnings.returncode == 0, warnings.stderr
    lines = warnings.stdout.splitlines()
    assert any("BackOff" in line and f"Pod/{crashed}" in line for line in lines), lines
    assert all(" Normal " not in line for line in lines[1:])
    assert all("frontend" not in line for line in lines[1:]), lines

    normal = real_ns.kdgd("events", GRAPH, "--types", "normal", "--for", "Frontend", "-o", "json")
    assert normal.returncode == 0, normal.stderr
    kept = json.loads(normal.stdout)["events"]
    assert kept and all(r["type"] == "Normal" and r["component"] == "Frontend" for r in kept)

    status = real_ns.kdgd("status", GRAPH, "--events", "--types=Warning", "-o", "wide")
    assert status.returncode == 0, status.stderr
    assert f"Pod/{crashed}" in status.stdout and "BackOff" in status.stdout, status.stdout

    wrong = real_ns.kdgd("events", GRAPH, "--types=Error")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert "valid --types are Normal or Warning" in wrong.stderr
    typo = real_ns.kdgd("events", GRAPH, "--for", "VllmWorkr")
    assert typo.returncode == 3
    assert (
        "has no component VllmWorkr (did you mean VllmWorker?); its components: Frontend, VllmWorker"
        in typo.stderr
    )


def test_a_neighbour_graph_named_like_a_component_path_keeps_its_events(
    real_ns: RealNamespace,
) -> None:
    # pair's component "decode" names its children pair-decode-...; so does the graph
    # pair-decode, whose worker's children are pair-decode-worker-...
    real_ns.create(
        graph(
            "pair",
            component("Frontend", "frontend"),
            component("decode", "worker", gpus=1),
            namespace=real_ns.name,
        )
    )
    real_ns.create(
        graph("pair-decode", component("worker", "worker", gpus=1), namespace=real_ns.name)
    )
    real_ns.wait_ready("pair")
    real_ns.wait_ready("pair-decode")
    (neighbours,) = real_ns.rest.wait_for(
        "the neighbour's worker pod", lambda: _pods(real_ns, "worker") or None, timeout=90
    )
    real_ns.rest.wait_for(
        "an Event about it",
        lambda: any(
            (e.get("involvedObject") or {}).get("name") == neighbours
            for e in real_ns.rest.list("Event", real_ns.name)
        ),
        timeout=90,
    )

    for who in ("admin", "dev"):
        ours = real_ns.kdgd("events", "pair", "-o", "json", who=who)
        assert ours.returncode == 0, ours.stderr
        rows = json.loads(ours.stdout)["events"]
        assert any(r["component"] == "decode" for r in rows), rows
        assert not any("pair-decode-worker" in r["object"] for r in rows), rows
        theirs = real_ns.kdgd("events", "pair-decode", "-o", "json", who=who)
        assert any(r["object"] == f"Pod/{neighbours}" for r in json.loads(theirs.stdout)["events"])
        status = real_ns.kdgd("status", "pair", "--events", who=who)
        assert status.returncode == 0, status.stderr
        assert "pair-decode-worker" not in status.stdout
