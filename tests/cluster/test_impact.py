"""core.impact: what applying a changed graph will do, per component."""

from __future__ import annotations

import copy
from typing import Any

from kubectl_dgd.adapters.crdfile import bundled_schemas
from kubectl_dgd.core.impact import predict_impact
from kubectl_dgd.core.profile import Profile
from tests.cluster.conftest import component, graph


def live_graph(**kwargs: Any) -> dict[str, Any]:
    obj = graph(**kwargs)
    obj["metadata"]["resourceVersion"] = "10"
    obj["metadata"]["generation"] = 1
    return obj


def impacts(live: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, list[str]]:
    result = predict_impact(live, new, bundled_schemas(), Profile())
    out: dict[str, list[str]] = {}
    for row in result.components:
        out.setdefault(row.name, []).append(row.impact)
    return out


def changed(live: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(live)
    new.pop("status")
    return new


def image(obj: dict[str, Any], index: int, value: str) -> None:
    obj["spec"]["components"][index]["podTemplate"]["spec"]["containers"][0]["image"] = value


def test_no_change_is_nothing_for_every_component() -> None:
    live = live_graph()
    assert impacts(live, changed(live)) == {
        "Frontend": ["none"],
        "decode": ["none"],
        "prefill": ["none"],
    }


def test_one_worker_image_rolls_every_worker_but_not_the_frontend() -> None:
    live = live_graph()
    new = changed(live)
    image(new, 1, "nvcr.io/dynamo:1.5.1")
    assert impacts(live, new) == {
        "Frontend": ["none"],
        "decode": ["managed-rolling-update"],
        "prefill": ["managed-rolling-update"],
    }


def test_worker_replicas_only_is_a_scale() -> None:
    live = live_graph()
    new = changed(live)
    new["spec"]["components"][1]["replicas"] = 4
    assert impacts(live, new) == {"Frontend": ["none"], "decode": ["scale"], "prefill": ["none"]}


def test_frontend_template_change_rolls_its_deployment_in_place() -> None:
    live = live_graph()
    new = changed(live)
    image(new, 0, "nvcr.io/dynamo:1.5.1")
    result = predict_impact(live, new, bundled_schemas(), Profile())
    frontend = next(r for r in result.components if r.name == "Frontend")
    assert frontend.impact == "in-place-rolling-update"
    assert "Deployment my-graph-frontend rolls in place" in frontend.detail
    assert {r.name: r.impact for r in result.components if r.name != "Frontend"} == {
        "decode": "none",
        "prefill": "none",
    }


def test_graph_level_env_rolls_workers_and_non_workers() -> None:
    live = live_graph()
    new = changed(live)
    new["spec"]["env"] = [{"name": "LOG", "value": "debug"}]
    assert impacts(live, new) == {
        "Frontend": ["in-place-rolling-update"],
        "decode": ["managed-rolling-update"],
        "prefill": ["managed-rolling-update"],
    }


def test_grove_graph_updates_natively() -> None:
    live = live_graph(annotations={"nvidia.com/workload-provider": "grove"})
    new = changed(live)
    image(new, 1, "nvcr.io/dynamo:1.5.1")
    assert impacts(live, new)["decode"] == ["grove-native-update"]
    assert impacts(live, new)["prefill"] == ["none"]


def test_new_restart_id_restarts_every_component() -> None:
    live = live_graph()
    new = changed(live)
    new["spec"]["restart"] = {"id": "r1"}
    assert impacts(live, new) == {
        "Frontend": ["restart"],
        "decode": ["restart"],
        "prefill": ["restart"],
    }


def test_component_set_change_is_rejected_with_the_webhook_message() -> None:
    live = live_graph()
    new = changed(live)
    new["spec"]["components"].append(component("extra", "worker"))
    result = predict_impact(live, new, bundled_schemas(), Profile())
    assert {r.impact for r in result.components} == {"rejected"}
    assert any("components added: [extra]" in f.message for f in result.rejected)


def test_restart_during_a_rolling_update_is_rejected() -> None:
    live = live_graph()
    live["status"]["rollingUpdate"] = {"phase": "InProgress"}
    new = changed(live)
    new["spec"]["restart"] = {"id": "during"}
    result = predict_impact(live, new, bundled_schemas(), Profile())
    assert result.rejected, "admission must refuse a restart during a rolling update"
    assert {r.impact for r in result.components} == {"rejected"}


def test_a_graph_not_in_the_cluster_is_created() -> None:
    new = changed(live_graph())
    assert impacts(None, new) == {
        "Frontend": ["created"],
        "decode": ["created"],
        "prefill": ["created"],
    }
