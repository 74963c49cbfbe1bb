"""``history`` and ``undo`` against the test API server: revisions from last-applied-configuration,
the write guarded by the resourceVersion (a spec change in between is exit 4 and nothing lost; a
status-only write in between is retried), Argo CD refusal, and the reads that fail."""

from __future__ import annotations

import copy
import json
from typing import Any

from tests.apiserver.faults import matching
from tests.apiserver.server import ApiServer
from tests.cluster.conftest import NS, dgd, graph

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def _applied_then_edited() -> dict[str, Any]:
    """A graph kubectl apply created (decode at 2 replicas), then edited to 4 by hand."""
    obj = graph()
    applied = copy.deepcopy({k: obj[k] for k in ("apiVersion", "kind", "metadata", "spec")})
    obj["metadata"]["annotations"][LAST_APPLIED] = json.dumps(applied)
    obj["spec"]["components"][1]["replicas"] = 4
    return obj


def _rt(server: ApiServer) -> Any:
    rt = server.store.type_for("nvidia.com", "v1beta1", "dynamographdeployments")
    assert rt is not None
    return rt


def _stored(server: ApiServer) -> dict[str, Any]:
    return server.store.get(_rt(server), NS, "my-graph")


def test_history_lists_last_applied_then_live(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())
    done = dgd(apiserver, "history", "my-graph", "-o", "json")
    assert done.returncode == 0, done.stderr
    first, live = json.loads(done.stdout)["revisions"]
    assert first["source"] == "last-applied-configuration" and first["exact"]
    assert first["changes"] == ["spec.components[1].replicas"]
    assert live["live"] and live["revision"] == 2
    text = dgd(apiserver, "history", "my-graph", env={"COLUMNS": "120"})
    assert text.stdout.splitlines()[1].split()[:2] == ["1", "last-applied-configuration"]


def test_undo_writes_the_previous_spec_in_one_merge_patch(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())
    version = _stored(apiserver)["metadata"]["resourceVersion"]
    apiserver.clear_log()
    done = dgd(apiserver, "undo", "my-graph")
    assert done.returncode == 0, done.stderr
    assert "rolled back to revision 1 (last-applied-configuration)" in done.stdout
    assert "no rolling update" in done.stdout  # replicas are not in the worker hash
    assert _stored(apiserver)["spec"]["components"][1]["replicas"] == 2
    (patch,) = apiserver.requests("patch", "dynamographdeployments")
    assert patch.content_type == "application/merge-patch+json"
    assert _stored(apiserver)["metadata"]["resourceVersion"] != version


def test_a_spec_change_in_between_is_exit_4_and_nothing_is_lost(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())

    def other_writer(_record: object) -> None:
        def change(obj: dict[str, Any]) -> dict[str, Any]:
            obj["spec"]["components"][0]["replicas"] = 7
            return obj

        apiserver.store.patch(_rt(apiserver), NS, "my-graph", change)

    apiserver.faults.before(other_writer, matching("patch"), times=1)
    done = dgd(apiserver, "undo", "my-graph")
    assert done.returncode == 4
    assert done.stderr.count("\n") == 1 and "nothing was written" in done.stderr
    after = _stored(apiserver)
    assert after["spec"]["components"][0]["replicas"] == 7  # theirs kept
    assert after["spec"]["components"][1]["replicas"] == 4  # ours not written


def test_a_status_write_in_between_is_retried(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())

    def operator_status(_record: object) -> None:
        status = _stored(apiserver)["status"]
        status["observedGeneration"] = 1
        apiserver.store.write_status(_rt(apiserver), NS, "my-graph", status)

    apiserver.faults.before(operator_status, matching("patch"), times=1)
    done = dgd(apiserver, "undo", "my-graph")
    assert done.returncode == 0, done.stderr
    assert _stored(apiserver)["spec"]["components"][1]["replicas"] == 2


def test_argo_cd_tracked_graph_is_refused_when_its_application_cannot_be_read(
    apiserver: ApiServer,
) -> None:
    obj = _applied_then_edited()
    obj["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"] = (
        f"graphs:nvidia.com/DynamoGraphDeployment:{NS}/my-graph"
    )
    apiserver.seed(obj)
    apiserver.clear_log()
    done = dgd(apiserver, "undo", "my-graph")
    assert done.returncode == 1
    assert "refused: the graph is tracked by Argo CD Application argocd/graphs" in done.stderr
    assert "selfHeal may be on" in done.stderr and "--force" in done.stderr
    assert not apiserver.requests("patch", "dynamographdeployments")
    forced = dgd(apiserver, "undo", "my-graph", "--force")
    assert forced.returncode == 0, forced.stderr
    assert _stored(apiserver)["spec"]["components"][1]["replicas"] == 2


def test_an_unknown_revision_is_exit_2_with_the_revisions(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())
    done = dgd(apiserver, "undo", "my-graph", "--to-revision", "5")
    assert done.returncode == 2
    assert "no revision 5 of 'my-graph'; revisions: 1, 2" in done.stderr
    live = dgd(apiserver, "undo", "my-graph", "--to-revision", "2")
    assert live.returncode == 1 and "is the live spec" in live.stderr


def test_abort_without_a_rolling_update_is_exit_1(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())
    done = dgd(apiserver, "abort", "my-graph")
    assert done.returncode == 1
    assert "no managed rolling update of 'my-graph' runs: nothing to abort" in done.stderr


def test_a_missing_graph_is_exit_3(apiserver: ApiServer) -> None:
    for verb in ("history", "undo", "abort"):
        done = dgd(apiserver, verb, "nope")
        assert done.returncode == 3, verb
        assert "Traceback" not in done.stderr


def test_forbidden_dcds_warn_and_history_still_shows(apiserver: ApiServer) -> None:
    apiserver.seed(_applied_then_edited())
    apiserver.faults.forbid("list", "dynamocomponentdeployments")
    done = dgd(apiserver, "history", "my-graph", "-o", "json")
    assert done.returncode == 0, done.stderr
    assert "warning: DynamoComponentDeployments not read" in done.stderr
    assert len(json.loads(done.stdout)["revisions"]) == 2


FILE = """\
# the graph as Git holds it
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: my-graph
  namespace: dynamo
spec:
  backendFramework: vllm  # the backend
  components:
    - name: Frontend
      type: frontend
      replicas: 1
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/dynamo:1.5.0
    # decode: scaled by hand to 4
    - name: decode
      type: decode
      replicas: 4
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/dynamo:1.5.0
              resources:
                limits:
                  nvidia.com/gpu: "1"
    - name: prefill
      type: prefill
      replicas: 1
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/dynamo:1.5.0
              resources:
                limits:
                  nvidia.com/gpu: "2"
"""


def test_undo_into_a_file_sets_only_what_differs_and_keeps_comments(
    apiserver: ApiServer, tmp_path: Any
) -> None:
    apiserver.seed(_applied_then_edited())
    before = _stored(apiserver)["metadata"]["resourceVersion"]
    path = tmp_path / "my-graph.yaml"
    path.write_text(FILE)
    done = dgd(apiserver, "undo", "-f", str(path))
    assert done.returncode == 0, done.stderr
    assert "to revision 1 (last-applied-configuration); changed: spec.components[1].replicas" in (
        done.stdout
    )
    assert path.read_text() == FILE.replace("replicas: 4", "replicas: 2")
    assert _stored(apiserver)["metadata"]["resourceVersion"] == before  # the cluster untouched


def test_undo_into_a_file_of_another_graph_is_exit_3(apiserver: ApiServer, tmp_path: Any) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(FILE)
    done = dgd(apiserver, "undo", "other", "-f", str(path))
    assert done.returncode == 3
    assert "no DynamoGraphDeployment named 'other'" in done.stderr
    assert path.read_text() == FILE


def test_undo_into_a_file_sets_a_key_with_dots(apiserver: ApiServer, tmp_path: Any) -> None:
    """nvidia.com/gpu is one key: the path names it in brackets and the file edit finds it."""
    obj = graph()
    applied = copy.deepcopy({k: obj[k] for k in ("apiVersion", "kind", "metadata", "spec")})
    obj["metadata"]["annotations"][LAST_APPLIED] = json.dumps(applied)
    obj["spec"]["components"][1]["podTemplate"]["spec"]["containers"][0]["resources"] = {
        "limits": {"nvidia.com/gpu": "8"}
    }
    apiserver.seed(obj)
    path = tmp_path / "g.yaml"
    path.write_text(FILE.replace('nvidia.com/gpu: "1"', 'nvidia.com/gpu: "8"'))
    done = dgd(apiserver, "undo", "-f", str(path))
    assert done.returncode == 0, done.stderr
    assert "resources.limits[nvidia.com/gpu]" in done.stdout
    assert path.read_text() == FILE
