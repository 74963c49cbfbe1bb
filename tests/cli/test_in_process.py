"""Commands run in this process with fake dependencies (tests/fakes.py): exact stdout, stderr
and exit code, no subprocess, no API server. The goldens are the same files the console-script
tests compare with, so both paths must print the same bytes."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kubectl_dgd.core.restart import CREATE_MESSAGE
from tests.cluster.conftest import NOW, graph, three_graphs
from tests.conftest import EXAMPLES, GOLDEN, assert_golden
from tests.fakes import FakeCluster, FakeDeps, invoke

STATUS = EXAMPLES / "status"
STATUS_NOW = "2026-11-30T10:00:00Z"


# ---- status -f -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "suffix"), [("text", "txt"), ("wide", "wide.txt"), ("json", "json")]
)
@pytest.mark.parametrize("example", ["healthy", "rolling-update-in-progress", "grove-healthy"])
def test_status_file_prints_the_golden(example: str, output: str, suffix: str) -> None:
    fake = FakeDeps(now=STATUS_NOW, environ={"COLUMNS": "200"})  # the goldens' width
    code = invoke(fake, "status", "-f", str(STATUS / f"{example}.yaml"), "-o", output)
    assert (code, fake.err) == (0, "")
    assert fake.out == (GOLDEN / "status" / f"{example}.{suffix}").read_text()


@pytest.mark.parametrize(
    ("args", "golden"),
    [(("-A",), "list-all-namespaces_80.txt"), (("--show-labels",), "list-show-labels_80.txt")],
)
def test_list_fits_80_columns(args: tuple[str, ...], golden: str) -> None:
    fake = FakeDeps(FakeCluster(three_graphs()), now=NOW)  # not a terminal: 80 columns
    assert invoke(fake, "list", *args) == 0
    assert_golden(f"cluster/{golden}", fake.out)
    assert max(len(line) for line in fake.out.splitlines()) <= 80


def test_status_file_never_builds_a_cluster_client() -> None:
    fake = FakeDeps(now=STATUS_NOW)  # no cluster: asking for one fails the test
    assert invoke(fake, "status", "-f", str(STATUS / "healthy.yaml"), "-o", "name") == 0
    assert fake.out == "dynamographdeployment.nvidia.com/vllm-disagg\n"


def test_status_file_clock_comes_from_the_environment() -> None:
    fake = FakeDeps(environ={"DGD_NOW": "2026-11-30T11:00:00Z"}, now=STATUS_NOW)
    path = str(STATUS / "rolling-update-in-progress.yaml")
    assert invoke(fake, "status", "-f", path, "-o", "json") == 0
    assert json.loads(fake.out)["rollingUpdate"]["elapsed"] == "1h5m"


def test_status_file_with_a_live_flag_is_a_usage_error() -> None:
    fake = FakeDeps(now=STATUS_NOW)
    assert invoke(fake, "status", "-f", str(STATUS / "healthy.yaml"), "-n", "prod") == 2
    assert fake.out == ""
    assert fake.err == "error: -n/--namespace is for live graphs; it cannot be used with -f\n"


# ---- list ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "golden"),
    [
        ((), "list.txt"),
        (("-A",), "list-all-namespaces.txt"),
        (("-o", "wide", "--no-headers"), "list-wide-no-headers.txt"),
    ],
)
def test_list_against_a_fake_cluster_prints_the_golden(args: tuple[str, ...], golden: str) -> None:
    cluster = FakeCluster(three_graphs())
    fake = FakeDeps(cluster, now=NOW, environ={"COLUMNS": "120"})  # the goldens' width
    assert invoke(fake, "list", *args) == 0
    assert fake.err == ""
    assert fake.out == (GOLDEN / "cluster" / golden).read_text()
    assert [verb for verb, _, _ in cluster.calls] == ["list"]


def test_list_names_with_a_selector() -> None:
    cluster = FakeCluster(three_graphs())
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "list", "-l", "team=a", "-o", "name") == 0
    assert (fake.out, fake.err) == ("dynamographdeployment.nvidia.com/rolling\n", "")
    assert cluster.calls == [("list", "dynamo", "team=a")]


def test_list_json_is_the_objects_in_a_v1_list() -> None:
    fake = FakeDeps(FakeCluster(three_graphs()), now=NOW)
    assert invoke(fake, "list", "-o", "json") == 0
    data = json.loads(fake.out)
    assert (data["apiVersion"], data["kind"]) == ("v1", "List")
    assert [i["metadata"]["name"] for i in data["items"]] == ["my-graph", "restarted", "rolling"]
    assert data["items"][0] == graph()


def test_list_of_an_empty_namespace_says_so_on_stderr_only() -> None:
    fake = FakeDeps(FakeCluster([]), now=NOW)
    assert invoke(fake, "list") == 0
    assert (fake.out, fake.err) == ("", "No resources found in dynamo namespace.\n")


def test_list_json_of_an_empty_namespace_is_an_empty_list() -> None:
    fake = FakeDeps(FakeCluster([]), now=NOW)
    assert invoke(fake, "list", "-o", "json") == 0
    assert fake.out == '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": []\n}\n'
    assert fake.err == ""


# ---- status NAME -----------------------------------------------------------------------------

EVENTS: list[dict[str, Any]] = [
    {
        "type": "Normal",
        "reason": "Reconciled",
        "message": "all\nchildren ready",
        "count": 3,
        "firstTimestamp": "2026-11-01T10:00:00Z",
        "lastTimestamp": "2026-11-01T11:58:00Z",
    },
    {"type": "Warning", "reason": "BackOff", "eventTime": "2026-11-01T11:59:30Z"},
]


def test_status_with_events_adds_the_events_block() -> None:
    cluster = FakeCluster([graph()], events={("dynamo", "my-graph"): EVENTS})
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "status", "my-graph", "--events") == 0
    plain = FakeDeps(FakeCluster([graph()]), now=NOW)
    assert invoke(plain, "status", "my-graph") == 0
    assert fake.out == plain.out + (
        "\n"
        "Events:\n"
        "  TYPE     REASON      AGE      MESSAGE\n"
        "  Normal   Reconciled  2m (x3)  all children ready\n"
        "  Warning  BackOff     30s\n"
    )
    # one LIST of the namespace's Events (the graph's, its children's and pods'), was the
    # graph's own Events (a LIST by field selector)
    assert [verb for verb, _, _ in cluster.calls] == ["get", "list"]


def test_status_with_events_as_json_carries_them() -> None:
    cluster = FakeCluster([graph()], events={("dynamo", "my-graph"): EVENTS})
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "status", "my-graph", "--events", "-o", "json") == 0
    assert json.loads(fake.out)["events"] == [
        {
            "type": "Normal",
            "reason": "Reconciled",
            "message": "all\nchildren ready",
            "count": 3,
            "firstTimestamp": "2026-11-01T10:00:00Z",
            "lastTimestamp": "2026-11-01T11:58:00Z",
        },
        {
            "type": "Warning",
            "reason": "BackOff",
            "message": None,
            "count": 1,
            "firstTimestamp": "2026-11-01T11:59:30Z",
            "lastTimestamp": "2026-11-01T11:59:30Z",
        },
    ]


def test_status_events_of_a_quiet_graph() -> None:
    fake = FakeDeps(FakeCluster([graph()]), now=NOW)
    assert invoke(fake, "status", "my-graph", "--events") == 0
    assert fake.out.endswith("\nEvents:       <none>\n")


def test_status_of_a_missing_graph_is_exit_3() -> None:
    fake = FakeDeps(FakeCluster([]), now=NOW)
    assert invoke(fake, "status", "nope") == 3
    assert fake.out == ""
    assert fake.err == (
        'error: dynamographdeployments.nvidia.com "nope" in namespace "dynamo" not found; the '
        "namespace has no graphs (the DynamoGraphDeployment CRD is installed; check -n)\n"
    )


def test_status_watch_prints_a_block_per_change_until_interrupted() -> None:
    changed = graph()
    changed["metadata"]["resourceVersion"] = "2"
    changed["status"]["state"] = "pending"
    cluster = FakeCluster([graph()], watch_scripts=[[("MODIFIED", changed)]])
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "status", "my-graph", "--watch", "-o", "yaml") == 130
    first, second = fake.out.split("---\n")
    assert "state: successful\n" in first
    assert "state: pending\n" in second
    assert fake.err == ""


# ---- rollout ---------------------------------------------------------------------------------


def test_rollout_explain_of_a_quiet_graph_prints_the_golden() -> None:
    cluster = FakeCluster([graph()])
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "rollout", "explain", "my-graph") == 0
    assert fake.out == (GOLDEN / "cluster" / "rollout-explain-quiet.txt").read_text()
    assert (fake.err, cluster.calls) == ("", [("get", "dynamo", "my-graph")])


def test_rollout_explain_mid_rolling_update() -> None:
    obj = graph()
    obj["status"]["rollingUpdate"] = {
        "phase": "InProgress",
        "startTime": "2026-11-01T11:55:00Z",
        "updatedComponents": ["decode"],
    }
    fake = FakeDeps(FakeCluster([obj]), now=NOW, environ={"COLUMNS": "200"})
    assert invoke(fake, "rollout", "explain", "my-graph") == 0
    head, *_, advice = fake.out.split("\n\n")
    assert head == (
        'dgd "my-graph" in namespace "dynamo": rolling update InProgress, 1 of 2 worker '
        "components updated (decode)."  # a statement: not waiting, no "..."
    )
    assert advice.startswith(
        "What you can do:\n- see what blocks it: kubectl dgd why my-graph -n dynamo\n"
        "- follow it: kubectl dgd rollout status my-graph -n dynamo\n"
    )
    assert fake.err == ""


def test_rollout_status_of_a_settled_graph() -> None:
    fake = FakeDeps(FakeCluster([graph()]), now=NOW)
    assert invoke(fake, "rollout", "status", "my-graph") == 0
    assert (fake.out, fake.err) == ('dgd "my-graph" successfully rolled out\n', "")


def test_rollout_status_times_out_on_the_fake_clock() -> None:
    obj = graph()
    obj["metadata"]["generation"] = 2
    cluster = FakeCluster([obj], watch_scripts=[[] for _ in range(10)])
    fake = FakeDeps(cluster, now=NOW, environ={"COLUMNS": "200"})
    assert invoke(fake, "rollout", "status", "my-graph", "--timeout", "3s") == 1
    # No operator Deployment in the fake cluster: why's root cause, said once under the line.
    assert fake.out == (
        'Waiting for dgd "my-graph" rollout to finish: generation 2 not yet observed by the '
        "operator...\n"
        "  blocked by OperatorLagging: The Dynamo operator is not running: no Deployment of it "
        "was found (a manager container running kubernetes-operator, or the label "
        "app.kubernetes.io/name=dynamo-operator).\n"
        "    The operator has not acted on the graph's latest change (generation 2, observed 1).\n"
    )
    assert fake.err == (
        "error: timed out waiting for the condition; what blocks it: "
        "kubectl dgd why my-graph -n dynamo\n"
    )


def test_rollout_status_and_explain_wrap_at_80_columns_between_words() -> None:
    obj = graph()
    obj["metadata"]["generation"] = 2
    obj["status"]["rollingUpdate"] = {
        "phase": "InProgress",
        "startTime": "2026-11-01T11:55:00Z",
        "updatedComponents": ["decode"],
    }
    cluster = FakeCluster([obj], watch_scripts=[[] for _ in range(10)])
    fake = FakeDeps(cluster, now=NOW)
    invoke(fake, "rollout", "status", "my-graph", "--timeout", "3s")
    assert fake.out.startswith(
        'Waiting for dgd "my-graph" rollout to finish: generation 2 not yet observed by\n'
        "  the operator...\n"
        "  blocked by OperatorLagging: The Dynamo operator is not running: no Deployment\n"
    )
    assert max(len(line) for line in fake.out.splitlines()) <= 80
    fake = FakeDeps(FakeCluster([obj]), now=NOW)
    assert invoke(fake, "rollout", "explain", "my-graph") == 0
    assert_golden("cluster/rollout-explain-rolling_80.txt", fake.out)
    wide = FakeDeps(FakeCluster([obj]), now=NOW, environ={"COLUMNS": "200"})
    assert invoke(wide, "rollout", "explain", "my-graph") == 0
    assert_golden("cluster/rollout-explain-rolling_200.txt", wide.out)
    assert max(len(line) for line in fake.out.splitlines()) <= 80
    assert fake.out.split() == wide.out.split()  # the same words, only the breaks differ


# ---- restart NAME ----------------------------------------------------------------------------


def test_restart_dry_run_patches_nothing() -> None:
    cluster = FakeCluster([graph()])
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "restart", "my-graph", "--parallel", "--id", "r7", "--dry-run") == 0
    assert fake.out == (
        "dynamo/my-graph: restart id (none) -> r7\n"
        "strategy: Parallel (all components at once)\n"
        "dry run: nothing patched\n"
    )
    assert fake.err == ""
    # the graph, then the GPU peak check's nodes (none offers GPUs here: no pods LIST)
    assert cluster.calls == [("get", "dynamo", "my-graph"), ("list", None, "nodes")]


def test_restart_default_id_is_the_wall_clock_not_dgd_now() -> None:
    cluster = FakeCluster([graph()])
    fake = FakeDeps(cluster, environ={"DGD_NOW": "2030-01-01T00:00:00Z"}, now=NOW)
    assert invoke(fake, "restart", "my-graph", "--parallel") == 0
    assert fake.out.splitlines()[0] == "dynamo/my-graph: restart id (none) -> 2026-11-01T12:00:00Z"
    assert fake.out.endswith("dynamographdeployment.nvidia.com/my-graph restart requested\n")
    assert cluster.graphs[("dynamo", "my-graph")]["spec"]["restart"]["id"] == "2026-11-01T12:00:00Z"


# ---- validate --------------------------------------------------------------------------------

COMMON_MISTAKES = EXAMPLES / "invalid" / "common-mistakes.yaml"


def test_validate_prints_one_line_per_finding_and_the_summary() -> None:
    fake = FakeDeps()
    assert invoke(fake, "validate", str(COMMON_MISTAKES)) == 1
    where = str(COMMON_MISTAKES)
    assert fake.out == (
        f"{where}:11: spec: Invalid value: spec.restart must be unset on create; set "
        "spec.restart.id after creation to request a restart (error, cel/cel-rule)\n"
        f"{where}:13: spec.restart: spec.restart in a file that creates the graph is rejected on "
        "create; create the graph first, then set spec.restart.id to request a restart (warning, "
        "lint/restart-on-create)\n"
        f"{where}:15: spec.components: Invalid value: component names must be unique "
        "case-insensitively (error, cel/cel-rule)\n"
        f"{where}:16: spec.components[0].podTemplate.spec.containers: Required value: is required "
        "(error, webhook/main-image-required)\n"
        # no runtime-version error for the component without an image: the operator's two
        # checks are exclusive (issue 8)
        f"{where}:18: spec.components[1].runtimeVersionOverride: Required value: is required when "
        "the specified main container image has no parseable semantic-version tag (error, "
        "webhook/runtime-version-required)\n"
        f"{where}:24: spec.components[1].podTemplate.spec.containers[0].image: image "
        '"nvcr.io/nvidia/ai-dynamo/vllm-runtime:latest" uses the "latest" tag: it is not '
        "reproducible (warning, lint/image-latest)\n"
        "1 document, 1 graph: 0 valid, 1 invalid, 0 skipped\n"
    )
    assert fake.err == ""


@pytest.mark.parametrize("columns", ["80", "200"])
def test_validate_on_a_terminal_wraps_each_finding_between_words(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES.parent.parent)  # a relative path: the golden is the same anywhere
    path = str(COMMON_MISTAKES.relative_to(EXAMPLES.parent.parent))
    fake = FakeDeps(tty=True, environ={"NO_COLOR": "1", "COLUMNS": columns})
    assert invoke(fake, "validate", path) == 1
    assert_golden(f"validate/common-mistakes_{columns}.txt", fake.out)
    assert max(len(line) for line in fake.out.splitlines()) <= int(columns)
    piped = FakeDeps(environ={"COLUMNS": columns})  # piped: one line per finding, for grep
    assert invoke(piped, "validate", path) == 1
    assert fake.out.split() == piped.out.split()
    assert len(piped.out.splitlines()) == 7


def test_validate_colours_only_a_terminal_without_no_color() -> None:
    path = str(EXAMPLES / "vllm-agg.yaml")
    tty = FakeDeps(tty=True)
    assert invoke(tty, "validate", path) == 0
    assert tty.out == "\x1b[1m1 document, 1 graph: 1 valid, 0 invalid, 0 skipped\x1b[0m\n"
    no_color = FakeDeps(tty=True, environ={"NO_COLOR": "1"})
    assert invoke(no_color, "validate", path) == 0
    assert no_color.out == "1 document, 1 graph: 1 valid, 0 invalid, 0 skipped\n"


def test_validate_json_keeps_unreadable_inputs_in_its_errors() -> None:
    fake = FakeDeps()
    assert invoke(fake, "validate", "-o", "json", "/nonexistent/graph.yaml") == 2
    assert fake.err == ""
    data = json.loads(fake.out)
    assert data["errors"] == [
        {
            "source": "/nonexistent/graph.yaml",
            "line": None,
            "message": "/nonexistent/graph.yaml: no such file",
        }
    ]


def test_validate_unreadable_input_in_text_goes_to_stderr() -> None:
    fake = FakeDeps()
    assert invoke(fake, "validate", "/nonexistent/graph.yaml") == 2
    assert fake.out == "0 documents, 0 graphs: 0 valid, 0 invalid, 0 skipped, 1 unreadable\n"
    assert fake.err == "error: /nonexistent/graph.yaml: no such file\n"


def test_validate_without_input_is_a_usage_error() -> None:
    fake = FakeDeps()
    assert invoke(fake, "validate") == 2
    assert fake.out == ""
    assert fake.err == (
        "error: no input: give files, directories, -f PATH or - for standard input\n"
    )


def test_an_unknown_flag_is_one_line_on_the_fake_stderr() -> None:
    fake = FakeDeps()
    assert invoke(fake, "validate", "--bogus") == 2
    assert fake.out == ""
    assert fake.err == (
        "error: No such option '--bogus'. Did you mean '--verbose'? "
        "See 'kubectl dgd validate --help'.\n"
    )


# ---- restart -f, diff ------------------------------------------------------------------------


def test_restart_file_dry_run_prints_the_golden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "graph.yaml"
    shutil.copyfile(EXAMPLES / "vllm-agg.yaml", target)
    before = target.read_bytes()
    monkeypatch.chdir(tmp_path)
    fake = FakeDeps()  # no cluster: restart -f never builds one
    assert invoke(fake, "restart", "-f", "graph.yaml", "--id", "fix-1", "--dry-run") == 0
    assert target.read_bytes() == before
    assert fake.out == (GOLDEN / "restart" / "vllm-agg-dry-run.txt").read_text()
    assert fake.err == (
        f"warning: apply this only to a graph that already exists: {CREATE_MESSAGE}\n"
    )


def test_diff_of_a_worker_image_prints_the_golden(tmp_path: Path) -> None:
    live = graph()
    new = copy.deepcopy(live)
    new["spec"]["components"][2]["podTemplate"]["spec"]["containers"][0]["image"] = (
        "nvcr.io/dynamo:1.5.2"
    )
    new["spec"]["components"][0]["replicas"] = 2
    del new["status"], new["metadata"]["creationTimestamp"]
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(new))
    cluster = FakeCluster([live])
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "diff", "-f", str(path), "-o", "wide") == 1
    assert fake.out == (GOLDEN / "cluster" / "diff-worker-image.txt").read_text()
    # the worker's GPUs roll: the peak check lists nodes; none offers GPUs, so no pods LIST
    assert (fake.err, cluster.calls) == (
        "",
        [("get", "dynamo", "my-graph"), ("list", None, "nodes")],
    )


def test_restart_wait_reports_progress_on_stderr_and_the_end_on_stdout() -> None:
    def restarting(rv: str, phase: str, in_progress: list[str]) -> dict[str, Any]:
        obj = graph(restart={"id": "r9", "strategy": {"type": "Sequential"}})
        obj["metadata"]["resourceVersion"] = rv
        obj["status"]["restart"] = {"observedID": "r9", "phase": phase, "inProgress": in_progress}
        return obj

    script = [
        ("MODIFIED", restarting("2", "Restarting", ["decode"])),
        ("MODIFIED", restarting("3", "Restarting", ["decode"])),  # no change: no new line
        ("MODIFIED", restarting("4", "Completed", [])),
    ]
    cluster = FakeCluster([graph()], watch_scripts=[script])
    fake = FakeDeps(cluster, now=NOW)
    assert invoke(fake, "restart", "my-graph", "--id", "r9", "--wait", "--timeout", "1m") == 0
    assert fake.out == (
        "dynamo/my-graph: restart id (none) -> r9\n"
        "strategy: Sequential (default order: Frontend, decode, prefill)\n"
        "dynamographdeployment.nvidia.com/my-graph restart requested\n"
        "restart r9 completed\n"
    )
    # rollout status's prose (one per change); the outcome is the result on stdout
    assert fake.err == (
        'Waiting for dgd "my-graph" rollout to finish: restart r9 not yet picked up by\n'
        "  the operator...\n"
        'Waiting for dgd "my-graph" rollout to finish: restart r9 Restarting (done:\n'
        "  Frontend; in progress: decode; next: prefill)...\n"
    )
    # --wait adds the peak-GPU check: a LIST of nodes (none offers GPUs here, so no pods LIST);
    # then why's reads (a GET of the graph first) once, for the one line the operator acted on
    calls = [verb for verb, _, _ in cluster.calls]
    assert calls[:4] == ["get", "patch", "list", "watch"]
    assert calls[4:].count("get") == 1 and set(calls[4:]) == {"get", "list"}


# ---- --no-headers on every table -------------------------------------------------------------


def _header_rows(text: str) -> list[str]:
    heads = ("NAME ", "COMPONENT ", "TYPE ", "LAST SEEN ")
    return [line for line in text.splitlines() if line.lstrip().startswith(heads)]


@pytest.mark.parametrize(
    "args",
    [
        ("status", "my-graph"),
        ("status", "my-graph", "-o", "wide"),
        ("status", "my-graph", "--events"),
        ("status", "-f", str(EXAMPLES / "status" / "healthy.yaml")),
        ("status", "-f", str(EXAMPLES / "status" / "grove-healthy.yaml"), "-o", "wide"),
    ],
    ids=" ".join,
)
def test_no_headers_leaves_out_every_tables_header_row_and_nothing_else(
    args: tuple[str, ...],
) -> None:
    events = {("dynamo", "my-graph"): [_event("Scheduled", "assigned")]}
    with_headers = FakeDeps(FakeCluster([graph()], events=events), now=NOW)
    assert invoke(with_headers, *args) == 0
    without = FakeDeps(FakeCluster([graph()], events=events), now=NOW)
    assert invoke(without, *args, "--no-headers") == 0
    headers = _header_rows(with_headers.out)
    assert headers and _header_rows(without.out) == []
    kept = [line for line in with_headers.out.splitlines() if line not in headers]
    assert [line.split() for line in without.out.splitlines()] == [line.split() for line in kept]


def _event(reason: str, message: str) -> dict[str, Any]:
    return {
        "type": "Normal",
        "reason": reason,
        "message": message,
        "count": 1,
        "lastTimestamp": "2026-11-01T11:58:00Z",
        "involvedObject": {"kind": "DynamoGraphDeployment", "name": "my-graph"},
    }


@pytest.mark.parametrize("columns", ["80", "200"])
def test_restart_plan_wraps_its_order_at_the_terminal_width(columns: str) -> None:
    from tests.cluster.conftest import component

    names = ["Frontend", "VllmPrefillWorkerForLongContexts", "VllmDecodeWorkerForLongContexts"]
    comps = [component(name, "frontend" if i == 0 else "worker") for i, name in enumerate(names)]
    cluster = FakeCluster([graph(components=comps)])
    fake = FakeDeps(cluster, now=NOW, environ={"COLUMNS": columns})
    assert invoke(fake, "restart", "my-graph", "--id", "r7", "--dry-run") == 0
    assert_golden(f"restart/long-names-dry-run_{columns}.txt", fake.out)
    assert max(len(line) for line in fake.out.splitlines()) <= int(columns)


@pytest.mark.parametrize("columns", ["80", "200"])
def test_status_with_events_fits_the_terminal(columns: str) -> None:
    events = {
        ("dynamo", "my-graph"): [
            _event("Reconciled", "graph reconciled"),
            _event(
                "FailedScheduling",
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes "
                "are available: 3 No preemption victims found for incoming pod.",
            ),
        ]
    }
    fake = FakeDeps(FakeCluster([graph()], events=events), now=NOW, environ={"COLUMNS": columns})
    assert invoke(fake, "status", "my-graph", "--events") == 0
    assert_golden(f"status/live-events_{columns}.txt", fake.out)
    assert max(len(line) for line in fake.out.splitlines()) <= int(columns)
