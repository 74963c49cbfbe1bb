"""``list -w`` and ``list --field-selector`` through the console script against the test API
server: a row per event as ``kubectl get -w`` prints them, Ctrl-C exits 130."""

from __future__ import annotations

import json

import yaml

from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph, three_graphs
from tests.cluster.test_watch_rollout import Lines, _interrupt, _start

# At 80 columns RESTART gives way (as in `list`): STATE and ROLLOUT are as wide as their widest
# value from the first row on, and OBSERVED (the time each row was seen) is last.
HEADER = "NAME    STATE          READY   REPLICAS   GPUS   ROLLOUT      AGE     OBSERVED"


def _rt(server: ApiServer) -> object:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return rt


def test_list_watch_prints_the_list_then_a_row_per_added_modified_and_deleted_graph(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph("first"))
    proc = _start(apiserver, "list", "-w")
    lines = Lines(proc)
    try:
        first = lines.until("first ")
        assert first.splitlines() == [
            HEADER,
            "first   successful     3/3     4/4        4      -            120m    12:00:00",
        ]
        rt = _rt(apiserver)
        apiserver.store.create(rt, NS, graph("second", status={}))  # type: ignore[arg-type]
        added = lines.until("second")
        # "second" is wider than NAME was: the header again, at the new widths, above its row
        assert added.splitlines() == [
            "NAME     STATE          READY   REPLICAS   GPUS   ROLLOUT      AGE     OBSERVED",
            "second   initializing   0/3     0/4        4      -            0s      12:00:00",
        ]
        status = apiserver.store.get(rt, NS, "first")["status"]  # type: ignore[arg-type]
        apiserver.store.write_status(rt, NS, "first", {**status, "state": "pending"})  # type: ignore[arg-type]
        assert lines.until("pending").startswith("first    pending        ")
        apiserver.store.delete(rt, NS, "second")  # type: ignore[arg-type]
        lines.until("second")
        # one LIST, then one watch for every change: no polling (the log is read whole, as the
        # watch may open before or after the first rows reach us)
        assert [r.verb for r in apiserver.request_log] == ["list", "watch"]
    finally:
        _, err = _interrupt(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert lines.all().count("NAME ") == 2  # once more, for the wider name only


def test_output_watch_events_adds_the_event_column(apiserver: ApiServer) -> None:
    apiserver.seed(graph("first"))
    proc = _start(apiserver, "list", "-w", "--output-watch-events", "--no-headers")
    lines = Lines(proc)
    try:
        assert lines.until("first").startswith("ADDED      first   ")
        rt = _rt(apiserver)
        status = apiserver.store.get(rt, NS, "first")["status"]  # type: ignore[arg-type]
        apiserver.store.write_status(rt, NS, "first", {**status, "state": "failed"})  # type: ignore[arg-type]
        assert lines.until("failed").startswith("MODIFIED   first   failed")
        apiserver.store.delete(rt, NS, "first")  # type: ignore[arg-type]
        assert lines.until("DELETED").startswith("DELETED    first")
    finally:
        _interrupt(proc)
    assert proc.returncode == 130
    assert "EVENT" not in lines.all()


def test_list_watch_json_prints_each_event_object(apiserver: ApiServer) -> None:
    proc = _start(apiserver, "list", "-w", "-o", "json", "--output-watch-events")
    lines = Lines(proc)
    try:
        rt = _rt(apiserver)
        apiserver.store.create(rt, NS, graph("made", status={}))  # type: ignore[arg-type]
        text = lines.until("\n}\n")
    finally:
        _interrupt(proc)
    event = json.loads(text)
    assert (event["type"], event["object"]["metadata"]["name"]) == ("ADDED", "made")


def test_output_watch_events_needs_watch(apiserver: ApiServer) -> None:
    result = dgd(apiserver, "list", "--output-watch-events")
    assert result.returncode == 2
    assert result.stderr.startswith("error: --output-watch-events needs -w/--watch")


def test_field_selector_is_sent_to_the_server(apiserver: ApiServer) -> None:
    apiserver.seed(*three_graphs())
    apiserver.clear_log()
    result = dgd(apiserver, "list", "--field-selector", "metadata.name=rolling", "-o", "name")
    assert (result.returncode, result.stdout) == (
        0,
        "dynamographdeployment.nvidia.com/rolling\n",
    ), result.stderr
    [request] = [r for r in apiserver.request_log if r.verb == "list"]
    assert request.query["fieldSelector"] == ["metadata.name=rolling"]
    other = dgd(
        apiserver, "list", "-A", "--field-selector", "metadata.namespace!=dynamo", "-o", "name"
    )
    assert other.stdout == "dynamographdeployment.nvidia.com/far-away\n", other.stderr


def test_an_unsupported_field_selector_is_the_servers_400_in_one_line(
    apiserver: ApiServer,
) -> None:
    apiserver.seed(graph())
    result = dgd(apiserver, "list", "--field-selector", "spec.backendFramework=vllm")
    assert result.returncode == 4
    assert result.stderr.count("\n") == 1, result.stderr
    assert "field label not supported: spec.backendFramework" in result.stderr
    assert "Traceback" not in result.stderr


def test_list_watch_yaml_separates_the_objects_as_kubectl_does(apiserver: ApiServer) -> None:
    apiserver.seed(graph("first"))
    proc = _start(apiserver, "list", "-w", "-o", "yaml")
    lines = Lines(proc)
    try:
        lines.until("name: first")
        apiserver.store.create(_rt(apiserver), NS, graph("second", status={}))  # type: ignore[arg-type]
        lines.until("name: second")
        lines.until("backendFramework")
    finally:
        _interrupt(proc)
    text = lines.all()
    assert not text.startswith("---")
    docs = list(yaml.safe_load_all(text))
    assert [d["metadata"]["name"] for d in docs] == ["first", "second"]


def test_sort_by_sorts_the_first_listing_and_warns_as_kubectl(apiserver: ApiServer) -> None:
    older = graph("zeta")
    older["metadata"]["creationTimestamp"] = "2026-10-01T00:00:00Z"
    apiserver.seed(graph("alpha"), older)
    proc = _start(apiserver, "list", "-w", "--sort-by", ".metadata.creationTimestamp", "-o", "name")
    lines = Lines(proc)
    try:
        lines.until("alpha")
    finally:
        _, err = _interrupt(proc)
    assert lines.all().splitlines() == [
        "dynamographdeployment.nvidia.com/zeta",
        "dynamographdeployment.nvidia.com/alpha",
    ]
    assert (
        err == "warning: --watch requested, --sort-by will be ignored for watch events received\n"
    )


def test_status_watch_without_a_name_is_list_watch(apiserver: ApiServer) -> None:
    # kubectl get dgd -w: status without NAME is the list, and so is its --watch
    apiserver.seed(graph("first"))
    proc = _start(apiserver, "status", "-w")
    lines = Lines(proc)
    try:
        assert lines.until("first ").splitlines()[0] == HEADER
        rt = _rt(apiserver)
        apiserver.store.create(rt, NS, graph("second", status={}))  # type: ignore[arg-type]
        assert lines.until("second").splitlines()[1].startswith("second   initializing")
    finally:
        _, err = _interrupt(proc)
    assert proc.returncode == 130, err
    assert lines.all().count("NAME ") == 2
