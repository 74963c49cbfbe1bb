"""Parameters: every source Argo CD can use, their precedence, and their announcements."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from kubectl_dgd.argocd.settings import PARAMETERS, api_versions, param_env_suffix, read_settings
from kubectl_dgd.errors import UsageError
from tests.argocd.harness import FIXTURE_REPO, PLUGIN_YAML, plugin_spec, repo_copy, run_plugin

CUSTOM_TAG = (
    Path(__file__).resolve().parent.parent
    / "fixtures"
    / "versions"
    / "custom-tag-without-override.yaml"
)


def _app_params(**values: str) -> dict[str, str]:
    return {
        "ARGOCD_APP_PARAMETERS": json.dumps([{"name": k, "string": v} for k, v in values.items()])
    }


def test_defaults_apply_when_argocd_sends_nothing() -> None:
    settings = read_settings({})
    assert (
        settings.restart_id,
        settings.provider,
        settings.lpx,
        settings.strict,
        settings.children,
    ) == (
        None,
        None,
        False,
        False,
        "none",
    )


def test_null_parameters_of_an_application_without_parameters_mean_defaults() -> None:
    # Go marshals the Application's empty parameter list as null, and Argo CD always sends it.
    settings = read_settings({"ARGOCD_APP_PARAMETERS": "null", "ARGOCD_ENV_DGD_LPX": "true"})
    assert (settings.restart_id, settings.provider, settings.lpx, settings.warnings) == (
        None,
        None,
        True,
        (),
    )


@pytest.mark.parametrize(
    "env",
    [
        _app_params(provider="component"),
        {"PARAM_PROVIDER": "component"},
        {"ARGOCD_ENV_DGD_PROVIDER": "component"},
        {"DGD_PROVIDER": "component"},
    ],
    ids=["app-parameters", "param-env", "plugin-env-prefixed", "plugin-env-unprefixed"],
)
def test_every_source_is_read(env: dict[str, str]) -> None:
    assert read_settings(env).provider == "component"


def test_precedence_is_parameters_then_param_then_prefixed_env_then_sidecar_env() -> None:
    env = {"DGD_PROVIDER": "grove", "ARGOCD_ENV_DGD_PROVIDER": "component"}
    assert read_settings(env).provider == "component"
    env |= {"PARAM_PROVIDER": "grove"}
    assert read_settings(env).provider == "grove"
    env |= _app_params(provider="component")
    assert read_settings(env).provider == "component"


def test_empty_values_count_as_unset() -> None:
    assert (
        read_settings({"PARAM_PROVIDER": "", "DGD_PROVIDER": "component"}).provider == "component"
    )


def test_values_are_case_insensitive_and_normalised() -> None:
    settings = read_settings(
        _app_params(**{"restart-strategy": "parallel", "restart-id": "r1", "lpx": "TRUE"})
    )
    assert (settings.restart_strategy, settings.lpx) == ("Parallel", True)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            _app_params(provider="openshift"),
            "parameter provider: 'openshift' is not one of auto, grove, component",
        ),
        (_app_params(strict="maybe"), "parameter strict: 'maybe' is not true or false"),
        ({"ARGOCD_APP_PARAMETERS": "[{"}, "ARGOCD_APP_PARAMETERS is not valid JSON"),
        (
            {"ARGOCD_APP_PARAMETERS": json.dumps([{"name": "provider", "array": ["grove"]}])},
            "parameter provider: must be a string, not an array or a map",
        ),
    ],
)
def test_malformed_values_are_usage_errors_naming_the_parameter(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_settings(env)


def test_unknown_parameters_warn_but_informational_ones_do_not() -> None:
    env = {
        "ARGOCD_APP_PARAMETERS": json.dumps(
            [
                {"name": "replica", "string": "2"},
                {"name": "graphs", "map": {"a": "b"}},
                {"name": "components.x", "map": {}},
            ]
        )
    }
    assert read_settings(env).warnings == ("unknown parameter 'replica' ignored",)


def test_param_names_follow_argocd_env_rule() -> None:
    assert param_env_suffix("restart-id") == "RESTART_ID"
    assert param_env_suffix("a.b/c") == "A_B_C"


def test_kube_api_versions_decide_grove_and_lws_availability() -> None:
    served = api_versions({"KUBE_API_VERSIONS": "apps/v1,v1,nvidia.com/v1beta1"})
    profile = read_settings({}).profile(served)
    assert (profile.grove, profile.lws) == (False, False)
    assert read_settings({}).profile(frozenset()).grove is True


def test_plugin_yaml_announces_exactly_the_parameter_table() -> None:
    static = plugin_spec()["parameters"]["static"]
    assert [p["name"] for p in static] == [p.name for p in PARAMETERS]
    for announced, param in zip(static, PARAMETERS, strict=True):
        assert announced["title"] == param.title
        assert announced["string"] == param.default
        assert " ".join(announced["tooltip"].split()) == param.tooltip


def test_plugin_yaml_is_a_named_plugin_without_discovery() -> None:
    config = yaml.safe_load(PLUGIN_YAML.read_text())
    assert config["kind"] == "ConfigManagementPlugin"
    assert config["metadata"]["name"] == "dgd"
    assert "discover" not in config["spec"]
    assert config["spec"]["generate"]["command"] == ["dgd-argocd", "generate"]


# End to end: each parameter through the repo server.


def test_restart_id_stamps_spec_restart_on_every_graph() -> None:
    run = run_plugin(
        FIXTURE_REPO,
        "apps/plain",
        parameters=[{"name": "restart-id", "string": "2026-01-02T03:04:05Z"}],
    )
    assert run.returncode == 0, run.stderr
    assert [o["spec"]["restart"] for o in run.objects] == [
        {"id": "2026-01-02T03:04:05Z", "strategy": {"type": "Sequential"}}
    ] * 2
    assert "spec.restart must be unset on create" in run.stderr


def test_a_restart_id_from_git_is_stamped_so_the_restart_actions_stay_disabled() -> None:
    # The discovery script reads this annotation on the live graph (test_argocd_vm.py runs it).
    stamped = run_plugin(
        FIXTURE_REPO, "apps/plain", parameters=[{"name": "restart-id", "string": "r-1"}]
    )
    assert stamped.returncode == 0, stamped.stderr
    assert [o["metadata"]["annotations"] for o in stamped.objects] == [
        {"kubectl-dgd.nvidia.com/restart-from": "git"}
    ] * 2
    plain = run_plugin(FIXTURE_REPO, "apps/plain")
    assert plain.returncode == 0, plain.stderr
    assert all("annotations" not in o["metadata"] for o in plain.objects)


def test_restart_strategy_parallel_from_plugin_env() -> None:
    run = run_plugin(
        FIXTURE_REPO,
        "apps/plain",
        plugin_env={"DGD_RESTART_ID": "r-7", "DGD_RESTART_STRATEGY": "Parallel"},
    )
    assert run.returncode == 0, run.stderr
    assert run.objects[0]["spec"]["restart"] == {"id": "r-7", "strategy": {"type": "Parallel"}}


def test_lpx_graph_with_sequential_restart_is_refused() -> None:
    run = run_plugin(
        FIXTURE_REPO,
        "apps/lpx",
        parameters=[
            {"name": "lpx", "string": "true"},
            {"name": "restart-id", "string": "r-1"},
            {"name": "restart-strategy", "string": "Sequential"},
        ],
    )
    assert run.returncode == 1
    assert run.stdout == ""
    assert (
        "lpx.yaml:11: spec.restart: spec.restart.strategy.type must be Parallel when the graph "
        "contains LPX components (set the parameter restart-strategy to Parallel)"
    ) in run.stderr_lines


def test_lpx_graph_restart_defaults_to_parallel() -> None:
    run = run_plugin(
        FIXTURE_REPO,
        "apps/lpx",
        parameters=[{"name": "lpx", "string": "true"}, {"name": "restart-id", "string": "r-1"}],
    )
    assert run.returncode == 0, run.stderr
    assert run.objects[0]["spec"]["restart"]["strategy"] == {"type": "Parallel"}


def test_lpx_graph_is_refused_when_the_operator_has_lpx_disabled() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/lpx")
    assert run.returncode == 1
    assert run.stdout == ""


def test_strict_turns_unknown_fields_into_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.argocd.harness import repo_copy

    repo = repo_copy(tmp_path)
    graph = repo / "apps" / "plain" / "agg.yaml"
    graph.write_text(
        graph.read_text().replace(
            "  backendFramework: vllm\n", "  backendFramework: vllm\n  replicaz: 3\n"
        )
    )
    lenient = run_plugin(repo, "apps/plain")
    assert lenient.returncode == 0
    assert any(
        "spec.replicaz" in line and line.endswith("(warning)") for line in lenient.stderr_lines
    )
    strict = run_plugin(repo, "apps/plain", parameters=[{"name": "strict", "string": "true"}])
    assert strict.returncode == 1
    assert any(line.startswith("agg.yaml:9: spec.replicaz:") for line in strict.stderr_lines)


def test_provider_parameter_reaches_validation() -> None:
    grove = run_plugin(
        FIXTURE_REPO, "apps/plain", parameters=[{"name": "provider", "string": "grove"}]
    )
    component = run_plugin(FIXTURE_REPO, "apps/plain", sidecar_env={"DGD_PROVIDER": "component"})
    assert grove.returncode == component.returncode == 0
    assert grove.stdout == component.stdout  # the provider changes checks, never the output


def test_bad_parameter_exits_2_with_one_line() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/plain", parameters=[{"name": "children", "string": "all"}])
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr_lines == ["dgd-argocd: parameter children: 'all' is not one of none, preview"]


def test_dynamic_parameters_announce_graphs_and_components() -> None:
    # the real process, as the cmp-server starts plugin.yaml's command (found on PATH)
    run = run_plugin(FIXTURE_REPO, "apps/plain", command="parameters", subprocess=True)
    assert run.returncode == 0, run.stderr
    assert "ARGOCD_APP_NAMESPACE" not in run.env
    announced = json.loads(run.stdout)
    assert announced[0] == {
        "name": "graphs",
        "title": "DynamoGraphDeployments in this application (information only)",
        "tooltip": "Graphs found below the application path; setting this parameter changes nothing.",
        "collectionType": "map",
        "map": {"dynamo/agg": "agg.yaml:2, 2 components", "disagg": "disagg.yaml:1, 3 components"},
    }
    assert announced[1]["name"] == "components.agg"
    assert announced[1]["map"] == {
        "Frontend": "frontend, 1 replica",
        "VllmDecodeWorker": "worker, 2 replicas",
    }
    assert all(a["collectionType"] == "map" for a in announced)
    # Exactly what Argo CD's json.Unmarshal into []*ParameterAnnouncement accepts: known fields,
    # map[string]string maps.
    fields = {"name", "title", "tooltip", "required", "itemType", "collectionType"}
    fields |= {"string", "array", "map"}
    for item in announced:
        assert set(item) <= fields, item
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in item["map"].items())


def test_graphs_of_one_name_in_two_namespaces_get_distinct_announcements(tmp_path: Path) -> None:
    repo = repo_copy(tmp_path)
    plain = repo / "apps" / "plain"
    agg = (plain / "agg.yaml").read_text()
    assert "  namespace: dynamo\n" in agg
    (plain / "agg-staging.yaml").write_text(
        agg.replace("  namespace: dynamo\n", "  namespace: staging\n")
    )
    run = run_plugin(repo, "apps/plain", command="parameters")
    assert run.returncode == 0, run.stderr
    names = [a["name"] for a in json.loads(run.stdout)]
    assert len(names) == len(set(names)), names
    assert {"components.dynamo/agg", "components.staging/agg", "components.disagg"} <= set(names)


def test_dynamic_parameters_never_fail_the_page() -> None:
    run = run_plugin(FIXTURE_REPO, "apps/empty", command="parameters")
    assert run.returncode == 0
    assert json.loads(run.stdout) == []


def test_children_preview_adds_one_configmap_per_graph_and_no_operator_objects() -> None:
    run = run_plugin(
        FIXTURE_REPO,
        "apps/plain",
        parameters=[
            {"name": "children", "string": "preview"},
            {"name": "provider", "string": "component"},
        ],
    )
    assert run.returncode == 0, run.stderr
    assert [(o["kind"], o["metadata"]["name"]) for o in run.objects] == [
        ("DynamoGraphDeployment", "agg"),
        ("ConfigMap", "agg-dgd-preview"),
        ("DynamoGraphDeployment", "disagg"),
        ("ConfigMap", "disagg-dgd-preview"),
    ]
    preview = run.objects[1]
    assert "ownerReferences" not in preview["metadata"]
    assert preview["metadata"]["namespace"] == "dynamo"
    assert run.objects[3]["metadata"]["namespace"] == "dynamo"  # the destination namespace
    summary = yaml.safe_load(preview["data"]["summary.yaml"])
    children = [o for o in yaml.safe_load_all(preview["data"]["children.yaml"]) if o]
    worker_dcd = next(
        o
        for o in children
        if o["kind"] == "DynamoComponentDeployment" and "vllmdecodeworker" in o["metadata"]["name"]
    )
    assert worker_dcd["metadata"]["name"] == f"agg-vllmdecodeworker-{summary['workerHash']}"
    assert (
        summary["components"]["VllmDecodeWorker"]["children"][0]
        == f"DynamoComponentDeployment/{worker_dcd['metadata']['name']}"
    )
    assert (
        summary["components"]["Frontend"]["onTemplateChange"]
        == "in-place rolling update of its Deployment"
    )


def test_children_preview_shows_a_worker_change_as_a_new_hash(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.argocd.harness import repo_copy

    params = [
        {"name": "children", "string": "preview"},
        {"name": "provider", "string": "component"},
    ]
    before = run_plugin(FIXTURE_REPO, "apps/plain", parameters=params)
    repo = repo_copy(tmp_path)
    graph = repo / "apps" / "plain" / "agg.yaml"
    graph.write_text(graph.read_text().replace('"Qwen/Qwen3-0.6B"]', '"Qwen/Qwen3-1.7B"]', 1))
    after = run_plugin(repo, "apps/plain", parameters=params)
    hash_of = lambda run: yaml.safe_load(run.objects[1]["data"]["summary.yaml"])["workerHash"]  # noqa: E731
    assert hash_of(before) != hash_of(after)
    assert before.objects[3] == after.objects[3]  # the other graph's preview is untouched


def test_children_preview_is_byte_identical_across_runs() -> None:
    params = [{"name": "children", "string": "preview"}]
    assert (
        run_plugin(FIXTURE_REPO, "apps/plain", parameters=params).stdout
        == run_plugin(FIXTURE_REPO, "apps/plain", parameters=params).stdout
    )


def test_children_preview_too_large_to_apply_keeps_only_the_summary(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Client-side apply copies the object into an annotation (256 KiB for all annotations): a
    # preview above the budget would fail the sync, so its children are dropped with a warning.
    from kubectl_dgd.argocd.preview import MAX_APPLIED_BYTES
    from tests.argocd.harness import repo_copy

    repo = repo_copy(tmp_path)
    graph = repo / "apps" / "plain" / "agg.yaml"
    big = "x" * 110_000
    graph.write_text(
        graph.read_text().replace(
            "              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n",
            "              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0\n"
            f"              env: [{{name: PROMPT, value: {big}}}]\n",
        )
    )
    run = run_plugin(repo, "apps/plain", parameters=[{"name": "children", "string": "preview"}])
    assert run.returncode == 0, run.stderr
    preview = run.objects[1]
    assert preview["data"]["children.yaml"].startswith("# ")
    assert yaml.safe_load(preview["data"]["summary.yaml"])["graph"] == "agg"
    assert len(json.dumps(preview, separators=(",", ":"))) < MAX_APPLIED_BYTES
    assert "agg.yaml: children preview of agg is too large; only the summary is kept" in (
        run.stderr_lines
    )
    small = run.objects[3]  # the other graph keeps its children
    assert small["data"]["children.yaml"].startswith("---\n")


def test_operator_version_parameter_selects_the_release_and_defaults_to_the_newest() -> None:
    assert read_settings({}).operator_version == "1.6"
    settings = read_settings(_app_params(**{"operator-version": "v1.4.2"}))
    assert settings.operator_version == "1.4"
    assert settings.profile().operator_version == "1.4"
    assert read_settings({"DGD_OPERATOR_VERSION": "1.3"}).operator_version == "1.3"
    with pytest.raises(UsageError, match=re.escape("1.3, 1.4, 1.5, 1.6")):
        read_settings(_app_params(**{"operator-version": "2.0"}))


def test_generate_applies_the_operator_version(tmp_path: Path) -> None:
    app = tmp_path / "apps" / "custom-tag"
    app.mkdir(parents=True)
    (app / "graph.yaml").write_text(CUSTOM_TAG.read_text())
    rejected = run_plugin(tmp_path, "apps/custom-tag")
    assert rejected.returncode == 1
    assert "runtimeVersionOverride: Required value" in rejected.stderr
    admitted = run_plugin(
        tmp_path, "apps/custom-tag", env_overrides={"PARAM_OPERATOR_VERSION": "1.3"}
    )
    assert admitted.returncode == 0, admitted.stderr


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (None, "null"),
        (5, "a number"),
        (True, "a boolean"),
        (["a"], "an array"),
        ({"a": "b"}, "a map"),
    ],
)
def test_a_parameter_of_the_wrong_json_type_is_refused_not_stamped_as_text(
    value: object, shown: str
) -> None:
    raw = json.dumps([{"name": "restart-id", "string": value}])
    run = run_plugin(FIXTURE_REPO, "apps/plain", env_overrides={"ARGOCD_APP_PARAMETERS": raw})
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr_lines == [f"dgd-argocd: parameter restart-id: must be a string, not {shown}"]
