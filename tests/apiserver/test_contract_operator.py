"""The simulated operator advances status as the Dynamo operator does (restarts, rolling updates)."""

from __future__ import annotations

from typing import Any

from kubernetes import client, watch

from tests.apiserver.fixtures import api_client, sample_dgd
from tests.apiserver.operator_sim import HASH_ANNOTATION, OperatorSim
from tests.apiserver.resources import DGD, EVENTS
from tests.apiserver.server import ApiServer, wait_until

NS = "dynamo"


def _dgd(server: ApiServer, name: str = "g") -> dict[str, Any]:
    return server.store.get(DGD, NS, name)


def _restart(server: ApiServer, restart: dict[str, Any], name: str = "g") -> None:
    def apply(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"]["restart"] = restart
        return obj

    server.store.patch(DGD, NS, name, apply)


def _change_worker_image(server: ApiServer, image: str, name: str = "g") -> None:
    def apply(obj: dict[str, Any]) -> dict[str, Any]:
        for component in obj["spec"]["components"]:
            if component.get("type") == "worker":
                component["podTemplate"]["spec"]["containers"][0]["image"] = image
        return obj

    server.store.patch(DGD, NS, name, apply)


def _restart_status(server: ApiServer) -> tuple[str | None, list[str] | None]:
    restart = _dgd(server).get("status", {}).get("restart", {})
    return restart.get("phase"), restart.get("inProgress")


def _events(server: ApiServer) -> list[str]:
    items, _ = server.store.list(EVENTS, NS)
    return [e["reason"] for e in sorted(items, key=lambda e: e["metadata"]["resourceVersion"])]


def test_observed_generation_follows_spec_changes(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    _restart(apiserver, {"id": "r1"})
    assert _dgd(apiserver)["metadata"]["generation"] == 2
    operator_sim.step()
    assert _dgd(apiserver)["status"]["observedGeneration"] == 2


def test_first_reconcile_records_worker_hash_without_rolling(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    operator_sim.settle()
    graph = _dgd(apiserver)
    assert len(graph["metadata"]["annotations"][HASH_ANNOTATION]) == 8
    assert "rollingUpdate" not in graph["status"]
    assert graph["metadata"]["generation"] == 1


def test_sequential_restart_default_order_is_alphabetical_byte_order(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g", others=("frontend",), workers=("Worker", "decode")))
    operator_sim.settle()
    _restart(apiserver, {"id": "r1"})
    seen = []
    for _ in range(4):
        operator_sim.step()
        seen.append(_restart_status(apiserver))
    assert seen == [
        ("Restarting", ["Worker"]),
        ("Restarting", ["decode"]),
        ("Restarting", ["frontend"]),
        ("Completed", None),
    ]
    assert _dgd(apiserver)["status"]["restart"]["observedID"] == "r1"


def test_sequential_restart_follows_given_order(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g", others=("Frontend",), workers=("Decode", "Prefill")))
    operator_sim.settle()
    _restart(
        apiserver,
        {
            "id": "r1",
            "strategy": {"type": "Sequential", "order": ["Prefill", "Decode", "Frontend"]},
        },
    )
    seen = []
    for _ in range(4):
        operator_sim.step()
        seen.append(_restart_status(apiserver))
    assert [s[1] for s in seen] == [["Prefill"], ["Decode"], ["Frontend"], None]


def test_slow_components_stay_in_progress_for_several_steps(apiserver: ApiServer) -> None:
    apiserver.seed(sample_dgd("g", others=("A",), workers=("B",)))
    sim = OperatorSim(apiserver.store, restart_ticks=2)
    sim.settle()
    _restart(apiserver, {"id": "r1"})
    seen = []
    for _ in range(5):
        sim.step()
        seen.append(_restart_status(apiserver)[1])
    assert seen == [["A"], ["A"], ["B"], ["B"], None]


def test_parallel_restart_puts_all_components_in_progress_then_completes(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g", others=("Frontend",), workers=("B", "A")))
    operator_sim.settle()
    _restart(apiserver, {"id": "r1", "strategy": {"type": "Parallel"}})
    operator_sim.step()
    assert _restart_status(apiserver) == ("Restarting", ["A", "B", "Frontend"])
    operator_sim.step()
    assert _restart_status(apiserver) == ("Completed", None)


def test_a_processed_restart_id_is_left_alone(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    _restart(apiserver, {"id": "r1", "strategy": {"type": "Parallel"}})
    operator_sim.settle()
    rv = _dgd(apiserver)["metadata"]["resourceVersion"]
    assert operator_sim.step() is False
    assert _dgd(apiserver)["metadata"]["resourceVersion"] == rv


def test_worker_template_change_rolls_through_pending_inprogress_completed(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g", workers=("VllmWorker",)))
    operator_sim.settle()
    old_hash = _dgd(apiserver)["metadata"]["annotations"][HASH_ANNOTATION]
    _change_worker_image(apiserver, "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0")

    operator_sim.step()
    status = _dgd(apiserver)["status"]
    assert status["rollingUpdate"]["phase"] == "Pending"
    assert status["rollingUpdate"]["startTime"]
    assert status["state"] == "pending"
    ready = status["conditions"][0]
    assert (ready["type"], ready["status"], ready["reason"]) == (
        "Ready",
        "False",
        "rolling_update_in_progress",
    )

    operator_sim.step()
    assert _dgd(apiserver)["status"]["rollingUpdate"]["phase"] == "InProgress"

    operator_sim.step()
    status = _dgd(apiserver)["status"]
    worker = status["components"]["VllmWorker"]
    new_hash = worker["componentNames"][1].rsplit("-", 1)[1]
    assert worker["componentNames"] == [f"g-vllmworker-{old_hash}", f"g-vllmworker-{new_hash}"]
    assert (worker["replicas"], worker["readyReplicas"], worker["updatedReplicas"]) == (2, 1, 1)
    assert status["components"]["Frontend"]["componentNames"] == ["g-frontend"]

    operator_sim.step()
    graph = _dgd(apiserver)
    status = graph["status"]
    assert status["rollingUpdate"]["phase"] == "Completed"
    assert status["rollingUpdate"]["endTime"]
    assert status["rollingUpdate"]["updatedComponents"] == ["VllmWorker"]
    assert graph["metadata"]["annotations"][HASH_ANNOTATION] == new_hash
    assert status["components"]["VllmWorker"]["componentNames"] == [f"g-vllmworker-{new_hash}"]
    assert status["state"] == "successful"
    assert status["conditions"][0]["reason"] == "all_resources_are_ready"
    assert _events(apiserver) == ["RollingUpdateStarted", "RollingUpdateCompleted"]


def test_changing_one_worker_rolls_every_worker(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g", workers=("Decode", "Prefill")))
    operator_sim.settle()

    def apply(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["args"] = ["--x"]
        return obj

    apiserver.store.patch(DGD, NS, "g", apply)
    operator_sim.settle()
    assert _dgd(apiserver)["status"]["rollingUpdate"]["updatedComponents"] == ["Decode", "Prefill"]


def test_replica_or_frontend_changes_do_not_roll_workers(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    operator_sim.settle()

    def apply(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"]["components"][1]["replicas"] = 3
        obj["spec"]["components"][0]["podTemplate"]["spec"]["containers"][0]["image"] = "x:1.5.0"
        return obj

    apiserver.store.patch(DGD, NS, "g", apply)
    operator_sim.settle()
    status = _dgd(apiserver)["status"]
    assert "rollingUpdate" not in status
    assert status["components"]["VllmDecodeWorker"]["replicas"] == 3


def test_new_restart_during_rolling_update_is_superseded(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    operator_sim.settle()
    _change_worker_image(apiserver, "x:1.5.0")
    operator_sim.step()  # Pending
    _restart(apiserver, {"id": "r1"})
    operator_sim.step()
    assert _dgd(apiserver)["status"]["restart"] == {"observedID": "r1", "phase": "Superseded"}
    operator_sim.settle()
    assert _dgd(apiserver)["status"]["restart"] == {"observedID": "r1", "phase": "Superseded"}
    assert _events(apiserver) == [
        "RollingUpdateStarted",
        "RestartSuperseded",
        "RollingUpdateCompleted",
    ]
    items, _ = apiserver.store.list(EVENTS, NS)
    superseded = next(e for e in items if e["reason"] == "RestartSuperseded")
    assert superseded["message"] == "Restart r1 superseded by rolling update"
    assert superseded["involvedObject"]["name"] == "g"


def test_events_are_listed_by_involved_object(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"), sample_dgd("h"))
    operator_sim.settle()
    _change_worker_image(apiserver, "x:1.5.0", name="h")
    operator_sim.settle()
    core = client.CoreV1Api(api_client(apiserver))
    listed = core.list_namespaced_event(
        NS, field_selector="involvedObject.name=h,involvedObject.kind=DynamoGraphDeployment"
    )
    assert [e.reason for e in listed.items] and {e.involved_object.name for e in listed.items} == {
        "h"
    }
    assert not core.list_namespaced_event(NS, field_selector="involvedObject.name=g").items


def test_background_operator_steps_are_seen_by_a_watch(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    apiserver.seed(sample_dgd("g"))
    operator_sim.settle()
    _restart(apiserver, {"id": "r1"})
    since = _dgd(apiserver)["metadata"]["resourceVersion"]
    operator_sim.start(interval=0.02)
    api = client.CustomObjectsApi(api_client(apiserver))
    phases = []
    stream: Any = watch.Watch()  # type: ignore[no-untyped-call]
    for event in stream.stream(
        api.list_namespaced_custom_object,
        "nvidia.com",
        "v1beta1",
        NS,
        "dynamographdeployments",
        resource_version=since,
        timeout_seconds=5,
    ):
        restart = event["object"].get("status", {}).get("restart", {})
        phases.append((restart.get("phase"), tuple(restart.get("inProgress") or ())))
        if restart.get("phase") == "Completed":
            stream.stop()
    assert phases == [
        ("Restarting", ("Frontend",)),
        ("Restarting", ("VllmDecodeWorker",)),
        ("Completed", ()),
    ]


def test_paused_graph_does_not_advance(apiserver: ApiServer, operator_sim: OperatorSim) -> None:
    apiserver.seed(sample_dgd("g"))
    operator_sim.pause("g")
    _restart(apiserver, {"id": "r1"})
    operator_sim.start(interval=0.01)
    assert not wait_until(lambda: "restart" in _dgd(apiserver)["status"], timeout=0.3)
    operator_sim.resume("g")
    assert wait_until(lambda: _restart_status(apiserver)[0] == "Completed", timeout=5)


def test_grove_graphs_never_get_a_managed_rolling_update(
    apiserver: ApiServer, operator_sim: OperatorSim
) -> None:
    graph = sample_dgd("g")
    graph["metadata"]["annotations"]["nvidia.com/workload-provider"] = "grove"
    apiserver.seed(graph)
    operator_sim.settle()
    _change_worker_image(apiserver, "x:1.5.0")
    operator_sim.settle()
    status = _dgd(apiserver)["status"]
    assert "rollingUpdate" not in status
    assert status["state"] == "successful"
